"""The supervisor's HTTP API (versioned under ``/api/v1``), used by remote sessions.

JSON everywhere except the two binary transfers: an execution's expression graph
(a pickle, read only after the token was checked) and a tensor's data, streamed chunk by
chunk. Every route requires the cluster token in ``Authorization: token <token>``, a
``Host`` naming this machine and no foreign ``Origin`` (``guard.py``). Errors
are JSON ``{"error": message}`` with no traceback and never the token. A standby
supervisor answers the cluster routes, and 503 to every session route, naming the
active supervisor's web address in the error.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import math
import pickle
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import tornado.web

from jupyter_mars.cluster.supervisor.server import SupervisorServer
from jupyter_mars.cluster.supervisor.sessions import ClusterSession, SessionRegistry
from jupyter_mars.engine.naming import describe, shorten
from jupyter_mars.engine.pieces import piece_frames
from jupyter_mars.web.api_spec import openapi_document
from jupyter_mars.web.auth import (
    LockedOut,
    check_token,
    login_page,
    refuse_while_locked,
    safe_next,
    set_login_cookie,
    without_token,
)
from jupyter_mars.web.guard import (
    MAX_JSON_BYTES,
    body_too_large,
    check_request,
    local_names,
    parse_json,
)
from jupyter_mars.web.history import FigureHistory
from jupyter_mars.web.logins import LOGIN_CODE_SECONDS, Logins
from jupyter_mars.web.stream import StreamHandler
from jupyter_mars.web.workers import worker_detail, worker_stacks

logger = logging.getLogger(__name__)

MAX_GRAPH_BYTES = 1 << 31
MAX_EVENT_WAIT = 10.0
"""Longest a progress-event request is held open, in seconds."""
EVENT_RATE = 10.0


class ApiHandler(tornado.web.RequestHandler):
    """Token check, JSON helpers and error bodies shared by every route."""

    needs_active = False
    """Routes of sessions: a standby supervisor answers them 503, naming the active one."""

    max_body = MAX_JSON_BYTES
    """Largest body the route reads (the graph upload takes more)."""

    def initialize(
        self, service: Any, allowed_hosts: frozenset[str], logins: Logins, base: str = "/"
    ) -> None:
        self.service = service
        self.allowed_hosts = allowed_hosts
        self.logins = logins
        """Wrong tokens per client and the one use of a ``?token=`` link."""
        self.base = base
        """The base path routes are served under, starting and ending with '/'."""
        self.link_spent = False
        """The request carried the token in a ``?token=`` link used before."""

    def prepare(self) -> None:
        check_request(self, self.allowed_hosts)
        headers = self.request.headers
        token = self.service.token
        if not check_token(self, token, self.logins):
            if self._token_once(token):
                return
            if self.link_spent:
                login = self.base + "login"
                reason = f"this ?token= link was used already: log in at {login}"
                raise tornado.web.HTTPError(401, reason=reason)
            raise tornado.web.HTTPError(401, reason="a valid cluster token is required")
        if body_too_large(headers.get("Content-Length"), self.max_body):
            raise tornado.web.HTTPError(413, reason=f"the body is over {self.max_body} bytes")
        if self.needs_active and not self.service.active:
            active = self.service.active_web_address() or "not known yet"
            raise tornado.web.HTTPError(
                503, reason=f"standby supervisor; the active one is at {active}"
            )

    def _token_once(self, token: str) -> bool:
        """A GET link carrying ``?token=``, the first one: log the browser in and drop the
        token from the address (a redirect); True when that was done. A wrong token in
        it is a guess; the right one once the link was used sets ``link_spent``."""
        given = self.get_query_argument("token", None)
        if self.request.method != "GET" or given is None:
            return False
        if not hmac.compare_digest(given.encode(), token.encode()):
            self.logins.throttle.failed(self.request.remote_ip or "", given)
            return False
        if not self.logins.link.use():
            self.link_spent = True
            return False
        set_login_cookie(self, token, self.base)
        self.redirect(without_token(self.request.uri or self.base))
        return True

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        error = kwargs.get("exc_info", (None, None))[1]
        if isinstance(error, LockedOut):
            self.set_header("Retry-After", str(error.retry_after))
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"error": self._reason}))

    def send(self, model: Any, status: int = 200) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps(model))

    def session(self, session_id: str) -> ClusterSession:
        registry: SessionRegistry = self.service.sessions
        session = registry.sessions.get(session_id)
        if session is None:
            raise tornado.web.HTTPError(404, reason=f"no session {session_id!r}")
        session.touch()  # any request of a session renews its lease
        return session

    def json_body(self) -> dict[str, Any]:
        try:
            body = parse_json(self.request.body or b"{}")
        except ValueError as exc:
            raise tornado.web.HTTPError(400, reason=str(exc)) from None
        if not isinstance(body, dict):
            raise tornado.web.HTTPError(400, reason="the body must be a JSON object")
        return body


class LoginHandler(ApiHandler):
    """``login``: a form for the token; a right one sets the login cookie."""

    def prepare(self) -> None:
        check_request(self, self.allowed_hosts)

    def get(self) -> None:
        self._page(200, safe_next(self.get_query_argument("next", None), self.base))

    def post(self) -> None:
        next_path = safe_next(self.get_body_argument("next", None), self.base)
        given = self.get_body_argument("token", "")
        try:
            refuse_while_locked(self, self.logins.throttle)
        except LockedOut as locked:
            self.set_header("Retry-After", str(locked.retry_after))
            wait = f"try again in {locked.retry_after} s"
            self._page(429, next_path, f"Too many wrong tokens from this address: {wait}.")
            return
        if not hmac.compare_digest(given.encode(), self.service.token.encode()):
            self.logins.throttle.failed(self.request.remote_ip or "", given)
            self._page(401, next_path, "That is not the cluster token.")
            return
        set_login_cookie(self, self.service.token, self.base)
        self.redirect(next_path)

    def _page(self, status: int, next_path: str, error: str = "") -> None:
        self.set_status(status)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(login_page(self.request.path, next_path, error))


DASHBOARD = Path(__file__).parent / "dashboard"
ASSETS = {"dashboard.js": "text/javascript", "dashboard.css": "text/css"}


class DashboardHandler(ApiHandler):
    """``/``: the dashboard page; a browser that has not logged in is sent to the login
    form, which brings it back."""

    def prepare(self) -> None:
        check_request(self, self.allowed_hosts)
        token = self.service.token
        if check_token(self, token, self.logins) or self._token_once(token):
            return
        code = self.get_query_argument("login", None)
        if code is None:
            self.redirect(self.base + "login?" + urlencode({"next": self.request.path}))
        elif self.logins.codes.redeem(code):
            set_login_cookie(self, token, self.base)
            self.redirect(without_token(self.request.uri or self.base))
        else:  # used, expired, or made up: a guess, and the form to log in otherwise
            self.logins.throttle.failed(self.request.remote_ip or "", f"login:{code}")
            self.set_status(401)
            self.set_header("Content-Type", "text/html; charset=utf-8")
            used = "This login link was used already or has expired: ask for a new one"
            self.finish(login_page(self.base + "login", self.base, f"{used}, or log in here."))

    def get(self) -> None:
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish((DASHBOARD / "index.html").read_bytes())


class AssetHandler(ApiHandler):
    """The dashboard's script and style sheet, shipped in the package."""

    def get(self, name: str) -> None:
        kind = ASSETS.get(name)
        if kind is None:
            raise tornado.web.HTTPError(404, reason="no such file")
        self.set_header("Content-Type", f"{kind}; charset=utf-8")
        self.finish((DASHBOARD / name).read_bytes())


