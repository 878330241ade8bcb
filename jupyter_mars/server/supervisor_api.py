"""Asynchronous calls from the Jupyter server to its cluster's supervisor.

The server's event loop must never wait on a socket, so these use tornado's own
clients: ``call_json`` for the HTTP API and ``stream_snapshot`` for one message of the
``/api/v1/stream`` WebSocket (the cluster model plus every session's latest executions,
which no HTTP route lists). Every call carries the cluster token; failures become
``SupervisorError`` with a message for the user, never the token.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import tornado.httpclient
import tornado.websocket

from jupyter_mars.server.errors import SupervisorError

CALL_TIMEOUT = 10.0
"""Seconds a call to the supervisor may take."""


def _headers(token: str) -> dict[str, str]:
    return {"Authorization": f"token {token}"}


async def call_json(
    endpoint: str, token: str, method: str, path: str, timeout: float = CALL_TIMEOUT
) -> Any:
    """The JSON answer of ``method path`` (a path of the API, such as ``/api/v1/cluster``)."""
    client = tornado.httpclient.AsyncHTTPClient(force_instance=True)
    try:
        response = await client.fetch(
            endpoint.rstrip("/") + path,
            method=method,
            headers=_headers(token),
            body=b"" if method == "POST" else None,
            request_timeout=timeout,
            follow_redirects=False,
            raise_error=False,
        )
    except OSError as exc:  # raise_error=False keeps HTTP errors only: a refused connection
        raise SupervisorError(f"the cluster's supervisor did not answer: {exc}") from None
    finally:
        client.close()
    if response.code == 599:
        raise SupervisorError(f"the cluster's supervisor did not answer: {response.error}")
    try:
        model = json.loads(response.body or b"null")
    except ValueError:
        model = None
    if response.code >= 400:
        message = model.get("error") if isinstance(model, dict) else None
        status = response.code if response.code < 500 else 502
        raise SupervisorError(
            f"the supervisor answered {response.code}: {message or response.reason}", status
        )
    return model


async def stream_snapshot(endpoint: str, token: str, timeout: float = CALL_TIMEOUT) -> Any:
    """The first message of the supervisor's state stream, decoded."""
    url = "ws" + endpoint.rstrip("/").removeprefix("http") + "/api/v1/stream"
    request = tornado.httpclient.HTTPRequest(
        url, headers=_headers(token), connect_timeout=timeout, request_timeout=timeout
    )
    try:
        connection = await tornado.websocket.websocket_connect(request)
    except (OSError, tornado.httpclient.HTTPClientError) as exc:
        raise SupervisorError(f"the cluster's state stream could not be opened: {exc}") from None
    try:
        message = await asyncio.wait_for(connection.read_message(), timeout)
    except asyncio.TimeoutError:
        raise SupervisorError("the cluster's state stream sent nothing in time") from None
    finally:
        connection.close()
    if message is None:
        raise SupervisorError("the cluster's state stream closed before its first message")
    return json.loads(message)
