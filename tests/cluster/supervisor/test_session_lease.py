"""Sessions are leases: a client that is gone has its session closed and its chunks freed."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from tests.cluster.processes import FlakyLink, cli_cluster, run_cli, wait_until

CLIENT_SCRIPT = textwrap.dedent(
    """
    import os, sys
    import jupyter_mars as mars
    import jupyter_mars.tensor as mt
    session = mars.new_session(sys.argv[1])
    y = (mt.ones((400, 100), chunk_size=40) * 3).execute()
    print("EXECUTED", session.session_id, flush=True)
    if sys.argv[2] == "exit":
        sys.exit(0)  # a script's end, without close()
    sys.stdin.read()  # waits to be killed
    """
)


def _sessions(cluster):
    return cluster.http().json("GET", "/api/v1/cluster")["sessions"]


def _stored_chunks(cluster):
    return sum(
        w["resources"]["store"]["n_memory"] + w["resources"]["store"]["n_spilled"]
        for w in cluster.http().json("GET", "/api/v1/workers")
    )


def _client(cluster, how):
    process = subprocess.Popen(
        [sys.executable, "-c", CLIENT_SCRIPT, cluster.url, how],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=cluster.env,
    )
    line = process.stdout.readline()
    if not line.startswith("EXECUTED"):
        process.kill()
        _, err = process.communicate(timeout=30)
        raise AssertionError(err[-2000:])
    return process


@pytest.fixture(scope="module")
def cluster():
    with cli_cluster(1, "--n-cpu", "1", supervisor_args=("--session-timeout", "2")) as c:
        yield c


def test_a_killed_client_has_its_session_closed_and_chunks_freed(cluster):
    client = _client(cluster, "kill")
    try:
        assert _sessions(cluster) == 1
        assert wait_until(lambda: _stored_chunks(cluster) >= 10, 30.0)
        client.send_signal(signal.SIGKILL)  # no chance to close anything
        client.communicate(timeout=30)
        assert wait_until(lambda: _sessions(cluster) == 0, 30.0), "the session outlived its client"
        assert wait_until(lambda: _stored_chunks(cluster) == 0, 30.0), "its chunks stayed"
        assert "\n".join(cluster.supervisor.lines).count("was not heard from") == 1
    finally:
        if client.poll() is None:
            client.kill()
        client.communicate(timeout=30)


def test_a_script_that_exits_without_close_closes_its_session(cluster):
    client = _client(cluster, "exit")
    client.communicate(timeout=60)
    assert client.returncode == 0
    # closed on the way out, not by expiry: no lease ran out
    assert wait_until(lambda: _sessions(cluster) == 0, 30.0)
    assert wait_until(lambda: _stored_chunks(cluster) == 0, 30.0)


def test_a_live_idle_client_keeps_its_session_and_results(cluster, session):
    remote = mars.new_session(cluster.url, token=cluster.token, default=False)
    try:
        y = mt.tensor(np.arange(100.0), chunk_size=10) * 2
        remote.execute(y)
        time.sleep(5)  # idle for more than twice the timeout: only keep-alives go out
        assert _sessions(cluster) == 1
        np.testing.assert_array_equal(remote.fetch(y), np.arange(100.0) * 2)
    finally:
        remote.close()
    assert wait_until(lambda: _sessions(cluster) == 0, 30.0)


def test_session_timeout_flag_is_checked():
    result = run_cli(
        "jupyter_mars.deploy.supervisor", "--session-timeout", "0", "-p", "0", "-w", "0"
    )
    assert result.returncode == 2
    assert "--session-timeout" in result.stderr
    assert "seconds > 0" in result.stderr


def test_the_supervisor_announces_the_session_timeout(cluster):
    opened = cluster.http().json("POST", "/api/v1/sessions")
    try:
        assert opened["session_timeout"] == 2.0
        renewed = cluster.http().json("POST", f"/api/v1/sessions/{opened['session_id']}/keepalive")
        assert renewed["session_id"] == opened["session_id"]
    finally:
        cluster.http().json("DELETE", f"/api/v1/sessions/{opened['session_id']}")


def test_a_client_cut_off_past_the_timeout_goes_on_in_a_new_session(cluster, session):
    link = FlakyLink(cluster.web)
    remote = mars.new_session(link.url, token=cluster.token, default=False)
    try:
        before = remote.execute(mt.arange(6, chunk_size=2) * 2)
        first = remote.session_id
        link.cut.set()  # the network goes: no keep-alive gets through
        assert wait_until(lambda: _sessions(cluster) == 0, 30.0), "the session outlived its lease"
        link.cut.clear()
        later = remote.execute(mt.ones(3) + 1)
        np.testing.assert_array_equal(later.fetch(session=remote), np.full(3, 2.0))
        assert remote.session_id != first
        # the result of the closed session is computed again when fetched
        np.testing.assert_array_equal(before.fetch(session=remote), np.arange(6) * 2)
    finally:
        remote.close()
        link.close()
