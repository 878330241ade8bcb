"""new_cluster: a supervisor and workers on this machine, used through its handle."""

from __future__ import annotations

import time

import numpy as np
import psutil
import pytest

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.launcher import new_cluster


def test_new_cluster_runs_the_seed_and_stops_its_processes(session):
    started = time.perf_counter()
    cluster = new_cluster(n_worker=2, n_cpu=1)
    ready = time.perf_counter() - started
    pids = cluster.pids
    try:
        assert cluster.endpoint.startswith("http://127.0.0.1:")
        assert mars.get_default_session() is cluster.session
        a = mt.random.rand(400, 400, chunk_size=100)
        b = mt.inner(a, a).execute()
        data = a.execute().fetch()
        np.testing.assert_allclose(b.fetch(), np.inner(data, data))
    finally:
        cluster.stop()
    assert ready < 30
    for pid in pids:
        assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE


def test_new_cluster_is_a_context_manager_and_new_session_stays_embedded(session):
    with new_cluster(n_worker=1, n_cpu=1) as cluster:
        remote = cluster.session
        assert (mt.arange(10) * 2).sum().execute().fetch() == 90
    embedded = mars.new_session(default=False)
    try:
        assert isinstance(embedded, mars.EmbeddedSession)
        assert remote is not embedded
    finally:
        embedded.close()


def test_new_cluster_rejects_bad_arguments():
    with pytest.raises(ValueError, match="n_worker"):
        new_cluster(n_worker=0)
    with pytest.raises(ValueError, match="n_cpu"):
        new_cluster(n_cpu=-1)


def test_a_local_cluster_scales_up_and_down(session):
    from jupyter_mars.launcher import registry

    with new_cluster(n_worker=1, n_cpu=1) as cluster:
        first = cluster.workers[0].popen.pid
        cluster.scale(2)
        assert len(cluster.workers) == 2
        assert registry.find(cluster.id).n_workers == 2
        assert (mt.arange(10) * 2).sum().execute().fetch() == 90
        newest = cluster.workers[1].popen.pid
        cluster.scale(1)
        assert [w.popen.pid for w in cluster.workers] == [first]  # the newest left
        assert not psutil.pid_exists(newest) or psutil.Process(newest).status() == (
            psutil.STATUS_ZOMBIE
        )
        with pytest.raises(ValueError, match="n must be a non-negative int"):
            cluster.scale(-1)


def test_scaling_replaces_a_worker_whose_process_died(session):
    with new_cluster(n_worker=2, n_cpu=1) as cluster:
        dead = cluster.workers[1].popen
        dead.kill()
        dead.wait()
        cluster.scale(2)  # the supervisor drops the dead one; a new one joins
        assert len(cluster.workers) == 2
        assert dead not in [w.popen for w in cluster.workers]
        assert (mt.arange(10) * 2).sum().execute().fetch() == 90
