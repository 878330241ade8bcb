"""``mars-web`` as a process of its own in front of a ``mars-scheduler``: the dashboard
and its WebSocket through it, the token checked as at the supervisor, garbage survived,
and a supervisor gone reported as a 502 with a message (then found again)."""

from __future__ import annotations

import asyncio
import doctest
import http.client
import json
import socket
import threading
from collections.abc import Iterator

import psutil
import pytest
import tornado.httpclient
import tornado.websocket

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.remote.http import read_piece
from jupyter_mars.web import proxy, upstream
from tests.cluster.processes import RPC, free_port, wait_until
from tests.deploy.old_cluster import OldCluster, old_cluster, start


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OldCluster]:
    with old_cluster(str(tmp_path_factory.mktemp("tokens"))) as running:
        running.start_web()
        yield running


def request(
    address: str, method: str, path: str, body: bytes = b"", **headers: str
) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection(address, timeout=15)
    try:
        conn.request(method, path, body=body, headers={"Host": address, **headers})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def send_raw(address: str, data: bytes, *, read: bool = True) -> bytes:
    """Send ``data`` as is; what comes back until the answer's head is complete or the
    server closes."""
    host, port = address.rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(data)
        answer = b""
        while read and b"\r\n\r\n" not in answer and (chunk := sock.recv(65536)):
            answer += chunk
    return answer


def test_doctests():
    for module in (proxy, upstream):
        assert doctest.testmod(module).failed == 0


def test_api_through_the_web_process_checks_the_token(cluster):
    status, _, body = request(cluster.web_address, "GET", "/api/v1/cluster")
    assert status == 401
    assert json.loads(body) == {"error": "a valid cluster token is required"}
    auth = {"Authorization": f"token {cluster.token}"}
    status, headers, body = request(cluster.web_address, "GET", "/api/v1/cluster", **auth)
    assert status == 200
    assert headers["Content-Type"] == "application/json"
    assert json.loads(body)["address"] == cluster.scheduler_address


def test_dashboard_loads_through_the_web_process(cluster):
    web = cluster.web_address
    status, headers, _ = request(web, "GET", "/")
    assert (status, headers["Location"]) == (302, "/login?next=%2F")
    status, headers, _ = request(web, "GET", f"/?token={cluster.token}")
    assert status == 302
    cookie = headers["Set-Cookie"].split(";", 1)[0]
    status, headers, page = request(web, "GET", "/", Cookie=cookie)
    assert status == 200
    assert headers["Content-Type"].startswith("text/html")
    assert b"dashboard.js" in page
    status, headers, _ = request(web, "GET", "/static/dashboard.js", Cookie=cookie)
    assert (status, headers["Content-Type"]) == (200, "text/javascript; charset=utf-8")
    # a login link names the web process, where the browser will open it
    status, _, body = request(
        web, "POST", "/api/v1/login-links", Authorization=f"token {cluster.token}"
    )
    assert status == 201
    assert json.loads(body)["url"].startswith(f"http://{web}/?login=")


def test_the_dashboard_stream_is_relayed_both_ways(cluster):
    async def talk() -> None:
        url = f"ws://{cluster.web_address}/api/v1/stream"
        wrong = tornado.httpclient.HTTPRequest(url, headers={"Authorization": "token nope"})
        with pytest.raises(tornado.httpclient.HTTPClientError) as refused:
            await tornado.websocket.websocket_connect(wrong)
        assert refused.value.code == 401
        right = tornado.httpclient.HTTPRequest(
            url, headers={"Authorization": f"token {cluster.token}"}
        )
        ws = await tornado.websocket.websocket_connect(right)
        try:
            first = json.loads(await ws.read_message())
            assert first["cluster"]["address"] == cluster.scheduler_address
            await ws.write_message("[[[")  # the supervisor answers; nothing breaks
            answers = [json.loads(await ws.read_message()) for _ in range(2)]
            assert {"error": "a message must be JSON"} in answers
        finally:
            ws.close()

    asyncio.run(talk())


def test_garbage_leaves_the_web_process_serving(cluster):
    web = cluster.web_address
    assert send_raw(web, b"\x00\xff garbage \r\n\r\n").startswith(b"HTTP/1.1 400")
    evil = b"GET / HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n"
    assert send_raw(web, evil).startswith(b"HTTP/1.1 403")
    # a body cut short, then the connection dropped
    cut = b"POST /api/v1/sessions HTTP/1.1\r\nHost: %s\r\nContent-Length: 1000\r\n\r\n{"
    send_raw(web, cut % web.encode(), read=False)
    # a WebSocket handshake without its key, after the supervisor accepted the token
    upgrade = (
        b"GET /api/v1/stream HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nAuthorization: token %s\r\n\r\n"
    )
    answer = send_raw(web, upgrade % (web.encode(), cluster.token.encode()))
    assert answer.startswith(b"HTTP/1.1 426 Upgrade Required")
    origin = {"Origin": "http://evil.example"}
    assert request(web, "GET", "/api/v1/cluster", **origin)[0] == 403
    assert request(web, "BREW", "/")[0] == 405
    status, _, body = request(web, "GET", "/" + "x" * 5000)
    assert status == 401  # the supervisor's answer: no path is told without the token
    assert cluster.web is not None
    assert cluster.web.popen.poll() is None
    auth = {"Authorization": f"token {cluster.token}"}
    assert request(web, "GET", "/api/v1/workers", **auth)[0] == 200


