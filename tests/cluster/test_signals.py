"""Supervisors and workers stop on SIGTERM and SIGINT in every state, cleaning up."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.launcher.local import _Process
from tests.cluster.processes import cli_cluster, free_port, remote_session

WAITING = re.compile(r"(not reachable yet)")
EXIT_WAIT = 30
"""Seconds a signalled process may take to exit: far more than it needs, far less than
the minutes it retried for when it ignored the signal."""


def _exit_status(process: _Process) -> int:
    try:
        return process.popen.wait(EXIT_WAIT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running {EXIT_WAIT} s after the signal")
    finally:
        process.stop()


@pytest.mark.parametrize("nanny", [(), ("--no-nanny",)], ids=["nanny", "no-nanny"])
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_worker_waiting_for_its_supervisor_stops_on_a_signal(tmp_path, sig, nanny):
    spill = tmp_path / "spill"
    argv = [sys.executable, "-m", "jupyter_mars.deploy.worker", "-H", "127.0.0.1", *nanny]
    # nothing listens at the supervisor's address: the worker keeps retrying
    argv += ["-s", f"127.0.0.1:{free_port()}", "--token", "t" * 16, "--spill-dir", str(spill)]
    worker = _Process(argv, {**os.environ, "PYTHONUNBUFFERED": "1"})
    worker.wait_for(WAITING, 60)
    assert list(spill.iterdir()), "the worker made its spill directory before registering"
    worker.popen.send_signal(sig)
    assert _exit_status(worker) == 0, "\n".join(worker.lines)
    assert not list(spill.iterdir()), "the worker left its spill directory behind"


def slow_chunk(block):
    time.sleep(120)
    return block


def test_worker_running_a_long_task_stops_on_sigterm(session):
    with cli_cluster(1, "--n-cpu", "1") as cluster:
        worker = cluster.workers[0]
        with remote_session(cluster, session) as remote:
            x = mt.tensor(np.arange(4.0), chunk_size=4)
            future = remote.execute(mt.elemwise(slow_chunk, x, dtype=np.float64), wait=False)
            deadline = time.monotonic() + 60
            while not any(w["running"] for w in cluster.http().json("GET", "/api/v1/workers")):
                assert time.monotonic() < deadline, "the task never started"
                time.sleep(0.1)
            worker.popen.send_signal(signal.SIGTERM)
            assert _exit_status(worker) == 0, "\n".join(worker.lines)
            future.cancel()


def test_supervisor_stops_on_sigterm(session):
    with cli_cluster(1, "--n-cpu", "1") as cluster:
        cluster.supervisor.popen.send_signal(signal.SIGTERM)
        assert _exit_status(cluster.supervisor) == 0, "\n".join(cluster.supervisor.lines)
