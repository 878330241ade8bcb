"""Clusters' dashboards through the Jupyter server: the server's own cluster's under
``<base_url>mars/dashboard/``, and that of every cluster of this machine the panel lists
under ``<base_url>mars/dashboards/<cluster id>/`` (its own included).

The browser only ever talks to Jupyter, logged in as a Jupyter user; it never learns the
supervisor's address or the cluster token. Each request is forwarded to the supervisor's
web service on this machine's loopback:

- HTTP (GET, POST): the path after ``mars/dashboard`` is appended to the base path the
  supervisor serves under (the same path when the Jupyter base URL is a valid one for it,
  so the two map one to one). The request goes with ``Authorization: token <cluster
  token>`` and the supervisor's own address as ``Host``; of the browser's headers only
  ``Accept`` and ``Content-Type`` go on (never its cookies, ``Origin`` or Jupyter
  token), and of the answer only its status, ``Content-Type``, ``Cache-Control`` and a
  ``Location`` mapped back under the Jupyter path. Bodies are buffered: this serves the
  dashboard, not bulk data.
- WebSocket ``mars/dashboard/api/v1/stream``: a second WebSocket to the supervisor's
  stream is opened before the browser's is accepted; messages are relayed both ways, and
  when either side closes the other is closed too.

With no cluster running the answer is 503 with a JSON message; an id that names no cluster
of this machine is a 404, a cluster whose token is not on this machine a 502. A browser that has not
logged in to Jupyter is sent to Jupyter's login page for pages, and refused (403) for
everything else, the stream included.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import tornado.httpclient
import tornado.web
import tornado.websocket
from jupyter_server.auth.decorator import authorized, ws_authenticated
from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.base.websocket import WebSocketMixin
from jupyter_server.utils import url_path_join

from jupyter_mars.server import models
from jupyter_mars.server.authz import AUTH_RESOURCE
from jupyter_mars.server.errors import ClusterError
from jupyter_mars.server.machine import MachineClusters, Target
from jupyter_mars.server.manager import ClusterManager
from jupyter_mars.web.relay import relay_to_browser

DASHBOARD_PATH = "mars/dashboard"
"""Where the server's own cluster's dashboard is, under the Jupyter server's base URL."""
DASHBOARDS_PATH = "mars/dashboards"
"""Where ``<cluster id>/`` is the dashboard of any cluster of this machine."""
REQUEST_HEADERS = ("Accept", "Content-Type")
"""The browser's headers passed on to the supervisor."""
RESPONSE_HEADERS = ("Content-Type", "Cache-Control")
"""The supervisor's headers passed back to the browser (and ``Location``, mapped)."""
PROXY_TIMEOUT = 30.0
NO_CLUSTER = "no cluster is running: start one from the jupyter_mars panel or the API"


def upstream_url(endpoint: str, cluster_base: str, rest: str, query: str = "") -> str:
    """The supervisor's URL for the dashboard path ``rest`` ('' or starting with '/'),
    without any ``token`` query argument (a Jupyter token must not travel on).

    >>> upstream_url("http://127.0.0.1:9/a/mars/dashboard", "/a/mars/dashboard/", "/static/x.js")
    'http://127.0.0.1:9/a/mars/dashboard/static/x.js'
    >>> upstream_url("http://127.0.0.1:9", "/", "/api/v1/cluster", "token=s&x=1")
    'http://127.0.0.1:9/api/v1/cluster?x=1'
    """
    parts = urlsplit(endpoint)
    path = cluster_base.rstrip("/") + (rest or "/")
    kept = [(k, v) for k, v in parse_qsl(query, keep_blank_values=True) if k != "token"]
    return f"{parts.scheme}://{parts.netloc}{path}" + (f"?{urlencode(kept)}" if kept else "")


def local_location(location: str, cluster_base: str, local_prefix: str) -> str:
    """A supervisor's redirect target, as a path under the Jupyter server's prefix.

    >>> local_location("/login?next=%2F", "/", "/j/mars/dashboard")
    '/j/mars/dashboard/login?next=%2F'
    >>> local_location("http://127.0.0.1:9/p/", "/p/", "/j/mars/dashboard")
    '/j/mars/dashboard/'
    """
    parts = urlsplit(location)
    path = parts.path
    base = cluster_base.rstrip("/")
    if path.startswith(base + "/") or path == base:
        path = path[len(base) :]
    target = local_prefix.rstrip("/") + (path or "/")
    return target + (f"?{parts.query}" if parts.query else "")


class _DashboardHandlerBase(JupyterHandler):
    auth_resource = AUTH_RESOURCE

    def initialize(self, manager: ClusterManager, machine: MachineClusters) -> None:
        self.manager = manager
        self.machine = machine

    @property
    def cluster_id(self) -> str | None:
        """The cluster the path names; None: the server's own (``mars/dashboard/``)."""
        found = self.path_kwargs.get("cluster_id")
        return found if isinstance(found, str) else None

    @property
    def local_prefix(self) -> str:
        if self.cluster_id is None:
            return url_path_join(self.base_url, DASHBOARD_PATH)
        return url_path_join(self.base_url, DASHBOARDS_PATH, self.cluster_id)

    async def target(self) -> Target:
        """The supervisor to forward to; an ``HTTPError`` saying why there is none."""
        if self.cluster_id is None:
            cluster = self.manager.cluster
            if cluster is None:
                raise tornado.web.HTTPError(503, NO_CLUSTER, reason="no cluster")
            return Target(cluster.endpoint, cluster.token, cluster.web_base_path)
        try:
            return await self.machine.resolve(self.cluster_id)
        except ClusterError as exc:
            raise tornado.web.HTTPError(exc.status, "%s", exc) from None

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        error = kwargs.get("exc_info", (None, None, None))[1]
        message = self._reason
        if isinstance(error, tornado.web.HTTPError) and error.log_message:
            message = error.log_message % error.args if error.args else error.log_message
        self.send_json_error(status_code, message, self._reason)

    def send_json_error(self, status: int, message: str, reason: str) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps(models.error_model(message, reason)))