class NotFoundHandler(ApiHandler):
    """Paths that name no route: the same checks first, so that nothing, not even which
    paths exist, is told to a caller without the token; then a JSON 404."""

    def prepare(self) -> None:
        super().prepare()
        raise tornado.web.HTTPError(404, reason="no such route")


class LoginLinksHandler(ApiHandler):
    """``login-links``: a link that logs a browser in to the dashboard once, for a client
    that holds the token (``logins.LoginCodes``); the address is the one it asked."""

    def post(self) -> None:
        code = self.logins.codes.mint()
        url = f"{self.request.protocol}://{self.request.host}{self.base}?login={code}"
        self.send({"url": url, "expires_in": LOGIN_CODE_SECONDS}, 201)


class OpenApiHandler(ApiHandler):
    def get(self) -> None:
        self.send(openapi_document(self.base))


class ClusterHandler(ApiHandler):
    def get(self) -> None:
        self.send(self.service.cluster_model())


class WorkersHandler(ApiHandler):
    def get(self) -> None:
        self.send(self.service.cluster_model()["workers"])


class WorkerHandler(ApiHandler):
    async def get(self, address: str) -> None:
        self.send(await worker_detail(self.service, address))


class StackHandler(ApiHandler):
    async def post(self, address: str) -> None:
        self.send(await worker_stacks(self.service, address))


