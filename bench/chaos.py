"""Chaos run: the chaos suite's harness (``tests/chaos/harness.py``) at a larger size.

Mixed jobs (tensor products and reductions of hundreds of chunks, groupby, merge, sort,
drop_duplicates) run from several client threads on a local cluster of real processes,
while workers are SIGKILLed and replaced (``workers``) or the active supervisor of
several is SIGKILLed and restarted on its address (``supervisors``). Prints each outcome
count and the slowest job as a Markdown table for ``docs/reliability.md``.

    .venv/bin/python bench/chaos.py [--scenario workers|supervisors|both]
        [--jobs 60] [--rows 2000000] [--kills 40] [--interval 2]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import jupyter_mars as mars  # noqa: E402
from tests.chaos.harness import (  # noqa: E402
    Report,
    SupervisorKiller,
    WorkerKiller,
    run_jobs,
    running,
)
from tests.chaos.test_chaos import (  # noqa: E402
    _active,
    _kill_supervisor,
    _restart_supervisor,
)
from tests.cluster.processes import cli_cluster, ha_cluster  # noqa: E402


def until_done(session: object, killer: object, args: argparse.Namespace) -> Report:
    report = Report()
    started = time.monotonic()
    with running(killer) as live:  # type: ignore[arg-type]
        while (live.kills < live.limit or len(report.outcomes) < args.jobs) and (
            time.monotonic() - started < args.max_seconds
        ):
            report.outcomes += run_jobs(
                session, 6, args.rows, clients=3, timeout=args.timeout, seed=len(report.outcomes)
            )
        report.kills = live.kills
    return report


def workers(args: argparse.Namespace) -> Report:
    with cli_cluster(args.workers, "--n-cpu", "1") as cluster:
        session = mars.new_session(cluster.url, token=cluster.token, default=False)
        try:
            killer = WorkerKiller(
                cluster.workers, cluster.add_worker, interval=args.interval, limit=args.kills
            )
            return until_done(session, killer, args)
        finally:
            session.close()


def supervisors(args: argparse.Namespace) -> Report:
    with ha_cluster(3, args.workers, "--n-cpu", "1") as cluster:
        session = mars.new_session(cluster.urls[0], token=cluster.token, default=False)
        try:
            killer = SupervisorKiller(
                lambda: _active(cluster),
                lambda index: _kill_supervisor(cluster, index),
                lambda index: _restart_supervisor(cluster, index),
                interval=args.interval,
                limit=min(args.kills, 10),
            )
            return until_done(session, killer, args)
        finally:
            session.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", choices=["workers", "supervisors", "both"], default="both")
    parser.add_argument("--jobs", type=int, default=60)
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--kills", type=int, default=40)
    parser.add_argument("--interval", type=float, default=2.0)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--max-seconds", type=float, default=1800.0)
    args = parser.parse_args()
    print(f"{platform.node()}: {os.cpu_count()} cores, Python {platform.python_version()}")
    print("| scenario | jobs | right | wrong | error | lost | kills | slowest job (s) |")
    print("|---|---|---|---|---|---|---|---|")
    scenarios = ["workers", "supervisors"] if args.scenario == "both" else [args.scenario]
    for name in scenarios:
        report = workers(args) if name == "workers" else supervisors(args)
        slowest = max((o.seconds for o in report.outcomes), default=0.0)
        counts = " | ".join(str(report.count(s)) for s in ("right", "wrong", "error", "lost"))
        print(
            f"| {name} | {len(report.outcomes)} | {counts} | {report.kills} | {slowest:.1f} |",
            flush=True,
        )
        for outcome in report.bad():
            print(f"<!-- {outcome.job}: {outcome.status}: {outcome.detail[:200]} -->")


if __name__ == "__main__":
    main()
