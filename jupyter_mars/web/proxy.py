"""The web service in a process of its own (``mars-web``), in front of a supervisor.

Everything a client and the dashboard use (``app.py``, ``stream.py``) is served by the
active supervisor's own web service; this process forwards each request to it, as found
over RPC (``upstream.py``), and relays the answer as it comes: a tensor's data and a
long-polled progress request are streamed, not gathered first, and the ``/api/v1/stream``
WebSocket is relayed message by message both ways. The supervisor keeps checking the
token (header, ``?token=`` link or login cookie, all forwarded), so the authentication is
the one a client meets at the supervisor's port.

This process checks ``Host`` and ``Origin`` itself (``guard.py``) against its own names
and those of ``--allowed-hosts``, and sends the supervisor its own address as ``Host``
and no ``Origin``: the browser's site is this process, not the supervisor. One
consequence: the supervisor sees every client at this process's address, so its lock-out
after wrong tokens applies to all clients of the web process at once.

A supervisor that cannot be reached is asked for again (a standby may have taken over);
when none answers, the client gets a 502 with ``{"error": ...}`` naming what each
supervisor did. Nothing a client sends ends this process: tornado answers malformed HTTP
with 400 and closes the connection.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Sequence
from typing import Any

import tornado.httpclient
import tornado.httpserver
import tornado.httputil
import tornado.netutil
import tornado.routing
import tornado.simple_httpclient
import tornado.web
import tornado.websocket

from jupyter_mars.web.app import MAX_GRAPH_BYTES, log_request
from jupyter_mars.web.guard import check_request, local_names, origin_allowed
from jupyter_mars.web.relay import relay_to_browser
from jupyter_mars.web.upstream import SupervisorUnreachable, Upstream

logger = logging.getLogger(__name__)
# one line per request, as at the supervisor's own web service, only for failed ones
logging.getLogger("tornado.access").setLevel(logging.WARNING)

CONNECT_TIMEOUT = 10.0
"""Seconds to connect to the supervisor's web service."""
ANSWER_TIMEOUT = 3600.0
"""Seconds a supervisor may take to answer one request in full: far beyond a long-polled
progress request (10 s) or any transfer, so only a supervisor that froze with a request
open reaches it, whose request would otherwise stay open here for good."""
MAX_RESPONSE_BYTES = 1 << 40
"""Largest answer relayed (a tensor's data): the data route has no limit of its own."""
MAX_CONNECTIONS = 512
"""Requests forwarded at once: each session holds one open while it waits for progress."""
HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "content-length",  # the body is re-sent, chunked, as it comes
        "host",
        "origin",
    }
)
LOGIN_LINKS = "/api/v1/login-links"
"""The route whose answer names the address it was asked at: rewritten to this one."""


def forwarded_headers(headers: tornado.httputil.HTTPHeaders, client: str | None) -> dict[str, str]:
    """The request headers sent on to the supervisor: all but hop-by-hop ones, ``Host``
    and ``Origin``, with ``X-Forwarded-For`` naming ``client``.

    >>> h = tornado.httputil.HTTPHeaders({"Host": "w:1", "Authorization": "token t"})
    >>> forwarded_headers(h, "10.0.0.1")
    {'Authorization': 'token t', 'X-Forwarded-For': '10.0.0.1'}
    """
    out = {name: value for name, value in headers.get_all() if name.lower() not in HOP_BY_HOP}
    if client:
        out["X-Forwarded-For"] = client
    return out


class ProxyService:
    """What the handlers share: the supervisors, the HTTP client, the allowed names."""

    def __init__(self, upstream: Upstream, allowed_hosts: frozenset[str]) -> None:
        self.upstream = upstream
        self.allowed_hosts = allowed_hosts
        self.http = tornado.simple_httpclient.SimpleAsyncHTTPClient(
            force_instance=True,
            max_clients=MAX_CONNECTIONS,
            max_body_size=MAX_RESPONSE_BYTES,
            max_buffer_size=MAX_GRAPH_BYTES,
        )


