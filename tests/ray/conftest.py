"""A real local Ray cluster for the tests in this folder: a head and a second node on
127.0.0.1, started once per test run (each start costs seconds).

Ray is an optional dependency (``jupyter_mars[ray]``): without it these tests skip.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from tests.ray.local_cluster import LOOPBACK_ENV, LocalRayCluster

os.environ.update(LOOPBACK_ENV)  # read by Ray when it is imported, and by its processes

import jupyter_mars as mars  # noqa: E402 - after the environment Ray reads

try:
    import ray
except ModuleNotFoundError:  # optional: each test module here skips, saying so
    ray = None


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[LocalRayCluster]:
    """A head with one CPU and a second node with one CPU."""
    cluster = LocalRayCluster(head_cpus=1)
    try:
        cluster.add_node(cpus=1)
        yield cluster
    finally:
        if ray.is_initialized():
            ray.shutdown()
        cluster.stop()


@pytest.fixture(scope="module")
def ray_session(ray_cluster: LocalRayCluster) -> Iterator[Any]:
    """A ``RaySession`` connected to ``ray_cluster`` (not the default session)."""
    if ray.is_initialized():  # another module's own cluster
        ray.shutdown()
    session = mars.new_ray_session(ray_cluster.address, default=False)
    yield session
    session.close()


@pytest.fixture
def on_ray(ray_session: Any, session: Any) -> Iterator[Any]:
    """``ray_session`` as the default session for one test; the embedded one after."""
    ray_session.as_default()
    yield ray_session
    runtime = ray_session.runtime
    with runtime._lock:
        runtime.core.validate_state()
    session.as_default()
