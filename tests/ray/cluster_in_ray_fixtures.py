"""The Ray cluster of the tests of new_cluster_in_ray: a head and a second node on 127.0.0.1.

started by ``local_cluster.LocalRayCluster`` as the other Ray tests' is, with a head of two
CPUs for the supervisor's and a worker's actors.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest

from tests.ray.local_cluster import LocalRayCluster

ray = pytest.importorskip("ray", reason="Ray is an optional dependency: jupyter_mars[ray]")

RAY = Path(sys.executable).parent / "ray"


@dataclass(frozen=True)
class LocalRay:
    address: str
    """``127.0.0.1:<port>`` of the head's GCS, for ``ray.init(address=...)``."""
    temp_dir: str
    env: dict[str, str]
    """The environment its processes run with (this tree first on ``PYTHONPATH``)."""
    ray: LocalRayCluster
    """The processes, to kill a node of."""


def _running(proc: psutil.Process) -> bool:
    """Not ended (a zombie has ended: only its parent's wait is missing)."""
    try:
        return proc.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def running(pid: int) -> bool:
    """Whether process ``pid`` of this machine runs (a zombie does not)."""
    try:
        return _running(psutil.Process(pid))
    except psutil.NoSuchProcess:
        return False


def kill_node(cluster: LocalRay, node_id: str) -> None:
    """Kill one node of ``cluster`` (its raylet and everything under it) as a lost machine
    would go: at once, nothing stopped in order."""
    (node,) = [n for n in ray.nodes() if n["NodeID"] == node_id]
    assert cluster.ray.kill_node(node["NodeManagerPort"]), f"no raylet of node {node_id}"


@pytest.fixture(scope="module")
def local_ray() -> Iterator[LocalRay]:
    """A head of 2 CPUs and a second node of 1 CPU on 127.0.0.1 (``local_cluster.py``),
    and this process connected to it."""
    if ray.is_initialized():  # another module's cluster
        ray.shutdown()
    cluster = LocalRayCluster(head_cpus=2)
    try:
        cluster.add_node(cpus=1)
        repo = str(Path(__file__).resolve().parents[2])
        path = os.pathsep.join([repo, os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        env = {**cluster.env, "PYTHONPATH": path}
        ray.init(address=cluster.address, logging_level="ERROR", log_to_driver=False)
        deadline = time.monotonic() + 60
        while len([n for n in ray.nodes() if n["Alive"]]) < 2:
            assert time.monotonic() < deadline, "the second Ray node did not join"
            time.sleep(0.2)
        yield LocalRay(cluster.address, cluster.temp_dir, env, cluster)
    finally:
        if ray.is_initialized():
            ray.shutdown()
        cluster.stop()
