"""``/api/v1/stream``: a WebSocket that sends the cluster's state about once a second.

Each message is JSON ``{"cluster": ..., "sessions": [...]}``: the ``/api/v1/cluster``
model (supervisors, workers and their figures) and, per session, its executions' state,
progress and elapsed time. The dashboard draws from it; nothing is sent to the server
but the opening handshake, which passes the same checks as every route (Host, Origin,
the token or the login cookie).
"""

from __future__ import annotations

import json
from typing import Any

import tornado.ioloop
import tornado.web
import tornado.websocket

from jupyter_mars.engine.cluster.web_auth import authenticated
from jupyter_mars.engine.cluster.web_guard import host_allowed, origin_allowed

STREAM_INTERVAL = 1.0
"""Seconds between two messages."""


def state_model(service: Any) -> dict[str, Any]:
    """What one message holds."""
    sessions = []
    for session in list(service.sessions.sessions.values()):
        executed = session.engine.executed
        executions = [e.model(executed) for e in list(session.executions.values())]
        for model in executions:
            model.pop("results", None)  # chunk layouts: not for a dashboard
        sessions.append({"session_id": session.id, "executions": executions})
    return {"cluster": service.cluster_model(), "sessions": sessions}


class StreamHandler(tornado.websocket.WebSocketHandler):
    def initialize(self, service: Any, allowed_hosts: frozenset[str]) -> None:
        self.service = service
        self.allowed_hosts = allowed_hosts
        self._timer: tornado.ioloop.PeriodicCallback | None = None

    def prepare(self) -> None:
        if not host_allowed(self.request.headers.get("Host"), self.allowed_hosts):
            raise tornado.web.HTTPError(403, reason="the Host header does not name this machine")
        if not authenticated(self, self.service.token):
            raise tornado.web.HTTPError(401, reason="a valid cluster token is required")

    def check_origin(self, origin: str) -> bool:
        return origin_allowed(origin, self.request.headers.get("Host"))

    def open(self, *args: str, **kwargs: str) -> None:
        self._send()
        self._timer = tornado.ioloop.PeriodicCallback(self._send, STREAM_INTERVAL * 1000)
        self._timer.start()

    def _send(self) -> None:
        if self.ws_connection is None or self.ws_connection.is_closing():
            return
        try:
            self.write_message(json.dumps(state_model(self.service)))
        except tornado.websocket.WebSocketClosedError:
            pass

    def on_message(self, message: str | bytes) -> None:
        pass  # the stream only talks

    def on_close(self) -> None:
        if self._timer is not None:
            self._timer.stop()

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"error": self._reason}))
