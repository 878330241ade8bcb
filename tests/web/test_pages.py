"""The routes behind the dashboard's execution and worker pages, on a real cluster served
under a path prefix (``--web-base-path /mars/``, as a Jupyter server's proxy would):
per-operator figures over REST and the stream, a worker's running tasks, log and stacks,
and logging in and redirects that stay under the prefix."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote, urlencode

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.cluster.processes import CliCluster, cli_cluster, remote_session
from tests.web.stream_client import open_stream

BASE = "/mars/"


@pytest.fixture(scope="module")
def cluster() -> Iterator[CliCluster]:
    with cli_cluster(2, "--n-cpu", "1", base_path=BASE) as c:
        yield c


@pytest.fixture
def remote(cluster: CliCluster, session: Any) -> Iterator[Any]:
    with remote_session(cluster, session) as remote:
        yield remote


def _request(
    cluster: CliCluster, method: str, path: str, body: bytes = b"", **headers: str
) -> tuple[int, dict[str, str], bytes]:
    return cluster.raw(method, path, body, **headers)


def _api(cluster: CliCluster, method: str, path: str) -> tuple[int, Any]:
    status, _, body = _request(cluster, method, BASE + path, Authorization=f"token {cluster.token}")
    return status, json.loads(body)


def slow_block(block: np.ndarray) -> np.ndarray:
    time.sleep(1.5)
    return block + 1


def test_everything_is_served_under_the_prefix(cluster: CliCluster, remote: Any) -> None:
    data = np.arange(12.0).reshape(3, 4)
    assert np.array_equal(
        (mt.tensor(data, chunk_size=2) * 3).execute(session=remote).fetch(session=remote), data * 3
    )
    status, headers, _ = _request(cluster, "GET", "/mars")
    assert (status, headers["Location"]) == (302, "/mars/")
    status, headers, _ = _request(cluster, "GET", "/mars/")
    assert status == 302
    assert headers["Location"] == "/mars/login?" + urlencode({"next": "/mars/"})
    form = urlencode({"token": cluster.token, "next": "/elsewhere/"}).encode()
    status, headers, _ = _request(
        cluster,
        "POST",
        "/mars/login",
        form,
        **{"Content-Type": "application/x-www-form-urlencoded"},
    )
    # a next outside the prefix is not followed; the cookie is for the prefix only
    assert (status, headers["Location"]) == (302, "/mars/")
    assert "Path=/mars/" in headers["Set-Cookie"]
    assert _api(cluster, "GET", "api/openapi.json")[1]["servers"] == [{"url": BASE}]
    # the unprefixed routes do not exist
    status, _, _ = _request(
        cluster, "GET", "/api/v1/cluster", Authorization=f"token {cluster.token}"
    )
    assert status == 404


def test_operators_of_an_execution_are_counted_and_timed(cluster: CliCluster, remote: Any) -> None:
    data = np.random.default_rng(3).random((600, 600))
    a = mt.tensor(data, chunk_size=150)
    result = ((a + 1) @ a).sum(axis=0)
    future = result.execute(session=remote, wait=False)
    future.result(timeout=120)
    np.testing.assert_allclose(result.fetch(session=remote), ((data + 1) @ data).sum(axis=0))
    ops = future.operators()["operators"]
    assert {"add", "matmul", "sum"} <= {op["op"] for op in ops}
    assert all(op["state"] == "done" and op["done"] == op["total"] > 0 for op in ops)
    matmul = [op for op in ops if op["op"] == "matmul"]
    assert sum(op["seconds"] for op in matmul) > 0
    edges = {tuple(e) for e in future.operators()["edges"]}
    ids = {op["id"] for op in ops}
    assert all(a in ids and b in ids for a, b in edges)
    # what add makes is read by a matmul step, whose result the sum reads
    assert any(a.startswith("add-") and b.startswith("matmul-") for a, b in edges)
    assert any(a.startswith("matmul-") and b.startswith("sum-") for a, b in edges)


async def _stream(cluster: CliCluster, watch: Any, wanted: Any, timeout: float = 30) -> Any:
    async with open_stream(cluster, Authorization=f"token {cluster.token}") as conn:
        await conn.write_message(json.dumps(watch) if not isinstance(watch, str) else watch)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = await asyncio.wait_for(conn.read_message(), 10)
            assert isinstance(message, str)
            model = json.loads(message)
            if wanted(model):
                return model
        raise AssertionError("the stream never sent what was wanted")


def test_the_stream_sends_the_watched_execution_and_refuses_bad_messages(
    cluster: CliCluster, remote: Any
) -> None:
    x = mt.ones((300, 300), chunk_size=100)
    future = (x * 2).sum().execute(session=remote, wait=False)
    future.result(timeout=60)
    session_id = remote._term.session_id
    model = asyncio.run(
        _stream(
            cluster,
            {"watch": {}},
            lambda m: any(s["session_id"] == session_id for s in m.get("sessions", [])),
        )
    )
    [mine] = [s for s in model["sessions"] if s["session_id"] == session_id]
    execution = mine["executions"][-1]
    assert {op["op"] for op in execution["operators"]} >= {"multiply", "sum"}
    watched = asyncio.run(
        _stream(
            cluster,
            {"watch": {"execution": [session_id, execution["execution_id"]]}},
            lambda m: "execution" in m,
        )
    )
    graph = watched["execution"]
    assert graph["state"] == "succeeded"
    assert graph["edges"]
    for bad in ("not json", {"watch": 3}, {"watch": {"execution": "x"}}, {"other": 1}):
        reply = asyncio.run(_stream(cluster, bad, lambda m: "error" in m or "cluster" in m))
        if "error" not in reply:  # the first message may be the state sent on opening
            reply = asyncio.run(_stream(cluster, bad, lambda m: "error" in m))
        assert reply["error"]


def test_a_worker_page_shows_its_running_tasks_log_and_stacks(
    cluster: CliCluster, remote: Any
) -> None:
    x = mt.tensor(np.zeros((4, 4)), chunk_size=2)
    future = mt.elemwise(slow_block, x, dtype=np.float64).execute(session=remote, wait=False)
    try:
        deadline = time.monotonic() + 30
        seen: dict[str, Any] = {}
        while time.monotonic() < deadline and not seen:
            for worker in _api(cluster, "GET", "api/v1/workers")[1]:
                status, detail = _api(
                    cluster, "GET", "api/v1/workers/" + quote(worker["address"], safe="")
                )
                assert status == 200
                if detail["running_tasks"]:
                    seen = detail
                    break
            time.sleep(0.1)
        assert seen, "no worker ever showed a running task"
        assert seen["running_tasks"][0]["op"] == "slow_block"
        assert isinstance(seen["log"], list)
        status, stacks = _api(
            cluster, "POST", "api/v1/workers/" + quote(seen["address"], safe="") + "/stack"
        )
        assert status == 200
        assert any("slow_block" in t["stack"] for t in stacks["threads"])
        watched = asyncio.run(
            _stream(cluster, {"watch": {"worker": seen["address"]}}, lambda m: "worker" in m)
        )
        assert watched["worker"]["address"] == seen["address"]
    finally:
        future.result(timeout=60)
    status, body = _api(cluster, "GET", "api/v1/workers/127.0.0.1%3A1")
    assert status == 404
    assert "no worker" in body["error"]


def test_no_token_or_traceback_reaches_the_logs(cluster: CliCluster) -> None:
    # failing requests are logged: one carrying the real token in its address included
    _request(cluster, "POST", f"{BASE}api/v1/sessions/nope/release?token={cluster.token}")
    _request(cluster, "GET", f"{BASE}api/v1/nowhere?a=1&token={cluster.token}x")
    _request(cluster, "POST", f"{BASE}api/v1/sessions/nope/executions", b"\x80garbage")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if any("/release?" in line for line in cluster.supervisor.lines):
            break
        time.sleep(0.05)
    logged = "\n".join(cluster.supervisor.lines)
    assert "/api/v1/sessions/nope/release" in logged  # the failure is logged...
    assert cluster.token not in logged  # ...without the token
    assert "Traceback" not in logged
    for worker in _api(cluster, "GET", "api/v1/workers")[1]:
        detail = _api(cluster, "GET", "api/v1/workers/" + quote(worker["address"], safe=""))[1]
        assert cluster.token not in "\n".join(detail["log"])
        assert "Traceback" not in "\n".join(detail["log"])