class SessionsHandler(ApiHandler):
    needs_active = True

    def post(self) -> None:
        registry: SessionRegistry = self.service.sessions
        session = registry.create()
        model = {"session_id": session.id, "session_timeout": registry.session_timeout}
        self.send(model, status=201)


class SessionHandler(ApiHandler):
    needs_active = True

    def delete(self, session_id: str) -> None:
        if not self.service.sessions.close(session_id):
            raise tornado.web.HTTPError(404, reason=f"no session {session_id!r}")
        self.send({"closed": session_id})


class KeepAliveHandler(ApiHandler):
    """The client's keep-alive: renews the session's lease (``session`` does)."""

    needs_active = True

    def post(self, session_id: str) -> None:
        self.session(session_id)
        timeout = self.service.sessions.session_timeout
        self.send({"session_id": session_id, "session_timeout": timeout})


@tornado.web.stream_request_body
class ExecutionsHandler(ApiHandler):
    """Takes a graph to run. Its body (which carries the data of arrays and frames made in
    the client, up to gigabytes) is read into one buffer of its declared length as it
    arrives, and unpickled from there: no buffer grows by copies, and no copy of the whole
    body is made before it is read."""

    needs_active = True
    max_body = MAX_GRAPH_BYTES

    def prepare(self) -> None:
        super().prepare()
        declared = self.request.headers.get("Content-Length")
        self._body = bytearray(int(declared)) if declared else bytearray()
        self._received = 0

    def data_received(self, chunk: bytes) -> None:
        end = self._received + len(chunk)
        if end > self.max_body:
            raise tornado.web.HTTPError(413, reason=f"the body is over {self.max_body} bytes")
        if end <= len(self._body):
            self._body[self._received : end] = chunk
        else:  # more than declared, or no length declared (a chunked upload)
            del self._body[self._received :]
            self._body += chunk
        self._received = end

    def post(self, session_id: str) -> None:
        session = self.session(session_id)
        if self.request.headers.get("Content-Type") != "application/octet-stream":
            raise tornado.web.HTTPError(415, reason="the graph must be application/octet-stream")
        try:
            whole = self._received == len(self._body)
            payload = pickle.loads(self._body if whole else self._body[: self._received])
            self._body = bytearray()  # the nodes hold what they need of it
            nodes = list(payload["nodes"])
            given = payload.get("name")
        except Exception:  # noqa: BLE001 - any malformed body is the client's error
            raise tornado.web.HTTPError(400, reason="the body is not a valid graph") from None
        name = shorten(given) if isinstance(given, str) and given else describe(nodes)
        execution = session.submit(nodes, name)
        self.send({"execution_id": execution.id}, status=201)


