"""Adaptive scaling of a real local cluster: it grows while a job's tasks queue, the
answer is right, and it shrinks back to its minimum once the workers sit idle."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.launcher import LocalCluster, new_cluster
from jupyter_mars.remote import HttpClient


def slow_block(block: np.ndarray) -> np.ndarray:
    time.sleep(0.4)
    return block * 2


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    with new_cluster(n_worker=1, n_cpu=1) as c:
        yield c


def model_of(cluster: LocalCluster) -> dict:
    return HttpClient(cluster.endpoint, cluster.token, timeout=5).json("GET", "/api/v1/cluster")


def workers_of(cluster: LocalCluster) -> list[dict]:
    return model_of(cluster)["workers"]


def wait_for(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        time.sleep(0.2)


def test_a_local_cluster_grows_under_queued_work_and_shrinks_back_when_idle(cluster):
    adaptive = cluster.adapt(minimum=1, maximum=3, wait=1.0, interval=0.3)
    assert cluster.adaptive is adaptive
    seen: list[int] = []
    tasks: list[dict] = []
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            model = model_of(cluster)
            seen.append(len(model["workers"]))
            tasks.append(model["tasks"])
            time.sleep(0.2)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        data = np.arange(48)
        result = mt.elemwise(slow_block, mt.tensor(data, chunk_size=1), dtype=np.int64).sum()
        result.execute(session=cluster.session)
        assert result.fetch(session=cluster.session) == (data * 2).sum()
    finally:
        done.set()
        watcher.join()
    assert seen[0] == 1
    assert max(seen) > 1, f"the cluster never grew: {seen}"
    assert max(seen) <= 3
    # what the policy read: tasks queued beyond the slots (two per single-core worker)
    assert any(t["ready"] > 0 and t["running"] == t["slots"] == 2 for t in tasks), tasks
    assert adaptive.last_error is None

    wait_for(lambda: len(workers_of(cluster)) == 1, 30, "back to one worker")
    assert cluster.n_workers == 1
    # the launcher knows its worker by the address the supervisor has it under
    assert [w.address for w in cluster.workers] == [w["address"] for w in workers_of(cluster)]
    # the worker that stayed is the one holding the result: nothing is recomputed
    assert [w["stored"] for w in workers_of(cluster)] == [1]
    assert result.fetch(session=cluster.session) == (data * 2).sum()
    assert adaptive.running


def test_adapt_again_changes_the_bounds_and_scale_turns_it_off(cluster):
    adaptive = cluster.adapt(minimum=1, maximum=2, wait=30.0)
    assert cluster.adapt(minimum=2, maximum=2, wait=30.0) is adaptive
    assert adaptive.bounds.minimum == 2
    wait_for(lambda: len(workers_of(cluster)) == 2, 30, "grown to the new minimum")
    # a retired address that is none of its workers': no other worker is stopped instead
    cluster.resize(1, retire=("127.0.0.1:1",))
    assert cluster.n_workers == 2

    with pytest.raises(ValueError, match=r"maximum must be at least minimum \(2\), got 1"):
        cluster.adapt(minimum=2, maximum=1)
    with pytest.raises(TypeError, match="minimum must be a whole number"):
        cluster.adapt(minimum=1.5, maximum=2)
    assert adaptive.bounds.maximum == 2  # a refused call changes nothing

    cluster.scale(1)
    assert cluster.adaptive is None
    assert not adaptive.running
    assert len(workers_of(cluster)) == 1

    cluster.stop()
    with pytest.raises(RuntimeError, match="the cluster is stopped"):
        cluster.adapt(minimum=1, maximum=2)
    assert cluster.adaptive is None
