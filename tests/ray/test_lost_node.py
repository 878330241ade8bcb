"""A Ray node dies with chunks on it: Ray's lineage reconstruction brings them back.

The test owns its cluster: a head with no CPU (so that every task runs on the extra
node), the extra node, and, once the chunks are computed, a second node to rebuild them
on; then it kills the first node's raylet and its workers, as a machine that dies.
"""

from __future__ import annotations

from collections.abc import Iterator
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


@pytest.fixture
def doomed_cluster() -> Iterator[tuple[LocalRayCluster, int]]:
    if ray.is_initialized():  # another module's session
        ray.shutdown()
    cluster = LocalRayCluster(head_cpus=0)
    try:
        yield cluster, cluster.add_node(cpus=1)
    finally:
        if ray.is_initialized():
            ray.shutdown()
        cluster.stop()


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
