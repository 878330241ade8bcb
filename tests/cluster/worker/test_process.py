"""A worker process honours its core budget and its memory limits, measured."""

from __future__ import annotations

import time

import numpy as np
import psutil

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.launcher.local import _Process
from tests.cluster.processes import WORKER, cli_cluster
from tests.peak_rss import PeakRss

MIB = 1 << 20


def heavy_matmul(block):
    out = block
    for _ in range(6):
        out = out @ block
        out /= np.abs(out).max()
    return out


def _tree_cpu(pid):
    proc = psutil.Process(pid)
    total = 0.0
    for p in [proc, *proc.children(recursive=True)]:
        times = p.cpu_times()
        total += times.user + times.system
    return total


def test_n_cpu_one_keeps_one_core_busy_blas_included(session):
    with cli_cluster(1, "--n-cpu", "1") as cluster:
        pid = cluster.workers[0].popen.pid
        remote = mars.new_session(cluster.url, token=cluster.token, default=False)
        try:
            data = np.random.default_rng(0).random((2400, 2400))
            x = mt.tensor(data, chunk_size=600)
            remote.execute(x)
            cpu0, wall0 = _tree_cpu(pid), time.perf_counter()
            remote.execute(mt.elemwise(heavy_matmul, x, dtype=np.float64))
            cpu, wall = _tree_cpu(pid) - cpu0, time.perf_counter() - wall0
        finally:
            remote.close()
    assert wall > 0.5, "the job is too short to measure"
    assert cpu / wall <= 1.15, f"worker with --n-cpu 1 kept {cpu / wall:.2f} cores busy"


def test_small_cache_spills_and_results_stay_right(tmp_path, session):
    spill = tmp_path / "spill"
    with cli_cluster(2, "--n-cpu", "1", "--cache-mem", "2m", "--spill-dir", str(spill)) as cluster:
        remote = mars.new_session(cluster.url, token=cluster.token, default=False)
        try:
            data = np.random.default_rng(1).random(
                (1000, 1000)
            )  # 8 MB: four times the cache of each of the two workers
            x = mt.tensor(data, chunk_size=250)
            y = x * 2 + 1
            remote.execute(y)
            np.testing.assert_allclose(remote.fetch(y), data * 2 + 1)
            np.testing.assert_allclose(
                remote.fetch(remote.execute(y.sum(axis=0))), (data * 2 + 1).sum(axis=0)
            )
            time.sleep(1.2)
            stores = [
                w["resources"]["store"] for w in cluster.http().json("GET", "/api/v1/workers")
            ]
        finally:
            remote.close()
    assert sum(s["spill_writes"] for s in stores) > 0
    assert all(s["spill_errors"] == 0 for s in stores)


def test_worker_waits_for_its_supervisor_and_says_so(session):
    with cli_cluster(0) as cluster:
        host, port = cluster.rpc.rsplit(":", 1)
        # a supervisor address where nothing listens yet
        late = _Process(
            [
                *[
                    __import__("sys").executable,
                    "-m",
                    "jupyter_mars.deploy.worker",
                    "-H",
                    "127.0.0.1",
                    "-s",
                    "127.0.0.1:9",
                ]
            ],
            cluster.env,
        )
        try:
            late.wait_for(__import__("re").compile(r"(not reachable yet)"), 20)
        finally:
            late.stop()
        worker = cluster.add_worker("--n-cpu", "1")
        assert worker.wait_for(WORKER, 5)


def test_workers_hold_their_cache_not_more_when_a_held_array_is_reduced(tmp_path, session):
    cache = 8 * MIB
    spill = tmp_path / "spill"
    args = ("--n-cpu", "1", "--cache-mem", str(cache), "--spill-dir", str(spill))
    with cli_cluster(2, *args) as cluster:
        remote = mars.new_session(cluster.url, token=cluster.token, default=False)
        try:
            remote.fetch(remote.execute(mt.ones(10, chunk_size=5).sum()))  # imports done
            pids = [w.popen.pid for w in cluster.workers]
            with PeakRss(*pids) as rss:
                before = rss.now()
                # 256 MiB of 2 MiB
                x = mt.random.RandomState(5).rand(128 * 512, 512, chunk_size=(512, 512))
                remote.execute(x)
                total = remote.fetch(remote.execute(x.sum()))
                biggest = remote.fetch(remote.execute(x.max()))
                rows = remote.fetch(remote.execute(x[::1000]))
            time.sleep(1.2)  # a heartbeat brings the stores' figures
            stores = [
                w["resources"]["store"] for w in cluster.http().json("GET", "/api/v1/workers")
            ]
        finally:
            remote.close()
    # the same numbers as drawn in this process, whether a chunk was kept, dropped or
    # never drawn until read
    expected = mt.random.RandomState(5).rand(128 * 512, 512, chunk_size=(512, 512))
    np.testing.assert_allclose(total, session.fetch(session.execute(expected.sum())))
    assert biggest == session.fetch(session.execute(expected.max()))
    np.testing.assert_array_equal(rows, session.fetch(session.execute(expected[::1000])))
    # random chunks are drawn again rather than written out; those with no room left
    # when their task ran are not drawn at all until read
    assert sum(s["drops"] for s in stores) > 0
    assert sum(s["recomputes"] for s in stores) > 0
    assert sum(s["undrawn"] for s in stores) > 0
    assert sum(s["spill_writes"] for s in stores) == 0
    # the caches, a task's result and input on each worker, and the allocator's slack:
    # before, a reduction brought back every chunk of its subgraph at once
    assert rss.peak - before < 2 * cache + 2 * 6 * MIB
