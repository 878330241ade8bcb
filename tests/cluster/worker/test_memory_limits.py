"""A worker keeps within its memory: a soft limit (spill, admit nothing new) and a hard
one (the task growing past it fails, named), measured on real worker processes."""

from __future__ import annotations

import re
import time

import numpy as np
import psutil
import pytest

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from tests.cluster.processes import cli_cluster, run_cli
from tests.peak_rss import PeakRss

MIB = 1 << 20


def hog(block):
    """Allocates 16 MiB at a time, up to 1.5 GiB, keeping all of it."""
    kept = []
    for _ in range(96):
        kept.append(np.ones(2 * MIB))
        time.sleep(0.02)
    return block + len(kept)


def test_a_job_that_needs_more_than_the_worker_memory_stays_within_it(tmp_path, session):
    args = ("--n-cpu", "2", "--phy-mem", "400m", "--cache-mem", "128m")
    with cli_cluster(1, *args, "--spill-dir", str(tmp_path / "spill")) as cluster:
        remote = mars.new_session(cluster.url, token=cluster.token, default=False)
        try:
            x = mt.random.rand(6000, 6000, chunk_size=1000)  # 275 MiB, the result as much
            y = mt.inner(x, x) + mt.sort(x, axis=1)
            with PeakRss(cluster.workers[0].popen.pid, every=0.02) as rss:
                remote.execute(y)
            rows = remote.fetch(remote.execute(x[:3]))
            corner = remote.fetch(remote.execute(y[:2, :3]))
        finally:
            remote.close()
    expected = np.inner(rows[:2], rows[:3]) + np.sort(rows[:2], axis=1)[:, :3]
    np.testing.assert_allclose(corner, expected)
    assert rss.peak <= 400 * MIB, f"the worker peaked at {rss.peak / MIB:.0f} MiB"


def test_a_task_growing_past_the_hard_limit_fails_fast_and_named(session):
    with cli_cluster(1, "--n-cpu", "1", "--phy-mem", "400m", "--cache-mem", "128m") as cluster:
        worker = cluster.workers[0]
        remote = mars.new_session(cluster.url, token=cluster.token, default=False)
        try:
            grown = mt.elemwise(hog, mt.ones(4, chunk_size=4), dtype=np.float64)
            with pytest.raises(MemoryError) as info:
                remote.execute(grown)
            message = str(info.value)
            assert "hog" in message
            assert "hard limit of 360 MiB (90% of the worker memory, 400 MiB)" in message
            logged = "\n".join(worker.lines)
            assert re.search(r"ERROR .*task .*hog.* was stopped", logged), logged[-3000:]
            # the worker lives on, its memory given back, and runs the next job
            process = psutil.Process(worker.popen.pid)
            deadline = time.monotonic() + 30
            while process.memory_info().rss >= 300 * MIB:
                assert time.monotonic() < deadline, "the stopped task's memory stayed"
                time.sleep(0.1)
            small = mt.ones(10, chunk_size=5) + 1
            np.testing.assert_array_equal(remote.fetch(remote.execute(small)), np.full(10, 2.0))
        finally:
            remote.close()


def test_memory_limit_flags_are_checked():
    base = ("-s", "127.0.0.1:9", "--phy-mem", "400m")
    result = run_cli("jupyter_mars.deploy.worker", *base, "--memory-hard-limit", "500m")
    assert result.returncode == 2
    assert "--memory-hard-limit: expected at most --phy-mem (400MiB), got 500MiB" in result.stderr
    result = run_cli(
        "jupyter_mars.deploy.worker",
        *base,
        "--memory-soft-limit",
        "95%",
        "--memory-hard-limit",
        "80%",
    )
    assert result.returncode == 2
    assert "--memory-soft-limit: expected at most the hard limit (320MiB), got 380MiB" in (
        result.stderr
    )


def test_without_a_spill_dir_a_job_too_big_fails_with_a_warning_said_once(session):
    with cli_cluster(1, "--n-cpu", "2", "--phy-mem", "400m", "--cache-mem", "128m") as cluster:
        worker = cluster.workers[0]
        remote = mars.new_session(cluster.url, token=cluster.token, default=False)
        try:
            y = mt.random.rand(8000, 8000, chunk_size=1000) * 2 + 1  # 488 MiB of results
            with (
                PeakRss(worker.popen.pid, every=0.02) as rss,
                pytest.raises(MemoryError, match="soft limit"),
            ):
                remote.execute(y)
            time.sleep(1.5)  # a heartbeat
            (status,) = cluster.http().json("GET", "/api/v1/workers")
        finally:
            remote.close()
    (warning,) = status["resources"]["store"]["warnings"]
    assert "--spill-dir" in warning
    logged = "\n".join(worker.lines)
    assert logged.count("there is no --spill-dir") == 1
    assert "ERROR" in logged  # the refused tasks are logged
    assert rss.peak <= 400 * MIB, f"the worker peaked at {rss.peak / MIB:.0f} MiB"