class DashboardProxyHandler(_DashboardHandlerBase):
    """Pages, assets and API calls of the dashboard, forwarded over HTTP."""

    def get_login_url(self) -> str:
        # pages go to the login page; API calls (and a POST) are refused, as APIHandler does
        rest = self.request.path[len(self.local_prefix) :]
        if self.request.method not in ("GET", "HEAD") or rest.startswith("/api/"):
            raise tornado.web.HTTPError(403)
        return super().get_login_url()

    @tornado.web.authenticated
    @authorized
    async def get(self, **path: str | None) -> None:
        await self._forward()

    @tornado.web.authenticated
    @authorized
    async def post(self, **path: str | None) -> None:
        await self._forward()

    async def _forward(self) -> None:
        cluster = await self.target()
        rest = self.request.path[len(self.local_prefix) :]
        if not rest:  # the dashboard's addresses are relative to its folder
            query = f"?{self.request.query}" if self.request.query else ""
            self.redirect(self.local_prefix + "/" + query)
            return
        url = upstream_url(cluster.endpoint, cluster.web_base_path, rest, self.request.query)
        headers = {"Authorization": f"token {cluster.token}"}
        headers.update({k: v for k in REQUEST_HEADERS if (v := self.request.headers.get(k))})
        client = tornado.httpclient.AsyncHTTPClient(force_instance=True)
        try:
            response = await client.fetch(
                url,
                method=self.request.method or "GET",
                headers=headers,
                body=self.request.body if self.request.method == "POST" else None,
                follow_redirects=False,
                raise_error=False,
                request_timeout=PROXY_TIMEOUT,
            )
        except OSError as exc:  # a refused connection is raised whatever raise_error says
            message = f"the cluster's supervisor did not answer: {exc}"
            self.send_json_error(502, message, "supervisor unreachable")
            return
        finally:
            client.close()
        self._relay(response, cluster)

    def _relay(self, response: tornado.httpclient.HTTPResponse, cluster: Target) -> None:
        if response.code == 599:
            message = f"the cluster's supervisor did not answer: {response.error}"
            self.send_json_error(502, message, "supervisor unreachable")
            return
        self.set_status(response.code, response.reason)
        for name in RESPONSE_HEADERS:
            if name in response.headers:
                self.set_header(name, response.headers[name])
        if "Location" in response.headers:
            location = response.headers["Location"]
            self.set_header(
                "Location", local_location(location, cluster.web_base_path, self.local_prefix)
            )
        if response.code in (204, 304):
            self.finish()
        else:
            self.finish(response.body)


class DashboardStreamHandler(
    WebSocketMixin, tornado.websocket.WebSocketHandler, _DashboardHandlerBase
):
    """The dashboard's state stream: browser <-> Jupyter server <-> supervisor."""

    upstream: tornado.websocket.WebSocketClientConnection | None = None
    _relaying: asyncio.Future[None] | None = None

    def set_default_headers(self) -> None:
        """No page headers on a WebSocket handshake (as jupyter_server's own sockets)."""

    @ws_authenticated
    @authorized
    async def get(self, *args: Any, **kwargs: Any) -> None:
        cluster = await self.target()
        url = upstream_url(cluster.endpoint, cluster.web_base_path, "/api/v1/stream")
        request = tornado.httpclient.HTTPRequest(
            "ws" + url.removeprefix("http"),
            headers={"Authorization": f"token {cluster.token}"},
            connect_timeout=PROXY_TIMEOUT,
            request_timeout=PROXY_TIMEOUT,
        )
        try:
            self.upstream = await tornado.websocket.websocket_connect(request)
        except (OSError, tornado.httpclient.HTTPClientError) as exc:
            raise tornado.web.HTTPError(502, "the cluster's stream did not open: %s", exc) from None
        await super().get(*args, **kwargs)
        if self.ws_connection is None or self.ws_connection.is_closing():
            self._close_upstream()  # the browser's side was not accepted

    def open(self, *args: Any, **kwargs: Any) -> None:
        super().open(*args, **kwargs)
        self._relaying = asyncio.ensure_future(self._relay_from_supervisor())

    async def _relay_from_supervisor(self) -> None:
        await relay_to_browser(self, self.upstream)

    async def on_message(self, message: str | bytes) -> None:
        if self.upstream is None:
            return
        try:
            await self.upstream.write_message(message, binary=isinstance(message, bytes))
        except tornado.websocket.WebSocketClosedError:
            self.close()

    def on_close(self) -> None:
        self._close_upstream()

    def _close_upstream(self) -> None:
        if self.upstream is not None:
            self.upstream.close()
            self.upstream = None
