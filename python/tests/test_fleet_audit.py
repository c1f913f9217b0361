"""The fleet audit on a local Dask cluster of two worker processes gives,
session for session, what auditing each file in this process gives."""

import json
import shutil
import sys
from collections import Counter
from pathlib import Path

import pytest

import ctxguard

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples"))

import fleet_audit  # noqa: E402

SESSIONS = ROOT / "tests" / "fixtures" / "sessions"
REAL = ROOT.parent / "shared" / "corpus" / "real"


def copies(source_files, times, into: Path):
    for n in range(times):
        folder = into / f"copy-{n}"
        folder.mkdir(parents=True)
        for file in source_files:
            shutil.copy(file, folder / file.name)


def one_by_one(files):
    """Verdicts and outcomes of auditing each file here, one at a time."""
    verdicts, outcomes = Counter(), Counter()
    for file in files:
        for event in ctxguard.audit(file).events or []:
            verdicts[event["verdict"]] += 1
            outcomes.update(c["outcome"] for c in event["commitments"])
    return verdicts, outcomes


def test_two_workers_audit_what_one_process_audits(tmp_path):
    files = sorted(path for path in SESSIONS.iterdir() if path.is_file())
    copies(files, 20, tmp_path / "in")
    summary = fleet_audit.run(str(tmp_path / "in"), tmp_path / "out", workers=2)
    verdicts, outcomes = one_by_one(files)
    assert summary["workers"] == 2
    assert summary["sessions"] == 20 * len(files)
    assert summary["verdicts"] == {k: 20 * v for k, v in sorted(verdicts.items())}
    assert summary["outcomes"] == {k: 20 * v for k, v in sorted(outcomes.items())}
    assert summary["failed"] == []
    lines = [
        json.loads(line)
        for part in sorted((tmp_path / "out" / "events").glob("*.jsonl"))
        for line in part.read_text().splitlines()
        if line.strip()
    ]
    audited = [line for line in lines if "verdict" in line]
    assert len(audited) == summary["compactions"] == 20 * sum(verdicts.values())
    assert {line["session"] for line in lines} == {
        str(path) for path in (tmp_path / "in").rglob("*") if path.is_file()
    }
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["sessions"] == summary["sessions"]


def test_the_distributed_fleet_summary_is_the_commands(tmp_path, cli):
    """Each worker sums its sessions into a Fleet and the pieces are merged
    in a tree: the summary is the one `ctxguard audit DIR --fleet-report`
    writes for the same folder, number for number."""
    files = sorted(path for path in SESSIONS.iterdir() if path.is_file())
    corpus = sorted((ROOT / "tests" / "corpus").rglob("*.jsonl"))
    copies(files + corpus[:12], 3, tmp_path / "in")
    fleet_audit.run(str(tmp_path / "in"), tmp_path / "out", workers=2, partitions=7)
    distributed = json.loads((tmp_path / "out" / "fleet.json").read_text())
    ran = cli("audit", "--format", "jsonl", str(tmp_path / "in"),
              "--fleet-report", str(tmp_path / "cli.json"))
    assert ran.returncode in (0, 1, 3), ran.stderr
    command = json.loads((tmp_path / "cli.json").read_text())
    assert command["compactions"] > 30
    assert distributed == command
    page = (tmp_path / "out" / "fleet.html").read_text()
    assert '<meta name="generator" content="ctxguard audit --fleet-report">' in page
    # A Fleet read back from its JSON and merged with an empty one is itself.
    fleet = ctxguard.Fleet.from_json(json.dumps(command))
    fleet.merge(ctxguard.Fleet())
    assert json.loads(fleet.to_json()) == command
    assert "session 1" in fleet.to_json(redact=True)
    with pytest.raises(ValueError, match="redacted"):
        ctxguard.Fleet.from_json(fleet.to_json(redact=True))


def test_a_file_that_is_no_session_is_reported_not_fatal(tmp_path):
    (tmp_path / "in").mkdir()
    shutil.copy(SESSIONS / "pi.jsonl", tmp_path / "in" / "pi.jsonl")
    (tmp_path / "in" / "notes.json").write_text('{"hello": "world"}\n')
    summary = fleet_audit.run(str(tmp_path / "in"), tmp_path / "out", workers=2)
    assert summary["sessions"] == 2
    lines = [
        json.loads(line)
        for part in (tmp_path / "out" / "events").glob("*.jsonl")
        for line in part.read_text().splitlines()
        if line.strip()
    ]
    notes = [line for line in lines if line["session"].endswith("notes.json")]
    assert notes == [dict(notes[0], problems=["unknown-session"], events=0)]


def test_the_real_corpus_with_one_and_two_workers(tmp_path, capsys):
    if not REAL.is_dir():
        pytest.skip(f"SKIPPED: the shared corpus of real sessions is not at {REAL}")
    # The recorded sessions; the runtime configs beside them are no sessions.
    files = sorted(
        path
        for path in REAL.rglob("*")
        if path.is_file()
        and path.name.endswith(fleet_audit.SUFFIXES)
        and not path.relative_to(REAL).parts[0].startswith("config-")
    )
    copies(files, 30, tmp_path / "in")
    rates = {}
    for workers in (1, 2):
        summary = fleet_audit.run(str(tmp_path / "in"), tmp_path / f"out-{workers}", workers=workers)
        rates[workers] = summary
    assert rates[1]["verdicts"] == rates[2]["verdicts"]
    assert rates[1]["outcomes"] == rates[2]["outcomes"]
    with capsys.disabled():
        print(
            f"\nfleet audit of the real corpus x30 ({rates[1]['sessions']} files, "
            f"{rates[1]['compactions']} compactions): "
            f"1 worker {rates[1]['sessions_per_second']} sessions/s, "
            f"2 workers {rates[2]['sessions_per_second']} sessions/s"
        )