class ForwardHandler(tornado.web.RequestHandler):
    """Any HTTP request: checked, sent to the supervisor's web service, its answer relayed."""

    SUPPORTED_METHODS = ("GET", "HEAD", "POST", "DELETE", "PATCH", "PUT", "OPTIONS")

    def initialize(self, service: ProxyService) -> None:
        self.service = service
        self._status_line: str | None = None
        self._lines: list[str] = []

    def prepare(self) -> None:
        check_request(self, self.service.allowed_hosts)

    async def get(self, *_: str) -> None:
        await self.forward()

    head = post = delete = patch = put = options = get

    async def forward(self) -> None:
        error: Exception | None = None
        for attempt in range(2):
            try:
                address = await self.service.upstream.find(refresh=attempt > 0)
            except SupervisorUnreachable as unreachable:
                self.fail(502, str(unreachable))
                return
            error = await self._relay(address)
            if error is None or self._status_line is not None:
                return
        self.fail(502, f"the supervisor's web service does not answer: {error}")

    async def _relay(self, address: str) -> Exception | None:
        """Send the request to ``address`` and relay the answer; the error when nothing
        came back (the caller may try another address)."""
        rewrite = self.request.path.endswith(LOGIN_LINKS)
        method = self.request.method or "GET"
        request = tornado.httpclient.HTTPRequest(
            f"http://{address}{self.request.uri}",
            method=method,
            headers=forwarded_headers(self.request.headers, self.request.remote_ip),
            body=self.request.body if method in ("POST", "PUT", "PATCH", "DELETE") else None,
            allow_nonstandard_methods=True,
            follow_redirects=False,
            decompress_response=False,
            connect_timeout=CONNECT_TIMEOUT,
            request_timeout=ANSWER_TIMEOUT,
            header_callback=self._header_line,
            streaming_callback=None if rewrite else self._chunk,
        )
        self._status_line, self._lines = None, []
        try:
            response = await self.service.http.fetch(request, raise_error=False)
        except (OSError, tornado.httpclient.HTTPClientError) as failed:
            return failed
        if response.code == 599 and self._status_line is None:
            lost = response.error
            return lost if isinstance(lost, Exception) else ConnectionError("no answer")
        if response.code == 599:
            # cut off midway: ending the answer in order would pass it off as whole, so
            # the client's connection is closed as the supervisor's was
            logger.warning(
                "the answer to %s %s was cut off: %s", method, self.request.path, response.error
            )
            self.detach().close()
            return None
        if response.code == 503:
            self.service.upstream.forget()  # a standby: the next request asks again
        if rewrite and response.body is not None:
            self.write(self._own_link(response.body, address))
        if not self._finished:
            self.finish()
        return None

    def _header_line(self, line: str) -> None:
        if line.startswith("HTTP/"):  # a new status line (after a 100 Continue too)
            self._status_line, self._lines = line.strip(), []
        elif line.strip():
            self._lines.append(line)
        elif self._status_line is not None:  # the blank line ending the headers
            self._start_answer()

    def _start_answer(self) -> None:
        start = tornado.httputil.parse_response_start_line(self._status_line or "")
        if start.code == 100:
            return
        headers = tornado.httputil.HTTPHeaders.parse("".join(self._lines))
        self.set_status(start.code, start.reason)
        self.clear_header("Content-Type")
        for name, value in headers.get_all():
            if name.lower() not in HOP_BY_HOP and name.lower() not in ("date", "server"):
                self.add_header(name, value)

    def _chunk(self, data: bytes) -> Awaitable[None]:
        """Relay a piece of the answer; the HTTP client reads the next one once it has
        gone out, so a slow client slows the transfer instead of filling this process."""
        self.write(data)
        return self.flush()

    def _own_link(self, body: bytes, address: str) -> bytes:
        """The login link's answer with this process's address in the URL."""
        try:
            model = json.loads(body)
        except ValueError:
            return body
        if isinstance(model, dict) and isinstance(model.get("url"), str):
            ours = f"{self.request.protocol}://{self.request.host}"
            model["url"] = model["url"].replace(f"http://{address}", ours, 1)
            return json.dumps(model).encode()
        return body

    def fail(self, status: int, message: str) -> None:
        if self._headers_written:
            return
        self.clear()
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"error": message}))

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"error": self._reason}))


