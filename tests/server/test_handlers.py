"""The server extension through a real Jupyter server: its REST API, the dashboard proxy
(HTTP and WebSocket), authentication on every route, and the cluster's life."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import time
from typing import Any

import numpy as np
import pytest
import tornado.httpclient
import tornado.websocket

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.launcher import registry
from tests.server.conftest import get_json, gone, wait_for_state
from tests.server.kernels import sleepy, slow_double

API_ROUTES = [
    ("GET", "mars/api/cluster"),
    ("POST", "mars/api/cluster/start"),
    ("POST", "mars/api/cluster/stop"),
    ("POST", "mars/api/cluster/scale"),
    ("POST", "mars/api/cluster/adapt"),
    ("DELETE", "mars/api/cluster/adapt"),
    ("GET", "mars/api/workers"),
    ("GET", "mars/api/tasks"),
    ("POST", "mars/api/tasks/s1/e1/cancel"),
    ("GET", "mars/api/hostlist"),
    ("PUT", "mars/api/hostlist"),
    ("GET", "mars/api/clusters"),
    ("GET", "mars/api/clusters/c1"),
    ("GET", "mars/api/clusters/c1/tasks"),
    ("POST", "mars/api/clusters/c1/tasks/s1/e1/cancel"),
    ("GET", "mars/dashboard/api/v1/cluster"),
    ("GET", "mars/dashboards/c1/api/v1/cluster"),
    ("POST", "mars/dashboard/api/v1/sessions/s1/executions/e1/cancel"),
]


async def _without_login(
    client: Any, base_url: str, method: str, path: str, token: str | None
) -> tornado.httpclient.HTTPResponse:
    headers = {} if token is None else {"Authorization": f"token {token}"}
    body = b"{}" if method in ("POST", "PUT") else None
    return await client.fetch(
        base_url + path,  # the client puts the server's address before it
        method=method,
        headers=headers,
        body=body,
        follow_redirects=False,
        raise_error=False,
    )


@pytest.mark.parametrize("token", [None, "not-the-token"])
async def test_every_route_refuses_requests_without_the_jupyter_token(
    http_server_client, jp_base_url, jp_http_port, manager, token
):
    for method, path in API_ROUTES:
        response = await _without_login(http_server_client, jp_base_url, method, path, token)
        assert response.code == 403, (method, path, response.code)
    # a page sends a browser to Jupyter's login, and is not forwarded
    for path in ("mars/dashboard/", "mars/dashboard", "mars/dashboard/static/dashboard.js"):
        response = await _without_login(http_server_client, jp_base_url, "GET", path, token)
        assert response.code == 302, (path, response.code)
        assert response.headers["Location"].startswith(f"{jp_base_url}login?next=")
    headers = {} if token is None else {"Authorization": f"token {token}"}
    request = tornado.httpclient.HTTPRequest(
        f"ws://127.0.0.1:{jp_http_port}{jp_base_url}mars/dashboard/api/v1/stream",
        headers=headers,
    )
    with pytest.raises(tornado.httpclient.HTTPClientError) as refused:
        await tornado.websocket.websocket_connect(request)
    assert refused.value.code == 403
    assert manager.state == "stopped"


async def test_start_runs_a_published_cluster_that_computes_and_stop_ends_it(jp_fetch, manager):
    answer = await jp_fetch(
        "mars", "api", "cluster", "start", method="POST", body=json.dumps({"n_workers": 1})
    )
    assert answer.code == 202
    assert json.loads(answer.body)["state"] in ("starting", "running")
    status = await wait_for_state(jp_fetch, "running", n_workers=1)
    assert status["kind"] == "local"
    assert status["dashboard"] == "/jupyter/mars/dashboard/"
    assert status["workers"][0]["n_cpu"] == 1
    endpoint = status["endpoint"]
    assert endpoint.startswith("http://127.0.0.1:")
    assert endpoint.endswith("/jupyter/mars/dashboard")
    published = registry.published()
    assert published is not None
    assert (published.kind, published.endpoint) == ("server", endpoint)
    # notebooks link to the dashboard through this server, behind its login
    assert published.jupyter_dashboard == "/jupyter/mars/dashboard/"

    # what %mars connect does: the endpoint, and the token found on this machine
    def compute() -> Any:
        session = mars.new_session(endpoint, default=False)
        try:
            return (mt.arange(10) * 2).sum().execute(session=session).fetch(session=session)
        finally:
            session.close()

    assert await asyncio.to_thread(compute) == 90
    workers = await get_json(jp_fetch, "mars", "api", "workers")
    assert [w["n_cpu"] for w in workers["workers"]] == [1]

    pids = manager.pids
    assert len(pids) == 2
    stopped = await get_json(jp_fetch, "mars", "api", "cluster", "stop", method="POST", body="")
    assert stopped["state"] == "stopped"
    assert stopped["workers"] == []
    assert gone(pids)
    assert registry.published() is None


def outcome(future: concurrent.futures.Future[Any]) -> str:
    """How an execution ended, waiting for it (at most 10 s)."""
    try:
        future.result(timeout=10)
    except concurrent.futures.CancelledError:
        return "cancelled"
    return "finished"


async def test_tasks_lists_executions_and_cancel_stops_a_slow_one(jp_fetch, manager):
    await jp_fetch("mars", "api", "cluster", "start", method="POST", body="")
    status = await wait_for_state(jp_fetch, "running", n_workers=1)
    session = mars.new_session(status["endpoint"], default=False)
    try:
        done = (mt.arange(4) + 1).execute(session=session)
        slow = mt.elemwise(sleepy, mt.tensor(np.arange(30), chunk_size=1), 0.2, dtype=np.int64)
        future = session.execute(slow, wait=False)
        deadline = time.monotonic() + 10
        while True:
            tasks = (await get_json(jp_fetch, "mars", "api", "tasks"))["tasks"]
            running = [t for t in tasks if t["state"] == "running"]
            if running:
                break
            assert time.monotonic() < deadline, tasks
            await asyncio.sleep(0.05)
        assert "succeeded" in {t["state"] for t in tasks}
        task = running[0]
        assert {"session_id", "execution_id", "progress", "elapsed", "operators"} <= set(task)
        status = await get_json(jp_fetch, "mars", "api", "cluster")
        assert [t["execution_id"] for t in status["tasks"]] == [task["execution_id"]]

        path = ("mars", "api", "tasks", task["session_id"], task["execution_id"], "cancel")
        answer = await get_json(jp_fetch, *path, method="POST", body="")
        assert answer["state"] in ("cancelling", "cancelled")
        assert await asyncio.to_thread(outcome, future) == "cancelled"
        tasks = (await get_json(jp_fetch, "mars", "api", "tasks"))["tasks"]
        states = {t["execution_id"]: t["state"] for t in tasks}
        assert states[task["execution_id"]] == "cancelled"
        assert done.fetch(session=session).tolist() == [1, 2, 3, 4]
    finally:
        session.close()
    with pytest.raises(tornado.httpclient.HTTPClientError) as missing:
        await jp_fetch("mars", "api", "tasks", "nosuch", "e1", "cancel", method="POST", body="")
    assert missing.value.code == 404
    await jp_fetch("mars", "api", "cluster", "stop", method="POST", body="")


async def test_scale_changes_the_worker_count(jp_fetch, manager):
    await jp_fetch("mars", "api", "cluster", "start", method="POST", body="")
    await wait_for_state(jp_fetch, "running", n_workers=1)
    body = json.dumps({"n": 2})
    scaled = await get_json(jp_fetch, "mars", "api", "cluster", "scale", method="POST", body=body)
    assert scaled["n_workers"] == 2
    assert scaled["options"]["n_workers"] == 2
    assert len(manager.pids) == 3
    assert registry.published().n_workers == 2
    assert registry.published().jupyter_dashboard == "/jupyter/mars/dashboard/"  # kept
    for bad in ({"n": 0}, {"n": "2"}, {"workers": 2}):
        with pytest.raises(tornado.httpclient.HTTPClientError) as refused:
            await jp_fetch("mars", "api", "cluster", "scale", method="POST", body=json.dumps(bad))
        assert refused.value.code == 400
    pids = manager.pids
    await jp_fetch("mars", "api", "cluster", "stop", method="POST", body="")
    assert gone(pids)


async def test_adapt_grows_the_cluster_under_queued_work_shrinks_it_and_scale_ends_it(
    jp_fetch, manager
):
    await jp_fetch("mars", "api", "cluster", "start", method="POST", body="")
    await wait_for_state(jp_fetch, "running", n_workers=1)
    path = ("mars", "api", "cluster", "adapt")
    bounds = {"minimum": 1, "maximum": 2, "wait": 0.5}
    status = await get_json(jp_fetch, *path, method="POST", body=json.dumps(bounds))
    assert status["adaptive"] == {**bounds, "interval": 1.0, "error": None}
    for bad, problem in (
        ({"minimum": 3, "maximum": 2}, "'maximum' must be at least 'minimum' (3), got 2"),
        ({"minimum": 0, "maximum": 2}, "'minimum' must be a whole number of at least 1"),
        ({"maximum": 2}, "the body must be"),
        ({"minimum": 1, "maximum": 2, "wait": -1}, "'wait' must be seconds"),
        ({"enabled": "no"}, "'enabled' must be true or false"),
        ({"min": 1}, "unknown field(s) min"),
    ):
        with pytest.raises(tornado.httpclient.HTTPClientError) as refused:
            await jp_fetch(*path, method="POST", body=json.dumps(bad))
        assert refused.value.code == 400
        assert problem in json.loads(refused.value.response.body)["message"]

    # a job of slow chunks queues on the one worker: a second one is started for it
    session = mars.new_session(manager.cluster.endpoint, token=manager.cluster.token, default=False)
    try:
        data = np.arange(24)
        result = mt.elemwise(slow_double, mt.tensor(data, chunk_size=1), dtype=np.int64).sum()
        future = result.execute(session=session, wait=False)
        grown = await wait_for_state(jp_fetch, "running", n_workers=2)
        assert grown["adaptive"]["maximum"] == 2
        await asyncio.to_thread(future.result, 60)
        assert result.fetch(session=session) == (data * 2).sum()
    finally:
        session.close()
    await wait_for_state(jp_fetch, "running", n_workers=1)  # idle: back to the minimum

    status = await get_json(jp_fetch, *path, method="DELETE")
    assert status["adaptive"] is None
    status = await get_json(jp_fetch, *path, method="POST", body=json.dumps(bounds))
    assert status["adaptive"]["minimum"] == 1
    status = await get_json(
        jp_fetch, "mars", "api", "cluster", "scale", method="POST", body=json.dumps({"n": 1})
    )
    assert status["adaptive"] is None  # scaling by hand ends adapting
    await get_json(jp_fetch, *path, method="POST", body=json.dumps(bounds))
    stopped = await get_json(jp_fetch, *path, method="POST", body=json.dumps({"enabled": False}))
    assert stopped["adaptive"] is None
    pids = manager.pids
    await jp_fetch("mars", "api", "cluster", "stop", method="POST", body="")
    assert gone(pids)


async def test_dashboard_is_served_through_jupyter_with_its_token_only(
    jp_fetch, jp_ws_fetch, manager
):
    await jp_fetch("mars", "api", "cluster", "start", method="POST", body="")
    await wait_for_state(jp_fetch, "running", n_workers=1)
    cluster_token = manager.cluster.token

    page = await jp_fetch("mars", "dashboard/")
    assert page.code == 200
    assert page.headers["Content-Type"].startswith("text/html")
    html = page.body.decode()
    assert "jupyter_mars" in html
    assert 'src="static/dashboard.js"' in html
    script = await jp_fetch("mars", "dashboard", "static", "dashboard.js")
    assert script.headers["Content-Type"].startswith("text/javascript")
    model = await get_json(jp_fetch, "mars", "dashboard", "api", "v1", "cluster")
    assert len(model["workers"]) == 1
    assert cluster_token not in page.body.decode() + json.dumps(model)

    # without the trailing slash: sent to the folder the page's addresses are relative to
    with pytest.raises(tornado.httpclient.HTTPClientError) as moved:
        await jp_fetch("mars", "dashboard", follow_redirects=False)
    assert moved.value.response.headers["Location"] == "/jupyter/mars/dashboard/"

    socket = await jp_ws_fetch("mars", "dashboard", "api", "v1", "stream")
    try:
        message = json.loads(await asyncio.wait_for(socket.read_message(), 10))
        assert len(message["cluster"]["workers"]) == 1
        assert "sessions" in message
        # the page's requests reach the supervisor: a bad one is answered by it
        await socket.write_message(json.dumps({"nonsense": 1}))
        while "error" not in message:
            message = json.loads(await asyncio.wait_for(socket.read_message(), 10))
        assert "watch" in message["error"]
    finally:
        socket.close()

    pids = manager.pids
    await jp_fetch("mars", "api", "cluster", "stop", method="POST", body="")
    assert gone(pids)
    with pytest.raises(tornado.httpclient.HTTPClientError) as unavailable:
        await jp_fetch("mars", "dashboard/")
    assert unavailable.value.code == 503
    assert "no cluster is running" in json.loads(unavailable.value.response.body)["message"]


async def test_shutting_down_the_server_stops_its_cluster(jp_fetch, jp_serverapp, manager):
    await jp_fetch("mars", "api", "cluster", "start", method="POST", body="")
    await wait_for_state(jp_fetch, "running", n_workers=1)
    pids = manager.pids
    assert registry.published() is not None
    await jp_serverapp.extension_manager.stop_all_extensions()
    assert manager.state == "stopped"
    assert gone(pids)
    assert registry.published() is None


async def test_without_a_cluster_scale_and_cancel_conflict_and_lists_are_empty(jp_fetch):
    status = await get_json(jp_fetch, "mars", "api", "cluster")
    assert status["state"] == "stopped"
    assert status["dashboard"] is None
    for path, body in (
        (("cluster", "scale"), json.dumps({"n": 2})),
        (("cluster", "adapt"), json.dumps({"minimum": 1, "maximum": 2})),
        (("tasks", "s1", "e1", "cancel"), ""),
    ):
        with pytest.raises(tornado.httpclient.HTTPClientError) as conflict:
            await jp_fetch("mars", "api", *path, method="POST", body=body)
        assert conflict.value.code == 409
        assert "no cluster is running" in json.loads(conflict.value.response.body)["message"]
    assert await get_json(jp_fetch, "mars", "api", "workers") == {"workers": []}
    assert await get_json(jp_fetch, "mars", "api", "tasks") == {"tasks": []}
    stopped = await get_json(jp_fetch, "mars", "api", "cluster", "stop", method="POST", body="")
    assert stopped["state"] == "stopped"


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ({"n_workers": 0}, "'n_workers' must be a whole number"),
        ({"n_cpu": "two"}, "'n_cpu' must be a whole number"),
        ({"memory": "lots"}, "memory:"),
        ({"workers": 2}, "unknown field(s) workers"),
    ],
)
async def test_start_with_bad_options_is_a_400_naming_the_field(jp_fetch, manager, body, problem):
    with pytest.raises(tornado.httpclient.HTTPClientError) as refused:
        await jp_fetch("mars", "api", "cluster", "start", method="POST", body=json.dumps(body))
    assert refused.value.code == 400
    assert problem in json.loads(refused.value.response.body)["message"]
    assert manager.state == "stopped"


async def test_without_a_configured_host_list_the_panel_creates_one(jp_fetch, jp_data_dir):
    """It goes to Jupyter's data directory and is used from then on."""
    draft = jp_data_dir / "jupyter_mars" / "hosts.yml"
    assert await get_json(jp_fetch, "mars", "api", "hostlist") == {
        "path": str(draft),
        "configured": False,
        "text": "",
    }
    await jp_fetch("mars", "api", "hostlist", method="PUT", body="- 10.0.0.5\n")
    assert draft.read_text() == "- 10.0.0.5\n"
    assert await get_json(jp_fetch, "mars", "api", "hostlist") == {
        "path": str(draft),
        "configured": True,
        "text": "- 10.0.0.5\n",
    }


