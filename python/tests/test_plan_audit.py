"""The reference compactor with a Python summarizer, and audits of recorded
sessions, as the command line gives them."""

import json
from pathlib import Path

import ctxguard

ROOT = Path(__file__).resolve().parents[2]
MIGRATION = ROOT / "tests" / "scenarios" / "migration"
SESSIONS = ROOT / "tests" / "fixtures" / "sessions"


def test_a_python_summarizer_writes_the_summaries_and_the_plan_verifies():
    runs = []

    def summarize(text: str) -> str:
        runs.append(text)
        return f"Summarized {len(text.split())} words of work."

    planned = ctxguard.plan(MIGRATION / "trace.yaml", summarizer=summarize)
    assert planned.outcome == "compact"
    summaries = [r for r in planned.plan["regions"] if r.get("kind") == "summary"]
    assert summaries and len(summaries) == len(runs)
    assert all(s["summarizer"] == "test_a_python_summarizer_writes_the_summaries_and_the_plan_verifies.<locals>.summarize" for s in summaries)
    assert ctxguard.verify(MIGRATION / "trace.yaml", planned.plan).verdict == "compact"
    assert json.loads(planned.plan_json) == planned.plan


def test_a_summarizer_that_raises_fails_the_plan_with_summarizer_failed():
    def down(text: str) -> str:
        raise ConnectionError("the model is down")

    planned = ctxguard.plan(MIGRATION / "trace.yaml", summarizer=down)
    assert (planned.outcome, planned.plan) == ("failed", None)
    (diagnostic,) = planned.diagnostics
    assert diagnostic.code == "summarizer-failed"
    assert "ConnectionError: the model is down" in diagnostic.message
    wrong = ctxguard.plan(MIGRATION / "trace.yaml", summarizer=lambda text: 42)
    assert wrong.outcome == "failed"
    assert wrong.diagnostics[0].code == "summarizer-failed"


def test_a_budget_no_plan_meets_escalates():
    planned = ctxguard.plan(MIGRATION / "trace.yaml", policy=MIGRATION / "tight.policy")
    assert planned.outcome == "escalate"
    assert [d.code for d in planned.diagnostics] == ["budget-unmeetable"]


def test_audit_and_import_give_what_the_command_line_gives(cli, tmp_path):
    session = SESSIONS / "claude-code.jsonl"
    report = ctxguard.audit(session)
    ran = cli("audit", "--format", "json", str(session))
    expected = json.loads(ran.stdout)
    assert report.events == expected["events"]
    assert report.exit_code == ran.returncode
    compactions = ctxguard.import_session(session)
    cli("import", str(session), "--out", str(tmp_path))
    assert len(compactions) == 2
    for n, compaction in enumerate(compactions, start=1):
        assert compaction["trace"] == json.loads((tmp_path / str(n) / "trace.json").read_text())
        assert compaction["plan"] == json.loads((tmp_path / str(n) / "plan.json").read_text())
        # What was imported verifies as the command line verifies it.
        verdict = ctxguard.verify(compaction["trace"], compaction["plan"]).verdict
        assert verdict == "reject"
