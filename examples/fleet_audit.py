"""Audit a fleet of recorded agent sessions on a Dask cluster.

Each session file is audited by ctxguard (what each of its compactions
lost, altered or invented) as the map step of a Dask bag; Dask schedules,
retries and spreads the work over the workers of a cluster that is already
there, or of a local one started for the run.

    python examples/fleet_audit.py SOURCE [--out DIR] [--workers N]
                                   [--scheduler ADDRESS] [--policy FILE]

SOURCE is a folder (searched for session files) or an fsspec URL prefix
(`s3://bucket/sessions/`, `gs://…`, with the matching fsspec package
installed). The run writes `DIR/events/*.jsonl`, one line per audited
compaction (`ctxguard audit --format jsonl`'s record, plus the session it
came from), one line per session that could not be audited;
`DIR/summary.json`: sessions, compactions, outcomes counted, verdicts,
failures, and sessions per second; and `DIR/fleet.json` and
`DIR/fleet.html`, the fleet report `ctxguard audit SOURCE --fleet-report`
writes: each worker sums its sessions into a `ctxguard.Fleet`, and the
pieces are merged in a tree reduction into the one summary the command
gives for the same sessions.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any, Iterable, Optional

import ctxguard

#: What a session file of a supported runtime is named like.
SUFFIXES = (".jsonl", ".json", ".traj")


def session_files(source: str) -> list[str]:
    """Every session file under `source`, a folder or an fsspec prefix, in
    a stable order."""
    if "://" in source:
        import fsspec

        fs, _, (root,) = fsspec.get_fs_token_paths(source)
        protocol = source.split("://", 1)[0]
        return sorted(
            f"{protocol}://{path}" for path in fs.find(root) if path.endswith(SUFFIXES)
        )
    root = Path(source)
    if root.is_file():
        return [str(root)]
    return sorted(str(path) for path in root.rglob("*") if path.is_file() and path.name.endswith(SUFFIXES))


def audit_one(source: str, policy: Optional[str] = None) -> list[dict[str, Any]]:
    """The map step: one session in, one record per compaction out, or one
    record saying why the session could not be audited. Runs on a worker."""
    started = time.perf_counter()
    local, temporary = source, None
    try:
        if "://" in source:
            import fsspec

            with fsspec.open(source, "rb") as remote:
                handle, temporary = tempfile.mkstemp(suffix=Path(source).suffix)
                with os.fdopen(handle, "wb") as out:
                    out.write(remote.read())
            local = temporary
        report = ctxguard.audit(local, policy=policy)
    except Exception as error:  # noqa: BLE001 - a worker reports, never dies
        return [{"session": source, "error": f"{type(error).__name__}: {error}"}]
    finally:
        if temporary:
            os.unlink(temporary)
    seconds = round(time.perf_counter() - started, 6)
    events = report.events or []
    # The session's part of the fleet summary, as JSON a worker can ship,
    # naming the session as the source does (not its temporary copy).
    fleet = report.fleet()
    sums = []
    if fleet is not None:
        part = fleet.summary()
        for worst in part["worst"]:
            if worst["session"] == local:
                worst["session"] = source
        sums = [{"session": source, "fleet": json.dumps(part)}]
    if not events:
        problems = [d.code for d in report.diagnostics if d.severity == "error"]
        return [{"session": source, "events": 0, "problems": problems, "seconds": seconds}] + sums
    return [dict(event, session=source, seconds=seconds) for event in events] + sums


def merge_fleets(summaries: Iterable[str]) -> str:
    """One fleet summary of many, as JSON: the reduction step."""
    fleet = ctxguard.Fleet()
    for summary in summaries:
        fleet.merge(ctxguard.Fleet.from_json(summary))
    return fleet.to_json()


def summarize(records: Iterable[dict[str, Any]], sessions: int, seconds: float) -> dict[str, Any]:
    """Totals over every record."""
    outcomes: Counter = Counter()
    verdicts: Counter = Counter()
    compactions = invented = 0
    failed = []
    for record in records:
        if "error" in record:
            failed.append(record)
            continue
        if "verdict" not in record:
            continue
        compactions += 1
        verdicts[record["verdict"]] += 1
        invented += len(record.get("invented", []))
        for commitment in record.get("commitments", []):
            outcomes[commitment["outcome"]] += 1
    return {
        "sessions": sessions,
        "compactions": compactions,
        "verdicts": dict(sorted(verdicts.items())),
        "outcomes": dict(sorted(outcomes.items())),
        "invented": invented,
        "failed": failed,
        "seconds": round(seconds, 3),
        "sessions_per_second": round(sessions / seconds, 2) if seconds else None,
    }


def run(
    source: str,
    out: Path,
    *,
    workers: int = 2,
    scheduler: Optional[str] = None,
    policy: Optional[str] = None,
    partitions: Optional[int] = None,
) -> dict[str, Any]:
    """Audits every session under `source` on the cluster at `scheduler`,
    or on a local cluster of `workers` processes, and writes the results
    under `out`. Returns the summary."""
    import dask.bag as db
    from distributed import Client, LocalCluster

    files = session_files(source)
    if scheduler:
        client = Client(scheduler)
        cluster = None
    else:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    try:
        workers_now = len(client.scheduler_info()["workers"])
        started = time.perf_counter()
        bag = db.from_sequence(files, npartitions=partitions or max(1, min(len(files), 4 * workers_now)))
        records = bag.map(audit_one, policy=policy).flatten()
        events_dir = out / "events"
        events_dir.mkdir(parents=True, exist_ok=True)
        for old in events_dir.glob("*.jsonl"):
            old.unlink()
        # One persisted pass: the JSON Lines parts and the summary read it.
        records = records.persist()
        is_sum = lambda record: "fleet" in record  # noqa: E731
        records.remove(is_sum).map(json.dumps).to_textfiles(str(events_dir / "*.jsonl"))
        fleet = (
            records.filter(is_sum)
            .pluck("fleet")
            .reduction(merge_fleets, merge_fleets, split_every=8)
            .compute()
        )
        summary = summarize(records.remove(is_sum).compute(), len(files), time.perf_counter() - started)
        summary["workers"] = workers_now
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    (out / "fleet.json").write_text(fleet)
    (out / "fleet.html").write_text(ctxguard.Fleet.from_json(fleet).to_html())
    return summary


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", help="a folder of session files, or an fsspec URL prefix")
    parser.add_argument("--out", type=Path, default=Path("fleet-audit"), help="where results go")
    parser.add_argument("--workers", type=int, default=2, help="local worker processes (no --scheduler)")
    parser.add_argument("--scheduler", help="address of a running Dask scheduler (tcp://host:8786)")
    parser.add_argument("--policy", help="the team policy the audit classifies with")
    parser.add_argument("--partitions", type=int, help="how many pieces the session list is cut into")
    args = parser.parse_args(argv)
    summary = run(args.source, args.out, workers=args.workers, scheduler=args.scheduler,
                  policy=args.policy, partitions=args.partitions)
    print(json.dumps({k: v for k, v in summary.items() if k != "failed"}, indent=2))
    if summary["failed"]:
        print(f"{len(summary['failed'])} sessions could not be audited: see {args.out / 'summary.json'}",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