@pytest.mark.parametrize("jp_base_url", ["/a%40b/"])
async def test_dashboard_works_under_a_base_url_the_supervisor_cannot_serve_under(
    jp_fetch, jp_ws_fetch, manager, jp_base_url
):
    await jp_fetch("mars", "api", "cluster", "start", method="POST", body="")
    status = await wait_for_state(jp_fetch, "running", n_workers=1)
    assert status["dashboard"] == "/a%40b/mars/dashboard/"
    assert status["endpoint"].endswith("/mars/dashboard")  # not under the Jupyter base
    assert manager.cluster.web_base_path == "/mars/dashboard/"
    page = await jp_fetch("mars", "dashboard/")
    assert "jupyter_mars" in page.body.decode()
    model = await get_json(jp_fetch, "mars", "dashboard", "api", "v1", "cluster")
    assert model["web_base_path"] == "/mars/dashboard/"
    socket = await jp_ws_fetch("mars", "dashboard", "api", "v1", "stream")
    message = json.loads(await asyncio.wait_for(socket.read_message(), 10))
    assert len(message["cluster"]["workers"]) == 1
    # the supervisor goes away: the browser's socket is closed with it
    await jp_fetch("mars", "api", "cluster", "stop", method="POST", body="")
    while message is not None:
        message = await asyncio.wait_for(socket.read_message(), 10)
    socket.close()


@pytest.mark.parametrize("mars_config", [{"start_on_launch": True, "n_workers": 2}])
async def test_start_on_launch_starts_a_cluster_with_the_server(jp_fetch, jp_serverapp, manager):
    # what the server runs once its event loop is up (the fixture's server never does)
    await jp_serverapp.extension_manager.start_all_extensions()
    status = await wait_for_state(jp_fetch, "running", n_workers=2)
    assert status["options"]["n_workers"] == 2
    pids = manager.pids
    await jp_fetch("mars", "api", "cluster", "stop", method="POST", body="")
    assert gone(pids)
