"""Chaos: mixed jobs on real processes while workers and supervisors are SIGKILLed.

Sized to fit the test suite on two cores; ``bench/chaos.py`` runs the same harness longer.
Every job must end with the right answer: none wrong, none lost, none failed.
"""

from __future__ import annotations

import gc
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from tests.chaos.harness import (
    KeepAlive,
    PeakRss,
    Report,
    SupervisorKiller,
    WorkerKiller,
    run_jobs,
    running,
    worker_pid,
)
from tests.cluster.processes import (
    CliCluster,
    HaCluster,
    cli_cluster,
    ha_cluster,
    start_supervisor,
)

pytestmark = pytest.mark.chaos

ROWS = 200_000
"""Rows of each DataFrame job, and numbers of each tensor reduction."""


@pytest.fixture
def session_of() -> Iterator[Any]:
    opened: list[Any] = []

    def session_of(url: str, token: str) -> Any:
        session = mars.new_session(url, token=token, default=False)
        opened.append(session)
        return session

    yield session_of
    for session in opened:
        session.close()


def test_mixed_jobs_while_twenty_workers_are_killed_lose_nothing(session_of: Any) -> None:
    with cli_cluster(3, "--n-cpu", "1") as cluster:
        session = session_of(cluster.url, cluster.token)
        data = np.arange(50_000, dtype=np.float64)
        before = mt.tensor(data, chunk_size=1000) * 3
        session.execute(before, show_progress=False)

        report = Report()
        killer = WorkerKiller(cluster.workers, cluster.add_worker, interval=1.5, limit=20)
        started = time.monotonic()
        with running(killer):
            # jobs go on until every kill has happened, and at least 30 of them ran
            while (killer.kills < killer.limit or len(report.outcomes) < 30) and (
                time.monotonic() - started < 600
            ):
                report.outcomes += run_jobs(
                    session, 6, ROWS, clients=3, timeout=120, seed=len(report.outcomes)
                )
        report.kills = killer.kills
        print(report.summary())
        assert not killer.errors, killer.errors
        assert not killer.died_alone, killer.died_alone
        assert report.kills == 20
        assert len(report.outcomes) >= 30
        assert report.bad() == [], report.summary()
        np.testing.assert_array_equal(before.fetch(session=session), data * 3)


def _active(cluster: HaCluster) -> int | None:
    for index, process in enumerate(cluster.supervisors):
        if process.popen.poll() is None:
            model = cluster.cluster(index)
            if model is not None and model["active"]:
                return index
    return None


def _kill_supervisor(cluster: HaCluster, index: int) -> None:
    process = cluster.supervisors[index]
    process.popen.send_signal(signal.SIGKILL)
    process.popen.wait(10)
    process.stop()  # closes its output pipe


def _restart_supervisor(cluster: HaCluster, index: int) -> None:
    port = int(cluster.rpc[index].rsplit(":", 1)[1])
    web = int(cluster.urls[index].rsplit(":", 1)[1])
    listed = ",".join(cluster.rpc)
    cluster.supervisors[index] = start_supervisor(cluster.env, port, web, "-s", listed)


def test_mixed_jobs_while_the_active_supervisor_is_killed_ten_times_lose_nothing(
    session_of: Any,
) -> None:
    with ha_cluster(3, 3, "--n-cpu", "1") as cluster:
        session = session_of(cluster.urls[0], cluster.token)
        killer = SupervisorKiller(
            lambda: _active(cluster),
            lambda index: _kill_supervisor(cluster, index),
            lambda index: _restart_supervisor(cluster, index),
            interval=2.0,
            limit=10,
        )
        report = Report()
        started = time.monotonic()
        with running(killer):
            while (killer.kills < killer.limit or len(report.outcomes) < 30) and (
                time.monotonic() - started < 600
            ):
                report.outcomes += run_jobs(
                    session, 6, ROWS // 4, clients=3, timeout=180, seed=len(report.outcomes)
                )
        report.kills = killer.kills
        print(report.summary())
        assert not killer.errors, killer.errors
        assert report.kills == 10
        assert report.bad() == [], report.summary()


def test_a_task_that_kills_its_worker_fails_naming_its_operator_and_the_next_job_runs(
    session_of: Any,
) -> None:
    def kill_my_worker(block: np.ndarray) -> np.ndarray:
        os.kill(os.getpid(), signal.SIGKILL)
        return block

    with cli_cluster(2, "--n-cpu", "1") as cluster:
        session = session_of(cluster.url, cluster.token)
        with KeepAlive(cluster.workers, cluster.add_worker):
            x = mt.tensor(np.arange(10.0), chunk_size=5)
            deadly = mt.elemwise(kill_my_worker, x, dtype=np.float64)
            future = session.execute(deadly, wait=False, show_progress=False)
            with pytest.raises(Exception, match="operator") as failed:
                future.result(timeout=180)
            message = str(failed.value)
            assert "kill_my_worker" in message, message
            assert "died" in message, message
            nxt = (mt.tensor(np.arange(100.0), chunk_size=10) + 1).sum()
            session.execute(nxt, show_progress=False)
            assert nxt.fetch(session=session) == np.arange(1.0, 101.0).sum()


def _spill_files(directory: Path) -> list[Path]:
    return [p for p in directory.rglob("*") if p.is_file() and not p.name.endswith(".lock")]


def _worker_pids(cluster: CliCluster) -> list[int]:
    return [worker_pid(w) for w in cluster.workers]


def test_three_times_the_cache_persisted_then_reduced_stays_within_memory_limits(
    session_of: Any, tmp_path: Path
) -> None:
    spill = tmp_path / "spill"
    spill.mkdir()
    limit = 400 * 2**20
    args = ("--n-cpu", "1", "--cache-mem", "64m", "--phy-mem", "400m", "--spill-dir", str(spill))
    with cli_cluster(2, *args) as cluster:
        session = session_of(cluster.url, cluster.token)
        n = 48 * 2**20 // 8 * 8  # 384 MiB of float64: three times the two caches
        with PeakRss(lambda: _worker_pids(cluster)) as rss:
            # doubled: chunks a task computes from others are written to disk (a range
            # alone would be dropped and drawn again, and nothing spilled)
            x = mt.arange(n, chunk_size=2**20, dtype=np.float64) * 2
            session.execute(x, show_progress=False)
            total = x.sum()
            session.execute(total, show_progress=False)
            assert total.fetch(session=session) == n * (n - 1)
        assert 0 < rss.peak <= limit, f"peak RSS {rss.peak / 2**20:.0f} MiB"
        assert _spill_files(spill), "nothing was spilled"
        del x, total
        gc.collect()
        deadline = time.monotonic() + 30
        while _spill_files(spill) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _spill_files(spill) == []
