"""The supervisor's web service on its own port: the HTTP API and the dashboard
(``app.py``), served around a supervisor.

The command line that starts a supervisor builds a ``WebServer`` and hands it to the
``SupervisorServer`` as its front (``cluster/supervisor/server.py``, ``Front``): the
supervisor starts it once its runtime and sessions exist, before it answers its first
ping (the answers carry the web address), and stops it when it stops. This package
imports the supervisor; the supervisor never imports it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

import tornado.httpserver
import tornado.ioloop
import tornado.netutil

from jupyter_mars.cluster.supervisor.server import SupervisorServer
from jupyter_mars.web.app import MAX_GRAPH_BYTES, make_app
from jupyter_mars.web.history import FigureHistory
from jupyter_mars.web.stream import STREAM_INTERVAL

# one line per HTTP request would drown the supervisor's own messages (and cost time)
logging.getLogger("tornado.access").setLevel(logging.WARNING)


class WebServer:
    """The HTTP API and dashboard of one supervisor, on ``host:port`` (``host`` None: the
    supervisor's RPC host; ``port`` 0: any free one), under the path ``base_path``,
    answering to ``allowed_hosts`` besides this machine's names (``guard.py``)."""

    def __init__(
        self,
        host: str | None = None,
        port: int = 0,
        base_path: str = "/",
        allowed_hosts: Sequence[str] = (),
    ) -> None:
        self.host = host
        self.port = port
        self.base_path = base_path
        """The URL path it serves under, starting and ending with '/'."""
        self.allowed_hosts = list(allowed_hosts)
        """More host names it answers to (``--allowed-hosts``)."""
        self._http: tornado.httpserver.HTTPServer | None = None
        self.history = FigureHistory()
        """The workers' figures of the last minutes, sampled while the server runs."""
        self._sampler: tornado.ioloop.PeriodicCallback | None = None

    def start(self, supervisor: SupervisorServer) -> str:
        """Serve ``supervisor``'s routes; the address (``host:port``) it listens on."""

        def sample() -> None:
            self.history.record(supervisor.cluster_model(), time.time())

        self._sampler = tornado.ioloop.PeriodicCallback(sample, STREAM_INTERVAL * 1000)
        self._sampler.start()
        self._http = tornado.httpserver.HTTPServer(
            make_app(supervisor, self.base_path, self.history, self.allowed_hosts),
            max_body_size=MAX_GRAPH_BYTES,
            max_buffer_size=MAX_GRAPH_BYTES,
        )
        host = self.host or supervisor.host
        sockets = tornado.netutil.bind_sockets(self.port, host)
        self._http.add_sockets(sockets)
        return f"{host}:{sockets[0].getsockname()[1]}"

    def stop(self) -> None:
        if self._sampler is not None:
            self._sampler.stop()
        if self._http is not None:
            self._http.stop()
