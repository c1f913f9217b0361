"""The runtime integration example decides exactly as ctxguard's boundary
says: apply a compact plan, retry a rejected one with the stricter
boundary, escalate when no plan fits."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples"))

import compaction_hook as hook  # noqa: E402


def test_a_rejected_plan_is_retried_with_the_stricter_boundary():
    result = hook.condense(hook.SESSION, hook.lossy_summarizer)
    assert isinstance(result, hook.Condensed)
    assert result.attempts == ["usual: reject", "strict: compact", "strict verified: compact"]
    said = [m.content for m in result.messages if m.role == "user"]
    # Every user message survives byte for byte; the pin as its text.
    assert said == [
        "Write the migration for the users table.",
        "Do not drop any columns.",
        "Good. Run the tests next.",
    ]
    assert len(result.messages) < len(hook.SESSION)


def test_a_plan_that_keeps_every_commitment_is_applied_at_once():
    session = [
        hook.Message("user", "Write the migration for the users table."),
        hook.Message("assistant", "Reading the schema."),
        hook.Message("tool", "14 columns"),
        hook.Message("assistant", "Drafting it."),
        hook.Message("user", "Good. Run the tests next."),
        hook.Message("assistant", "Running them."),
    ]
    result = hook.condense(session, hook.lossy_summarizer, keep_last=2)
    assert isinstance(result, hook.Condensed)
    assert result.attempts == ["usual: compact"]
    assert result.report.verdict == "compact"


def test_no_plan_within_the_budget_escalates_to_a_person():
    result = hook.condense(hook.SESSION, hook.lossy_summarizer, budget=12)
    assert isinstance(result, hook.Escalation)
    assert result.reason == "no compaction fits the budget"
    assert "budget-unmeetable" in [d.code for d in result.diagnostics]
