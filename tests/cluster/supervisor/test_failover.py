"""Several supervisors: one is active, a standby takes over when it dies, clients follow."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from typing import Any

import numpy as np
import pytest

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.cluster.supervisor.election import Election, rank_of
from jupyter_mars.cluster.supervisor.server import SupervisorServer
from jupyter_mars.remote import ClusterGone, HttpClient, RemoteSession, SupervisorUnavailable
from jupyter_mars.web.server import WebServer
from tests.cluster.processes import cli_cluster, free_port, ha_cluster

# ---- the election rule, fed with answers and times ------------------------------------


def test_the_first_of_the_list_is_active_once_the_others_said_they_stand_by():
    election = Election(["a:1", "b:2"], 0, now=100.0)
    assert not election.should_be_active(100.0)  # b has not said yet whether it is active
    election.answered("b:2", 100.1, "b:8002", active=False)
    assert election.should_be_active(100.1)
    assert Election(["a:1"], 0, now=100.0).should_be_active(100.0)


def test_the_first_of_the_list_is_active_once_the_others_are_silent_for_two_seconds():
    election = Election(["a:1", "b:2"], 0, now=100.0)
    assert not election.should_be_active(101.9)
    assert election.should_be_active(102.1)


def test_a_standby_takes_over_after_two_seconds_of_refused_pings():
    election = Election(["a:1", "b:2"], 1, now=100.0)
    assert not election.should_be_active(100.0)
    election.answered("a:1", 100.5, "a:8001", active=True)
    election.failed("a:1", 101.0, timed_out=False)
    assert not election.should_be_active(102.4)
    assert election.should_be_active(102.6)


def test_a_supervisor_that_only_times_out_is_given_longer():
    election = Election(["a:1", "b:2"], 1, now=100.0)
    election.answered("a:1", 100.0, "a:8001", active=True)
    election.failed("a:1", 100.5, timed_out=True)
    assert not election.should_be_active(105.0)
    assert election.should_be_active(106.1)


def test_only_supervisors_ranked_before_count():
    election = Election(["a:1", "b:2", "c:3"], 1, now=0.0)
    election.answered("c:3", 2.5, "c:8003", active=False)
    assert election.should_be_active(2.5)  # a never answered; c ranks after


def test_a_supervisor_that_returns_stands_by_while_the_one_that_took_over_lives():
    returned = Election(["a:1", "b:2"], 0, now=10.0)
    returned.answered("b:2", 10.1, "b:8002", active=True)
    assert not returned.should_be_active(10.1)  # first of the list, yet b keeps the role
    took_over = Election(["a:1", "b:2"], 1, now=0.0)
    took_over.answered("a:1", 10.2, "a:8001", active=False)
    assert took_over.should_be_active(10.2, active=True)


def test_two_active_supervisors_after_a_partition_leave_the_first_of_the_list_active():
    first = Election(["a:1", "b:2"], 0, now=0.0)
    first.answered("b:2", 5.0, "b:8002", active=True)
    assert first.should_be_active(5.0, active=True)
    second = Election(["a:1", "b:2"], 1, now=0.0)
    second.answered("a:1", 5.0, "a:8001", active=True)
    assert not second.should_be_active(5.0, active=True)


def test_a_supervisor_that_rejects_the_token_is_alive_and_is_never_replaced():
    election = Election(["a:1", "b:2"], 1, now=100.0)
    for now in (100.5, 101.0, 150.0):
        election.rejected("a:1", now)
        assert not election.should_be_active(now + 1.9)
    assert not election.peers["a:1"].active  # its state is unknown, not "active"
    election.failed("a:1", 151.0, timed_out=False)
    assert election.should_be_active(152.1)  # once nothing listens there, it is dead


def test_rank_is_found_by_address_or_by_port_on_this_machine():
    assert rank_of(["h:7001", "127.0.0.1:7002"], {"127.0.0.1:7002"}, "7002") == 1
    assert rank_of(["192.0.2.1:7002", "localhost:7002"], {"127.0.0.1:7002"}, "7002") == 1
    assert rank_of(["192.0.2.1:7002"], {"127.0.0.1:7002"}, "7002") is None


# ---- two supervisors in this process: takeover and standing down ----------------------


async def _until(predicate, timeout):
    started = time.monotonic()
    while not predicate():
        if time.monotonic() - started > timeout:
            raise TimeoutError("condition not reached")
        await asyncio.sleep(0.02)
    return time.monotonic() - started


def test_a_standby_refuses_sessions_takes_over_and_keeps_the_role_when_the_first_returns():
    async def scenario():
        ports = [free_port(), free_port()]
        listed = [f"127.0.0.1:{port}" for port in ports]

        def supervisor(rank):
            return SupervisorServer(
                token="t",
                port=ports[rank],
                front=WebServer(),
                supervisors=listed,
                ping_interval=0.1,
            )

        first, second = supervisor(0), supervisor(1)
        await first.start()
        await second.start()
        try:
            await _until(lambda: first.active, 5)
            assert not second.active
            await _until(lambda: second.active_web_address() == first.web_address, 5)
            http = HttpClient(f"http://{second.web_address}", "t", timeout=5)
            with pytest.raises(
                SupervisorUnavailable, match=f"active one is at {first.web_address}"
            ):
                await asyncio.to_thread(http.json, "POST", "/api/v1/sessions")
            model = await asyncio.to_thread(http.json, "GET", "/api/v1/cluster")
            assert model["active"] is False
            assert [s["active"] for s in model["supervisors"]] == [True, False]

            await first.stop()
            takeover = await _until(lambda: second.active, 10)
            assert 1.5 < takeover < 5
            session = await asyncio.to_thread(http.json, "POST", "/api/v1/sessions")
            assert session["session_id"] in second.sessions.sessions

            first = supervisor(0)
            await first.start()
            # first of the list, restarted on its address: it stands by, and the one that
            # took over keeps its sessions (and the workers their chunks)
            await _until(lambda: first.election.peers[listed[1]].last_answer is not None, 5)
            await asyncio.sleep(1.0)
            assert not first.active
            assert second.active
            assert session["session_id"] in second.sessions.sessions
            returned = HttpClient(f"http://{first.web_address}", "t", timeout=5)
            with pytest.raises(SupervisorUnavailable):
                await asyncio.to_thread(returned.json, "POST", "/api/v1/sessions")
        finally:
            await first.stop()
            await second.stop()

    asyncio.run(scenario())


def test_supervisors_with_different_tokens_never_make_two_active(caplog):
    async def scenario():
        ports = [free_port(), free_port()]
        listed = [f"127.0.0.1:{port}" for port in ports]
        first = SupervisorServer(token="one", port=ports[0], supervisors=listed, ping_interval=0.1)
        second = SupervisorServer(token="two", port=ports[1], supervisors=listed, ping_interval=0.1)
        await first.start()
        await second.start()
        try:
            await _until(lambda: first.active, 5)
            # well past the two seconds after which a silent first supervisor is replaced
            await asyncio.sleep(3 * second.takeover_after)
            assert first.active
            assert not second.active
            assert second.election.peers[listed[0]].rejected
        finally:
            await second.stop()
            await first.stop()

    with caplog.at_level(logging.ERROR, logger="jupyter_mars.cluster.supervisor.election"):
        asyncio.run(scenario())
    said = [
        r.getMessage() for r in caplog.records if "rejects this supervisor's token" in r.message
    ]
    assert len(said) == 2, said  # once by each supervisor of the other, not at every ping
    assert all("needs the same one (--token, MARS_TOKEN" in line for line in said)


# ---- real processes: SIGKILL of the active supervisor mid-job --------------------------


def sleep_kernel(block, seconds):
    time.sleep(seconds)
    return block


@pytest.fixture
def ha():
    with ha_cluster(2, 2, "--n-cpu", "1") as cluster:
        yield cluster


def test_sigkill_of_the_active_supervisor_mid_job_and_the_job_still_completes(ha, caplog):
    caplog.set_level(logging.WARNING, logger="jupyter_mars.remote")
    started = time.monotonic()
    with ha.http(1).request("POST", "/api/v1/sessions") as response:
        body = json.loads(response.read())
    assert response.status == 503
    assert body["error"] == f"standby supervisor; the active one is at {ha.urls[0][7:]}"

    given_the_standby = mars.new_session(ha.urls[1], token=ha.token, default=False)
    assert given_the_standby.address == ha.urls[0]  # it follows to the active one
    given_the_standby.close()

    remote = mars.new_session(ha.urls[0], token=ha.token, default=False)
    try:
        data = np.arange(40.0)
        before = remote.execute(mt.tensor(data, chunk_size=10) * 2)
        slow = mt.elemwise(sleep_kernel, mt.tensor(data, chunk_size=1), 0.05, dtype=data.dtype)
        future = remote.execute((slow + 1).sum(), wait=False)
        takeover: list[float] = []
        killed_mid_job: list[bool] = []

        def kill_mid_job():
            deadline = time.monotonic() + 30
            while future.progress() < 0.1 and time.monotonic() < deadline:
                time.sleep(0.01)
            killed_mid_job.append(not future.done())
            ha.supervisors[0].popen.kill()  # SIGKILL, of the process this test started
            takeover.append(ha.wait_until_active(1))

        killer = threading.Thread(target=kill_mid_job)
        killer.start()
        blocking = remote.execute((slow * 3).sum())  # runs while the supervisor dies
        killer.join()
        assert killed_mid_job == [True]
        assert "unfinished executions are resubmitted" in caplog.text

        assert float(future.result(timeout=60).fetch(session=remote)) == (data + 1).sum()
        assert float(blocking.fetch(session=remote)) == (data * 3).sum()
        assert remote.address == ha.urls[1]
        assert not remote.is_executed(before)  # its result went with the first supervisor
        np.testing.assert_array_equal(before.fetch(session=remote), data * 2)
        later = (mt.tensor(data, chunk_size=7) + 5).execute(session=remote)
        np.testing.assert_array_equal(later.fetch(session=remote), data + 5)

        model = ha.cluster(1)
        assert model["active"] is True
        assert [s["active"] for s in model["supervisors"]] == [False, True]
        assert len(model["workers"]) == 2
        print(f"takeover after SIGKILL: {takeover[0]:.2f} s")
        assert takeover[0] < 10
    finally:
        remote.close()
    assert time.monotonic() - started < 60


def test_a_session_the_supervisor_no_longer_has_is_opened_again_and_its_results_recomputed():
    with cli_cluster(1, "--n-cpu", "1") as cluster:
        remote = mars.new_session(cluster.url, token=cluster.token, default=False)
        try:
            data = np.arange(30.0)
            before = remote.execute(mt.tensor(data, chunk_size=10) * 2)
            gone = remote.session_id
            cluster.http().json("DELETE", f"/api/v1/sessions/{gone}")
            np.testing.assert_array_equal(before.fetch(session=remote), data * 2)
            assert remote.session_id != gone
            later = (mt.tensor(data, chunk_size=7) + 5).execute(session=remote)
            np.testing.assert_array_equal(later.fetch(session=remote), data + 5)
        finally:
            remote.close()


def test_a_session_whose_cluster_stopped_says_so_in_one_line_at_once(session: Any) -> None:
    """Not two chained connection errors from inside the client: what happened and what
    to do. Its supervisor's address refuses connections, so the client does not wait for
    a failover that cannot come (it would say it waited ``failover_wait`` seconds)."""
    with cli_cluster(1) as cluster:
        remote = RemoteSession(cluster.url, token=cluster.token, failover_wait=30.0)
        assert remote.execute(mt.ones(4).sum()).fetch(session=remote) == 4
    try:
        with pytest.raises(ClusterGone, match="stopped: nothing listens") as caught:
            remote.execute(mt.ones(5).sum())
        assert "within 30 s" not in str(caught.value)
        assert caught.value.__cause__ is None
        assert caught.value.__suppress_context__
        assert "%mars start" in str(caught.value)
    finally:
        remote.close()
        session.as_default()
