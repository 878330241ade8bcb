"""``mars-worker`` runs its worker under a nanny that restarts it, and they stop together."""

from __future__ import annotations

import doctest
import os
import signal
import subprocess
import sys
import time

import psutil
import pytest

from jupyter_mars.deploy import nanny, restarts
from jupyter_mars.deploy.restarts import RestartPolicy
from jupyter_mars.launcher.local import _Process, new_cluster
from jupyter_mars.remote import HttpClient
from tests.cluster.processes import WORKER, cli_cluster

WAIT = 60
"""Seconds to wait for what takes about one: generous for a loaded machine."""


def _under_nanny(cluster, *args):
    argv = [
        sys.executable,
        "-m",
        "jupyter_mars.deploy.worker",
        "-H",
        "127.0.0.1",
        "-s",
        cluster.rpc,
    ]
    process = _Process([*argv, "--n-cpu", "1", *args], cluster.env)
    process.wait_for(WORKER, WAIT)
    return process


def _worker_of(nanny_pid):
    deadline = time.monotonic() + WAIT
    while True:
        children = psutil.Process(nanny_pid).children()
        if children:
            assert len(children) == 1
            return children[0]
        assert time.monotonic() < deadline, "the nanny started no worker"
        time.sleep(0.05)


def _environment(pid):
    with open(f"/proc/{pid}/environ", "rb") as file:
        entries = file.read().decode().split("\0")
    return dict(entry.split("=", 1) for entry in entries if "=" in entry)


def _addresses(cluster):
    return {w["address"] for w in cluster.http().json("GET", "/api/v1/workers")}


def _local_addresses(cluster):
    http = HttpClient(cluster.endpoint, cluster.token, timeout=10)
    return {w["address"] for w in http.json("GET", "/api/v1/workers")}


def _wait_for(predicate, what):
    deadline = time.monotonic() + WAIT
    while not predicate():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def test_a_worker_that_dies_is_restarted_with_a_numeric_environment(session):
    with cli_cluster(0) as cluster:
        process = _under_nanny(cluster)
        try:
            first = _worker_of(process.popen.pid)
            assert _environment(first.pid)["OPENBLAS_NUM_THREADS"] == "1"
            _wait_for(lambda: len(_addresses(cluster)) == 1, "the worker did not join")
            before = _addresses(cluster)
            first.kill()
            _wait_for(
                lambda: sum("Mars Worker started" in line for line in process.lines) == 2,
                "the worker was not restarted",
            )
            second = _worker_of(process.popen.pid)
            assert second.pid != first.pid
            assert _environment(second.pid)["OPENBLAS_NUM_THREADS"] == "1"
            assert any("killed by SIGKILL" in line for line in process.lines)
            _wait_for(lambda: _addresses(cluster) - before, "the new worker did not join")
            process.popen.send_signal(signal.SIGTERM)
            assert process.popen.wait(WAIT) == 0
            assert not second.is_running() or second.status() == psutil.STATUS_ZOMBIE
        finally:
            process.stop()


def test_the_environment_given_wins_over_the_nanny_defaults(session):
    with cli_cluster(0) as cluster:
        cluster.env["OPENBLAS_NUM_THREADS"] = "2"
        process = _under_nanny(cluster)
        try:
            assert _environment(_worker_of(process.popen.pid).pid)["OPENBLAS_NUM_THREADS"] == "2"
        finally:
            process.stop()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_to_the_nanny_stops_both(session, sig):
    with cli_cluster(0) as cluster:
        process = _under_nanny(cluster)
        try:
            worker = _worker_of(process.popen.pid)
            process.popen.send_signal(sig)
            assert process.popen.wait(WAIT) == 0
            _wait_for(lambda: not worker.is_running(), "the worker outlived its nanny")
            assert not any("restarting" in line for line in process.lines)
        finally:
            process.stop()


def test_a_killed_nanny_takes_its_worker_with_it(session):
    with cli_cluster(0) as cluster:
        process = _under_nanny(cluster)
        try:
            worker = _worker_of(process.popen.pid)
            process.popen.kill()
            process.popen.wait(WAIT)
            _wait_for(lambda: not worker.is_running(), "the worker outlived its nanny")
        finally:
            process.stop()


def test_a_supervisor_given_its_keepers_pipe_ends_when_the_keeper_is_gone(private_token_dir):
    # a Ray actor keeps its supervisor so: killed outright, the pipe's end it holds closes
    watched, keeper_end = os.pipe()
    popen = subprocess.Popen(
        [sys.executable, "-m", "jupyter_mars.deploy.supervisor", "-H", "127.0.0.1", "-p", "0"]
        + ["-w", "0"],
        env={**os.environ, nanny.NANNY_FD_ENV: str(watched), "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        pass_fds=(watched,),
    )
    os.close(watched)
    try:
        assert popen.stdout is not None
        output = []
        for line in popen.stdout:
            output.append(line)
            if "Mars Web started at" in line:
                break
        assert "Mars Web started at" in output[-1], "".join(output)
        os.close(keeper_end)
        assert popen.wait(WAIT) == 1
    finally:
        if popen.poll() is None:
            popen.kill()
            popen.wait()
        popen.stdout.close()


def test_no_nanny_runs_the_worker_in_the_process_itself(session):
    with cli_cluster(0) as cluster:
        process = _under_nanny(cluster, "--no-nanny")
        try:
            assert psutil.Process(process.popen.pid).children() == []
        finally:
            process.stop()


def test_a_worker_that_cannot_start_is_not_restarted():
    # no token anywhere: the worker exits with a usage error, which no restart mends
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "jupyter_mars.deploy.worker",
            "-s",
            "127.0.0.1:9",
            "-H",
            "127.0.0.1",
        ],
        capture_output=True,
        text=True,
        timeout=WAIT,
        env={k: v for k, v in os.environ.items() if k != "MARS_TOKEN"},
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.count("no cluster token") == 1
    assert "restarting" not in result.stderr


def test_local_clusters_restart_their_workers(session):
    with new_cluster(1, connect=False) as cluster:
        before = _local_addresses(cluster)
        _worker_of(cluster.workers[0].popen.pid).kill()
        _wait_for(lambda: _local_addresses(cluster) - before, "the worker was not restarted")


def test_restart_policy_backs_off_and_gives_up():
    policy = RestartPolicy(max_restarts=2, window=10.0, first_delay=1.0, max_delay=1.5)
    assert policy.after_death(0.0) == 1.0
    assert policy.after_death(1.0) == 1.5
    assert policy.after_death(2.0) is None
    assert policy.after_death(30.0) == 1.0, "deaths long ago no longer count"


def test_doctests():
    assert doctest.testmod(restarts).failed == 0
    assert doctest.testmod(nanny).failed == 0