class ExecutionHandler(ApiHandler):
    needs_active = True

    async def get(self, session_id: str, execution_id: str) -> None:
        """The execution's state; with ``?wait=S&after=P``, a progress event: the answer
        comes once progress passes ``P`` or the execution ends, or after ``S`` seconds."""
        session = self.session(session_id)
        execution = session.executions.get(execution_id)
        if execution is None:
            raise tornado.web.HTTPError(404, reason=f"no execution {execution_id!r}")
        wait = min(self._number("wait", 0.0), MAX_EVENT_WAIT)
        after = self._number("after", -1.0)
        start = time.monotonic()
        ended = None if execution.future is None else asyncio.wrap_future(execution.future)
        if ended is not None:
            # its error is the execution's, reported by the model: nothing to log here
            ended.add_done_callback(lambda f: f.cancelled() or f.exception())
        while execution.state in ("running", "cancelling"):
            remaining = wait - (time.monotonic() - start)
            if remaining <= 0:
                break
            # Progress events at most EVENT_RATE per second: a graph of many tiny tasks
            # must not turn into a request per task. The end wakes this at once.
            step = min(remaining, 1 / EVENT_RATE)
            if ended is None:
                await asyncio.sleep(step)
            else:
                await asyncio.wait({ended}, timeout=step)  # never cancels the execution
            if execution.progress.fraction() > after:
                break
        if not self.service.active:
            # it stood down while the client waited: the execution ended with its term,
            # not by a cancel; the client resubmits it on the active supervisor
            raise tornado.web.HTTPError(503, reason="standby supervisor; it stood down")
        self.send(execution.model(session.engine.executed))

    def _number(self, name: str, default: float) -> float:
        raw = self.get_query_argument(name, None)
        if raw is None:
            return default
        try:
            value = float(raw)
        except ValueError:
            raise tornado.web.HTTPError(400, reason=f"{name!r} must be a number") from None
        if not math.isfinite(value):
            raise tornado.web.HTTPError(400, reason=f"{name!r} must be finite")
        return value


class OperatorsHandler(ApiHandler):
    needs_active = True

    def get(self, session_id: str, execution_id: str) -> None:
        execution = self.session(session_id).executions.get(execution_id)
        if execution is None:
            raise tornado.web.HTTPError(404, reason=f"no execution {execution_id!r}")
        self.send(execution.operators_model())


class BaseRedirectHandler(ApiHandler):
    """The base path without its final slash: to the dashboard, whose addresses are
    relative to it."""

    def prepare(self) -> None:
        check_request(self, self.allowed_hosts)
        self.redirect(self.base)


class CancelHandler(ApiHandler):
    needs_active = True

    def post(self, session_id: str, execution_id: str) -> None:
        session = self.session(session_id)
        execution = session.executions.get(execution_id)
        if execution is None:
            raise tornado.web.HTTPError(404, reason=f"no execution {execution_id!r}")
        if session.cancel(execution):
            self.send({"state": execution.state, "cancelled": True})
            return
        state = execution.state
        message = f"the execution had already ended ({state}); it stays so"
        self.send({"state": state, "cancelled": False, "message": message})


class ReleaseHandler(ApiHandler):
    needs_active = True

    def post(self, session_id: str) -> None:
        session = self.session(session_id)
        keys = self.json_body().get("keys")
        if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            raise tornado.web.HTTPError(400, reason="'keys' must be a list of tensor keys")
        session.release(keys)
        self.send({"released": len(keys)})


class DataHandler(ApiHandler):
    """A tensor's chunks, streamed one by one: a header piece, then one piece per chunk
    (``pieces``: each chunk's arrays go from the worker's reply to the socket uncopied).

    Once the first piece is due, the handler takes the connection from tornado and writes
    the response itself, ending it by closing the connection (the client asks for that on
    every request): tornado would copy every chunk twice on the way, once joining its
    write buffer and once framing it for chunked transfer encoding."""

    needs_active = True

    async def get(self, session_id: str, tensor_key: str) -> None:
        session = self.session(session_id)
        tiled = session.engine.executed.get(tensor_key)
        if tiled is None:
            raise tornado.web.HTTPError(404, reason=f"tensor {tensor_key!r} is not executed")
        header = {"nsplits": tiled.nsplits, "n_chunks": int(tiled.keys.size)}
        keys = list(tiled.flat_keys())
        fetch = self.service.runtime.fetch
        log_request(self)
        stream = self.detach()
        # one chunk ahead: the next comes from its worker while this one goes to the client
        ahead = asyncio.ensure_future(fetch(keys[0])) if keys else None
        try:
            await stream.write(DATA_RESPONSE_HEAD)
            await _write_frames(stream, piece_frames(header))
            for i in range(len(keys)):
                assert ahead is not None
                data = await ahead
                ahead = asyncio.ensure_future(fetch(keys[i + 1])) if i + 1 < len(keys) else None
                await _write_frames(stream, piece_frames(data))
                del data
        except Exception:  # the client sees the stream end early: a ConnectionError
            logger.exception("streaming the chunks of %r failed", tensor_key)
        finally:
            if ahead is not None:
                ahead.cancel()
            stream.close()