class StreamForwardHandler(tornado.websocket.WebSocketHandler):
    """A WebSocket (``/api/v1/stream``): opened to the supervisor first, with the client's
    credentials, so that its refusal (401) reaches the client as is; then relayed."""

    def initialize(self, service: ProxyService) -> None:
        self.service = service
        self.upstream: tornado.websocket.WebSocketClientConnection | None = None
        self._relay: asyncio.Task[None] | None = None

    def check_origin(self, origin: str) -> bool:
        return origin_allowed(origin, self.request.headers.get("Host"))

    async def get(self, *args: Any, **kwargs: Any) -> None:
        check_request(self, self.service.allowed_hosts)
        try:
            address = await self.service.upstream.find()
        except SupervisorUnreachable as unreachable:
            self._refuse(502, str(unreachable))
            return
        headers = forwarded_headers(self.request.headers, self.request.remote_ip)
        request = tornado.httpclient.HTTPRequest(
            f"ws://{address}{self.request.uri}",
            # the handshake's own headers are this connection's, not the client's
            headers={k: v for k, v in headers.items() if not k.lower().startswith("sec-websocket")},
            connect_timeout=CONNECT_TIMEOUT,
        )
        try:
            self.upstream = await tornado.websocket.websocket_connect(request)
        except tornado.httpclient.HTTPClientError as refused:
            self._refuse(refused.code, _error_of(refused))
            return
        except OSError as error:
            self.service.upstream.forget()
            self._refuse(502, f"the supervisor's web service at {address} does not answer: {error}")
            return
        try:
            await super().get(*args, **kwargs)
        finally:
            if self._relay is None:  # the client's half of the handshake was refused
                self.upstream.close()

    def _refuse(self, status: int, message: str) -> None:
        self.set_status(status if status != 599 else 502)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"error": message}))

    def open(self, *_: str) -> None:
        self._relay = asyncio.ensure_future(self._from_supervisor())

    async def _from_supervisor(self) -> None:
        await relay_to_browser(self, self.upstream)

    async def on_message(self, message: str | bytes) -> None:
        if self.upstream is not None:
            try:
                await self.upstream.write_message(message, binary=isinstance(message, bytes))
            except tornado.websocket.WebSocketClosedError:
                self.close()

    def on_close(self) -> None:
        if self.upstream is not None:
            self.upstream.close()


def _error_of(refused: tornado.httpclient.HTTPClientError) -> str:
    """The supervisor's ``{"error": ...}`` of a refused WebSocket, or its status."""
    body = refused.response.body if refused.response is not None else b""
    try:
        model = json.loads(body or b"{}")
    except ValueError:
        model = {}
    return str(model.get("error") or refused.message or f"HTTP {refused.code}")


class WebSocketUpgrade(tornado.routing.Matcher):
    """Requests asking to become a WebSocket."""

    def match(self, request: tornado.httputil.HTTPServerRequest) -> dict[str, Any] | None:
        return {} if request.headers.get("Upgrade", "").lower() == "websocket" else None


def make_proxy_app(service: ProxyService) -> tornado.web.Application:
    args = {"service": service}
    return tornado.web.Application(
        [
            tornado.routing.Rule(WebSocketUpgrade(), StreamForwardHandler, args),
            tornado.routing.Rule(tornado.routing.AnyMatches(), ForwardHandler, args),
        ],
        serve_traceback=False,
        log_function=log_request,
    )


class WebProxy:
    """The web process's server: ``start`` listens, ``stop`` closes."""

    def __init__(
        self,
        supervisors: Sequence[str],
        token: str,
        names: Sequence[str],
        allowed_hosts: Sequence[str] = (),
    ) -> None:
        self.upstream = Upstream(supervisors, token)
        self.service = ProxyService(self.upstream, local_names(names, allowed_hosts))
        self._http: tornado.httpserver.HTTPServer | None = None

    def start(self, host: str, port: int) -> str:
        """Listen on ``host:port`` (0: any free port); the address listened on."""
        self._http = tornado.httpserver.HTTPServer(
            make_proxy_app(self.service),
            max_body_size=MAX_GRAPH_BYTES,
            max_buffer_size=MAX_GRAPH_BYTES,
        )
        sockets = tornado.netutil.bind_sockets(port, host)
        self._http.add_sockets(sockets)
        address = f"{host}:{sockets[0].getsockname()[1]}"
        supervisors = ",".join(self.upstream.supervisors)
        logger.info("web service on %s, in front of the supervisors %s", address, supervisors)
        return address

    async def stop(self) -> None:
        if self._http is not None:
            self._http.stop()
            await self._http.close_all_connections()
        self.service.http.close()
        await self.upstream.close()
