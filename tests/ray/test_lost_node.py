"""A Ray node dies with chunks on it: Ray's lineage reconstruction brings them back.

The tests share a head with no CPU (so that every task runs on the extra nodes); each
adds its own nodes; it kills one node's raylet and its workers, as a machine that
dies: between two jobs, with the first's chunks on it, or in the middle of a job.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from tests.ray.local_cluster import LocalRayCluster

ray = pytest.importorskip("ray", reason="Ray is optional: pip install 'jupyter_mars[ray]'")

N, CHUNK = 400_000, 40_000
"""Ten chunks of 320 kB each: over Ray's 100 kB limit for objects kept in the driver's
memory, so they live in the object store of the node that computed them."""


QUICK_DEATH = {"RAY_health_check_period_ms": "1000", "RAY_health_check_failure_threshold": "5"}
"""The head's control service checks its nodes every second (Ray's default period is
longer) and calls one dead after 5 missed checks: the tests wait less for the news."""


@pytest.fixture(scope="module")
def head() -> Iterator[LocalRayCluster]:
    """The module's head, with no CPU: the tests' tasks run on the nodes they add."""
    if ray.is_initialized():  # another module's session
        ray.shutdown()
    cluster = LocalRayCluster(head_cpus=0, env=QUICK_DEATH)
    try:
        yield cluster
    finally:
        if ray.is_initialized():
            ray.shutdown()
        cluster.stop()


@pytest.fixture
def doomed_cluster(head: LocalRayCluster) -> Iterator[tuple[LocalRayCluster, int]]:
    """The head with a node of one CPU for the test to kill; every node the test adds is
    killed after it, so that the next test's tasks run on its own nodes only."""
    before = set(head.node_ports)
    yield head, head.add_node(cpus=1)
    for port in set(head.node_ports) - before:
        head.kill_node(port)


def _node_id(node_manager_port: int) -> str:
    (node,) = [n for n in ray.nodes() if n["NodeManagerPort"] == node_manager_port]
    return str(node["NodeID"])


def test_chunks_lost_with_a_node_are_rebuilt_from_their_lineage(
    doomed_cluster: tuple[LocalRayCluster, int], session: Any
) -> None:
    cluster, doomed_port = doomed_cluster
    ray_session = mars.new_ray_session(cluster.address, default=False)
    try:
        x = ray_session.execute(mt.arange(N, chunk_size=CHUNK) * 2 + 1)
        runtime = ray_session.runtime
        refs = [runtime.object_ref(k) for k in ray_session.engine.executed[x.key].flat_keys()]
        locations = ray.experimental.get_object_locations(refs)
        doomed = _node_id(doomed_port)
        assert len(refs) == 10
        assert all(loc["node_ids"] == [doomed] for loc in locations.values())
        del refs, locations
        cluster.add_node(cpus=1)
        assert cluster.kill_node(doomed_port) >= 1
        # a task reading the lost chunks, and a fetch of them: both rebuilt elsewhere
        total = ray_session.execute(x.sum())
        expected = np.arange(N) * 2 + 1
        assert int(ray_session.fetch(total)) == int(expected.sum())
        np.testing.assert_array_equal(ray_session.fetch(x), expected)
    finally:
        ray_session.close()


def pause_then_double(block: np.ndarray, marks: str) -> np.ndarray:
    """Notes the Ray worker it runs in, then takes a while: a job of these is still
    running when the test kills a node."""
    (Path(marks) / f"started-{int(block[0])}-{os.getpid()}").touch()
    time.sleep(1.5)
    return block * 2


def test_a_node_killed_in_the_middle_of_a_job_leaves_the_right_answer(
    doomed_cluster: tuple[LocalRayCluster, int], session: Any, tmp_path: Path
) -> None:
    cluster, doomed_port = doomed_cluster
    cluster.add_node(cpus=1)  # where the lost tasks and chunks are made again
    ray_session = mars.new_ray_session(cluster.address, default=False)
    try:
        ray_session.as_default()
        doubled = mt.elemwise(
            pause_then_double, mt.arange(12, chunk_size=1), str(tmp_path), dtype=np.int64
        )
        future = doubled.sum().execute(wait=False)
        deadline = time.monotonic() + 120
        while len(list(tmp_path.glob("started-*"))) < 4:  # some done, some running
            assert time.monotonic() < deadline, "the job's tasks did not start"
            time.sleep(0.1)
        assert not future.done()
        assert cluster.kill_node(doomed_port) >= 1
        assert int(np.asarray(future.result(timeout=240))) == int((np.arange(12) * 2).sum())
        np.testing.assert_array_equal(doubled.execute().fetch(), np.arange(12) * 2)
    finally:
        session.as_default()
        ray_session.close()
