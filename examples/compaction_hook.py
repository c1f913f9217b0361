"""A runtime's compaction step, guarded by ctxguard: the shape of an
OpenHands condenser or a LangGraph summarization node, in plain Python.

The runtime condenses the way it always does (keep the task and the last
few messages, summarize the middle). ctxguard verifies that plan against
the buffer before it is applied:

- ``compact``: apply it;
- ``reject`` (it lost, altered or reordered a commitment): retry once with
  the stricter boundary, ctxguard's reference compactor, which summarizes
  narrative only and keeps every commitment and every user message no rule
  classified byte for byte, with the same summarizer; apply that if it
  verifies;
- ``escalate`` (no plan fits the budget without cutting a commitment), or a
  retry that still does not verify: stop and ask a person. Never silent
  loss.

Run it: ``python examples/compaction_hook.py`` prints what each attempt
decided for a small migration session.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Optional, Union

import ctxguard

#: `pin KIND [KEY]: TEXT`, the convention ctxguard's importers and hooks read.
PIN = re.compile(r"^pin\s+([a-z][a-z0-9_-]*)(?:\s+([^:\s]+))?\s*:\s*(.+)$", re.DOTALL)


@dataclass
class Message:
    """One message of the agent's buffer."""

    role: str  # "user", "assistant" or "tool"
    content: str


@dataclass
class Condensed:
    """The buffer to continue with, and how it was decided."""

    messages: list[Message]
    attempts: list[str]
    report: ctxguard.Report


@dataclass
class Escalation:
    """No safe compaction: a person decides. `diagnostics` say why."""

    reason: str
    attempts: list[str]
    diagnostics: list[ctxguard.Diagnostic] = field(default_factory=list)


def to_trace(messages: list[Message]) -> dict:
    """The buffer as a ctxguard trace: a user's `pin` is a commitment, any
    other user message is unclassified (it counts as a commitment), and
    what the agent and its tools said is narrative."""
    regions = []
    for i, message in enumerate(messages):
        region = {"id": f"m{i}", "role": message.role, "text": message.content}
        pinned = PIN.match(message.content.strip()) if message.role == "user" else None
        if pinned:
            kind, key, text = pinned.groups()
            region.update(kind=kind, key=key or f"m{i}", text=text.strip(), derived="pin")
        elif message.role == "user":
            region["kind"] = "unclassified"
        else:
            region["kind"] = "narrative"
        regions.append(region)
    return {"version": 1, "regions": regions}


def usual_plan(trace: dict, summarize: Callable[[str], str], keep_last: int) -> dict:
    """The runtime's own condensation: the first message and the last
    `keep_last` kept, everything between summarized in one summary."""
    regions = trace["regions"]
    middle = regions[1 : len(regions) - keep_last]
    plan = [{"keep": regions[0]["id"]}]
    if middle:
        text = summarize("\n\n".join(r["text"] for r in middle))
        plan.append({"kind": "summary", "covers": [r["id"] for r in middle], "text": text})
    plan += [{"keep": r["id"]} for r in regions[len(regions) - keep_last :]]
    return {"version": 1, "regions": plan}


def apply(trace: dict, plan: dict) -> list[Message]:
    """The buffer a verified plan describes."""
    by_id = {r["id"]: r for r in trace["regions"]}
    messages = []
    for entry in plan["regions"]:
        if "keep" in entry:
            kept = by_id[entry["keep"]]
            messages.append(Message(kept["role"], kept["text"]))
        elif entry.get("kind") == "summary":
            messages.append(Message("assistant", f"Summary of earlier work: {entry['text']}"))
        else:
            messages.append(Message("user", entry.get("text", "")))
    return messages


def condense(
    messages: list[Message],
    summarize: Callable[[str], str],
    *,
    policy: Optional[ctxguard.Policy] = None,
    budget: Optional[int] = None,
    keep_last: int = 2,
) -> Union[Condensed, Escalation]:
    """Condenses `messages`, never losing a commitment."""
    trace = to_trace(messages)
    attempts = []
    first = usual_plan(trace, summarize, keep_last)
    report = ctxguard.verify(trace, first, policy=policy, budget=budget)
    attempts.append(f"usual: {report.verdict}")
    if report.verdict == "compact":
        return Condensed(apply(trace, first), attempts, report)
    if report.verdict == "escalate":
        return Escalation("no compaction fits the budget", attempts, report.diagnostics)
    # Rejected: the stricter boundary, narrative only.
    strict = ctxguard.plan(trace, policy=policy, summarizer=summarize, budget=budget)
    attempts.append(f"strict: {strict.outcome}")
    if strict.outcome != "compact" or strict.plan is None:
        reason = {
            "escalate": "no compaction fits the budget",
            "failed": "the summarizer failed",
        }.get(strict.outcome, "no plan")
        return Escalation(reason, attempts, strict.diagnostics)
    report = ctxguard.verify(trace, strict.plan, policy=policy, budget=budget)
    attempts.append(f"strict verified: {report.verdict}")
    if report.verdict != "compact":
        return Escalation("the stricter plan did not verify", attempts, report.diagnostics)
    return Condensed(apply(trace, strict.plan), attempts, report)


def lossy_summarizer(text: str) -> str:
    """A stand-in for a model: keeps the gist, drops the details."""
    return "We looked at the users table and prepared the migration."


SESSION = [
    Message("user", "Write the migration for the users table."),
    Message("assistant", "Reading the schema of the users table."),
    Message("tool", "$ psql -c '\\d users'\n 14 columns"),
    Message("user", "pin constraint no-drop: Do not drop any columns."),
    Message("assistant", "Understood. Drafting an additive migration."),
    Message("tool", "wrote migrations/0042_users.sql"),
    Message("assistant", "The migration adds two columns."),
    Message("user", "Good. Run the tests next."),
]


if __name__ == "__main__":
    result = condense(SESSION, lossy_summarizer)
    print(" -> ".join(result.attempts))
    if isinstance(result, Condensed):
        for message in result.messages:
            print(f"  {message.role:9} {message.content}")
    else:
        print(f"escalate: {result.reason}")
