"""``/api/v1/stream``: a WebSocket that sends the cluster's state about once a second.

Each message is JSON ``{"cluster": ..., "sessions": [...]}``: the ``/api/v1/cluster``
model (supervisors, workers and their figures) and, per session, its latest executions'
state, progress, elapsed time and chunks done / total per operator.

The page may ask for more by sending ``{"watch": {"execution": [session_id,
execution_id]}}`` (then each message also holds ``"execution"``: that execution's
operator graph, ``operators`` with ``edges``) or ``{"watch": {"worker": address}}`` (then
``"worker"``: the worker's page, with its running tasks and the last lines of its log),
or ``{"watch": {}}`` to stop. Anything else (deeply nested JSON included) is answered
``{"error": ...}`` and changes nothing. The opening handshake passes the same checks as
every route (Host, Origin, the token or the login cookie).
"""

from __future__ import annotations

import json
from typing import Any

import tornado.ioloop
import tornado.web
import tornado.websocket

from jupyter_mars.web.auth import LockedOut, check_token
from jupyter_mars.web.guard import host_allowed, origin_allowed, parse_json
from jupyter_mars.web.logins import Logins
from jupyter_mars.web.workers import worker_detail

STREAM_INTERVAL = 1.0
"""Seconds between two messages."""
STREAM_EXECUTIONS = 50
"""Latest executions of each session sent (the count of all is sent too)."""
MAX_MESSAGE_BYTES = 4096
"""Largest message the page may send."""
_BRIEF = ("id", "op", "step", "done", "total", "running", "seconds", "state")


def state_model(service: Any) -> dict[str, Any]:
    """What one message holds, before what is watched."""
    sessions = []
    for session in list(service.sessions.sessions.values()):
        executed = session.engine.executed
        latest = list(session.executions.values())[-STREAM_EXECUTIONS:]
        executions = []
        for execution in latest:
            model = dict(execution.model(executed))
            model.pop("results", None)  # chunk layouts: not for a dashboard
            operators = execution.progress.operators()["operators"]
            model["operators"] = [{k: op[k] for k in _BRIEF} for op in operators]
            executions.append(model)
        sessions.append(
            {
                "session_id": session.id,
                "n_executions": len(session.executions),
                "executions": executions,
            }
        )
    return {"cluster": service.cluster_model(), "sessions": sessions}


def parse_watch(message: str | bytes) -> dict[str, Any]:
    """The watch request in a page's message; ValueError says what is wrong with it."""
    body = parse_json(message, "a message")
    if not isinstance(body, dict) or set(body) != {"watch"} or not isinstance(body["watch"], dict):
        raise ValueError('a message must be {"watch": {...}}')
    watch = body["watch"]
    if set(watch) - {"execution", "worker"}:
        raise ValueError("'watch' may name an 'execution' and a 'worker'")
    execution = watch.get("execution")
    pair = isinstance(execution, list) and len(execution) == 2
    if execution is not None and not (pair and all(isinstance(x, str) for x in execution)):
        raise ValueError("'execution' must be [session_id, execution_id]")
    worker = watch.get("worker")
    if worker is not None and not isinstance(worker, str):
        raise ValueError("'worker' must be a worker's address")
    return {"execution": execution, "worker": worker}


def execution_graph(service: Any, session_id: str, execution_id: str) -> dict[str, Any]:
    session = service.sessions.sessions.get(session_id)
    execution = None if session is None else session.executions.get(execution_id)
    if execution is None:
        return {"execution_id": execution_id, "missing": True}
    model: dict[str, Any] = execution.operators_model()
    return model


class StreamHandler(tornado.websocket.WebSocketHandler):
    def initialize(
        self, service: Any, allowed_hosts: frozenset[str], logins: Logins, base: str = "/"
    ) -> None:
        self.service = service
        self.allowed_hosts = allowed_hosts
        self.logins = logins
        self._timer: tornado.ioloop.PeriodicCallback | None = None
        self._watch: dict[str, Any] = {"execution": None, "worker": None}
        self._sending = False

    def prepare(self) -> None:
        if not host_allowed(self.request.headers.get("Host"), self.allowed_hosts):
            raise tornado.web.HTTPError(403, reason="the Host header does not name this machine")
        if not check_token(self, self.service.token, self.logins):
            raise tornado.web.HTTPError(401, reason="a valid cluster token is required")

    def check_origin(self, origin: str) -> bool:
        return origin_allowed(origin, self.request.headers.get("Host"))

    @property
    def max_message_size(self) -> int:
        return MAX_MESSAGE_BYTES

    async def open(self, *args: str, **kwargs: str) -> None:
        self._timer = tornado.ioloop.PeriodicCallback(self._send, STREAM_INTERVAL * 1000)
        self._timer.start()
        await self._send(first=True)

    async def _send(self, first: bool = False) -> None:
        if self._sending:
            return  # the last message is still being put together (a slow worker)
        self._sending = True
        try:
            model = state_model(self.service)
            if first:  # what the charts would have drawn had the page been open
                model["history"] = self.application.settings["figure_history"].model()
            watch = self._watch
            if watch["execution"] is not None:
                model["execution"] = execution_graph(self.service, *watch["execution"])
            if watch["worker"] is not None:
                try:
                    model["worker"] = await worker_detail(self.service, watch["worker"])
                except tornado.web.HTTPError:
                    model["worker"] = {"address": watch["worker"], "missing": True}
            self._write(model)
        finally:
            self._sending = False

    def _write(self, model: dict[str, Any]) -> None:
        if self.ws_connection is None or self.ws_connection.is_closing():
            return
        try:
            self.write_message(json.dumps(model))
        except tornado.websocket.WebSocketClosedError:
            pass

    async def on_message(self, message: str | bytes) -> None:
        try:
            self._watch = parse_watch(message)
        except ValueError as exc:
            self._write({"error": str(exc)})
            return
        await self._send()

    def on_close(self) -> None:
        if self._timer is not None:
            self._timer.stop()

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        error = kwargs.get("exc_info", (None, None))[1]
        if isinstance(error, LockedOut):
            self.set_header("Retry-After", str(error.retry_after))
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"error": self._reason}))
