"""A job on a cluster without workers fails saying so, after a bounded wait for one."""

from __future__ import annotations

import os
import secrets
from contextlib import contextmanager

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.cluster.supervisor.losses import NoWorkersError
from tests.cluster.processes import (
    RPC,
    WEB,
    CliCluster,
    free_port,
    remote_session,
    start_supervisor,
)

WAIT = 90
"""Seconds a job may take to fail: the supervisor's wait, worker loss detection, and a
loaded machine, with room to spare."""


@contextmanager
def supervisor_only(no_workers_timeout: str):
    token = secrets.token_urlsafe(16)
    env = {**os.environ, "MARS_TOKEN": token, "PYTHONUNBUFFERED": "1"}
    process = start_supervisor(
        env, free_port(), free_port(), "--no-workers-timeout", no_workers_timeout
    )
    cluster = CliCluster(token, process, process.wait_for(WEB, 5), process.wait_for(RPC, 5))
    try:
        yield cluster
    finally:
        for worker in cluster.workers:
            worker.stop()
        process.stop()


def _run(remote, x):
    return remote.execute(x, wait=False).result(timeout=WAIT)


def test_a_job_without_workers_fails_saying_so(session):
    with supervisor_only("2") as cluster, remote_session(cluster, session) as remote:
        x = mt.ones((4, 4), chunk_size=2) + 1
        with pytest.raises(NoWorkersError, match="no workers"):
            _run(remote, x)


def test_a_job_after_every_worker_died_fails_saying_so(session):
    with supervisor_only("2") as cluster, remote_session(cluster, session) as remote:
        worker = cluster.add_worker("--n-cpu", "1")
        cluster.wait_for_workers(1)
        np.testing.assert_array_equal(remote.fetch(_run(remote, mt.ones(4, chunk_size=2))), 1)
        worker.popen.kill()
        worker.popen.wait(WAIT)
        with pytest.raises(NoWorkersError, match="no workers"):
            _run(remote, mt.ones(6, chunk_size=2) * 3)


def test_a_worker_joining_in_time_runs_the_job(session):
    with supervisor_only("120") as cluster, remote_session(cluster, session) as remote:
        future = remote.execute(mt.arange(6, chunk_size=2) * 2, wait=False)
        cluster.add_worker("--n-cpu", "1")
        np.testing.assert_array_equal(remote.fetch(future.result(timeout=WAIT)), np.arange(6) * 2)