DATA_RESPONSE_HEAD = (
    b"HTTP/1.1 200 OK\r\n"
    b"Content-Type: application/octet-stream\r\n"
    b"Cache-Control: no-store\r\n"
    b"X-Content-Type-Options: nosniff\r\n"
    b"Connection: close\r\n\r\n"
)
"""The data stream's status and headers: no length, the body ends where the connection
closes."""


async def _write_frames(stream: Any, frames: list[Any]) -> None:
    for frame in frames:
        if len(frame):
            await stream.write(frame)


access_log = logging.getLogger("tornado.access")


def log_request(handler: tornado.web.RequestHandler) -> None:
    """One line per request, as tornado writes it, but never with a ``?token=`` in it:
    a link that carries the token must not leave it in the logs when it fails."""
    status = handler.get_status()
    method = access_log.info if status < 400 else access_log.warning
    if status >= 500:
        method = access_log.error
    request = handler.request
    uri = without_token(request.uri or "/")
    elapsed = 1000.0 * request.request_time()
    method("%d %s %s (%s) %.2fms", status, request.method, uri, request.remote_ip, elapsed)


def make_app(
    supervisor: SupervisorServer,
    base: str = "/",
    history: FigureHistory | None = None,
    allowed_hosts: Sequence[str] = (),
) -> tornado.web.Application:
    """The web service's routes around ``supervisor``, under the path ``base``; the
    state stream starts with ``history``, the workers' figures of the last minutes.
    ``allowed_hosts`` are more names it answers to (``--allowed-hosts``)."""
    args = {
        "service": supervisor,
        "allowed_hosts": local_names([supervisor.host], allowed_hosts),
        "logins": Logins(),
        "base": base,
    }
    root = re.escape(base.rstrip("/"))
    prefix = root + r"/api/v1"
    extra = [(root, BaseRedirectHandler, args)] if root else []
    return tornado.web.Application(
        [
            *extra,
            (root + r"/", DashboardHandler, args),
            (root + r"/static/([\w.-]+)", AssetHandler, args),
            (root + r"/login", LoginHandler, args),
            (root + r"/api/openapi.json", OpenApiHandler, args),
            (prefix + r"/stream", StreamHandler, args),
            (prefix + r"/cluster", ClusterHandler, args),
            (prefix + r"/login-links", LoginLinksHandler, args),
            (prefix + r"/workers", WorkersHandler, args),
            (prefix + r"/workers/([^/]+)", WorkerHandler, args),
            (prefix + r"/workers/([^/]+)/stack", StackHandler, args),
            (prefix + r"/sessions", SessionsHandler, args),
            (prefix + r"/sessions/([\w-]+)", SessionHandler, args),
            (prefix + r"/sessions/([\w-]+)/keepalive", KeepAliveHandler, args),
            (prefix + r"/sessions/([\w-]+)/executions", ExecutionsHandler, args),
            (prefix + r"/sessions/([\w-]+)/executions/([\w-]+)", ExecutionHandler, args),
            (prefix + r"/sessions/([\w-]+)/executions/([\w-]+)/cancel", CancelHandler, args),
            (
                prefix + r"/sessions/([\w-]+)/executions/([\w-]+)/operators",
                OperatorsHandler,
                args,
            ),
            (prefix + r"/sessions/([\w-]+)/release", ReleaseHandler, args),
            (prefix + r"/sessions/([\w-]+)/tensors/([\w-]+)/data", DataHandler, args),
        ],
        serve_traceback=False,
        log_function=log_request,
        default_handler_class=NotFoundHandler,
        default_handler_args=args,
        figure_history=history or FigureHistory(),
    )