def test_a_gone_supervisor_is_a_502_with_a_message_and_is_found_again(tmp_path):
    with old_cluster(str(tmp_path / "tokens")) as cluster:
        cluster.start_web()
        auth = {"Authorization": f"token {cluster.token}"}
        assert request(cluster.web_address, "GET", "/api/v1/cluster", **auth)[0] == 200
        cluster.add_worker("--cpu-procs", "1", "--disable-proc-recover")
        cluster.wait_for_workers(1)
        session = mars.new_session(cluster.url, token=cluster.token, default=False)
        tensor = mt.ones((4096, 4096), chunk_size=1024).execute(session=session)  # 128 MiB
        path = f"/api/v1/sessions/{session.session_id}/tensors/{tensor.key}/data"
        conn = http.client.HTTPConnection(cluster.web_address, timeout=15)
        conn.request("GET", path, headers=auth)
        transfer = conn.getresponse()
        assert transfer.status == 200
        header = read_piece(transfer)
        assert header["n_chunks"] == 16
        cluster.scheduler.popen.kill()  # gone at once, midway through the transfer
        cluster.scheduler.stop()
        # the client reads a transfer cut off as cut off, as it would at the supervisor
        with pytest.raises(ConnectionError, match="the result stream"):
            [read_piece(transfer) for _ in range(header["n_chunks"])]  # noqa: B018
        conn.close()
        session.close()
        status, headers, body = request(cluster.web_address, "GET", "/api/v1/cluster", **auth)
        assert status == 502
        assert headers["Content-Type"] == "application/json"
        message = json.loads(body)["error"]
        assert message.startswith("no active supervisor answers")
        assert cluster.scheduler_address in message
        with pytest.raises(RuntimeError, match="HTTP 502: no active supervisor answers"):
            mars.new_session(cluster.url, token=cluster.token, default=False)
        # a supervisor back at that address is found again
        port = cluster.scheduler_address.rsplit(":", 1)[1]
        again = start("scheduler", RPC, cluster.env, "-a", "127.0.0.1", "-p", port)
        try:
            assert wait_until(
                lambda: request(cluster.web_address, "GET", "/api/v1/cluster", **auth)[0] == 200,
                30,
            )
        finally:
            again.stop()


def test_the_web_process_follows_the_active_one_of_two_schedulers(tmp_path):
    ports = free_port(), free_port()
    listed = ",".join(f"127.0.0.1:{port}" for port in ports)
    with old_cluster(str(tmp_path / "tokens"), "-s", listed, port=ports[0]) as cluster:
        second_argv = ["-a", "127.0.0.1", "-p", str(ports[1]), "-s", listed]
        second = start("scheduler", RPC, cluster.env, *second_argv)
        try:
            cluster.start_web(supervisors=listed)
            auth = {"Authorization": f"token {cluster.token}"}

            def answering() -> str:
                status, _, body = request(cluster.web_address, "GET", "/api/v1/cluster", **auth)
                return str(json.loads(body)["address"]) if status == 200 else ""

            # the first of the list is active once it has heard from the second (a ping
            # interval at most): until then the web process answers 502
            assert wait_until(lambda: answering() != "", 30)
            assert answering() == f"127.0.0.1:{ports[0]}"
            cluster.scheduler.stop()
            # 502 while the second stands by (about two seconds), then the second
            assert wait_until(lambda: answering() == f"127.0.0.1:{ports[1]}", 30)
        finally:
            second.stop()


def test_a_tensor_streams_through_without_gathering(cluster):
    """The data route's pieces are relayed as they come, at the pace the client reads:
    the web process never holds the tensor (its memory, sampled while it relays, stays
    far below the tensor's size), and a client hanging up midway does not harm it."""
    cluster.add_worker("--cpu-procs", "1", "--disable-proc-recover")
    cluster.wait_for_workers(1)
    assert cluster.web is not None
    web = psutil.Process(cluster.web.popen.pid)
    session = mars.new_session(cluster.url, token=cluster.token, default=False)
    try:
        tensor = mt.ones((4096, 8192), chunk_size=1024).execute(session=session)  # 256 MiB
        before = web.memory_info().rss
        peak = [before]
        done = threading.Event()

        def sample() -> None:
            while not done.is_set():
                peak[0] = max(peak[0], web.memory_info().rss)
                done.wait(0.01)

        sampler = threading.Thread(target=sample)
        sampler.start()
        try:
            data = tensor.fetch(session=session)
        finally:
            done.set()
            sampler.join()
        assert data.shape == (4096, 8192)
        assert data.sum() == 4096 * 8192
        assert peak[0] - before < data.nbytes // 4
        path = f"/api/v1/sessions/{session.session_id}/tensors/{tensor.key}/data"
        conn = http.client.HTTPConnection(cluster.web_address, timeout=15)
        conn.request("GET", path, headers={"Authorization": f"token {cluster.token}"})
        response = conn.getresponse()
        assert response.status == 200
        response.read(4096)
        conn.close()  # hangs up with most of the tensor unsent
        assert tensor.sum().execute(session=session).fetch(session=session) == 4096 * 8192
        assert cluster.web.popen.poll() is None
    finally:
        session.close()
