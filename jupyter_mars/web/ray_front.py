"""A Ray session's progress on the HTTP API, so that the Lab panel lists it as a cluster.

``RayFront(session).start()`` serves, on loopback and its own thread, the supervisor API's
read-only views and cancel route (``/api/v1/cluster``, ``/api/v1/workers``, the
``/api/v1/stream`` WebSocket and ``POST .../executions/<id>/cancel``) over the session's
execution history and Ray's nodes (``ray_models.py``), behind a token of its own, which
it writes where a local supervisor writes its own (``remote/tokens.py``) and removes at
``close()``. ``launcher/ray_sessions.py`` records it in this machine's registry, so that
the Jupyter server's panel lists it, with its nodes and running executions, and cancels
them. Its root is a plain page of the same figures (``ray_page.py``), where a cluster serves
its dashboard, so that the panel's dashboard link opens something true.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import tornado.httpserver
import tornado.netutil
import tornado.web

from jupyter_mars.remote.tokens import generate_token, remove_token_file, write_token_file
from jupyter_mars.web.app import (
    ApiHandler,
    CancelHandler,
    ClusterHandler,
    NotFoundHandler,
    WorkersHandler,
)
from jupyter_mars.web.guard import local_names
from jupyter_mars.web.history import FigureHistory
from jupyter_mars.web.logins import Logins
from jupyter_mars.web.ray_models import RayService
from jupyter_mars.web.ray_page import ray_page
from jupyter_mars.web.stream import StreamHandler

LOOPBACK = "127.0.0.1"


def ray_nodes() -> list[dict[str, Any]]:
    """Ray's node table, read from the Ray this process is connected to."""
    import ray  # only a Ray session starts a front, and it imported Ray already

    nodes: list[dict[str, Any]] = ray.nodes()
    return nodes


class RayPageHandler(ApiHandler):
    """The root page, where a cluster serves its dashboard (``ray_page.py``)."""

    def get(self) -> None:
        (session,) = self.service.sessions.sessions.values()
        executions = [e.model() for e in session.executions.values()]
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(ray_page(self.service.cluster_model(), executions))


def make_ray_app(service: RayService) -> tornado.web.Application:
    """The routes of the supervisor's API that a Ray session can answer."""
    args = {
        "service": service,
        "allowed_hosts": local_names([service.host]),
        "logins": Logins(),
        "base": "/",
    }
    prefix = r"/api/v1"
    return tornado.web.Application(
        [
            (r"/", RayPageHandler, args),
            (prefix + r"/stream", StreamHandler, args),
            (prefix + r"/cluster", ClusterHandler, args),
            (prefix + r"/workers", WorkersHandler, args),
            (prefix + r"/sessions/([\w-]+)/executions/([\w-]+)/cancel", CancelHandler, args),
        ],
        serve_traceback=False,
        default_handler_class=NotFoundHandler,
        default_handler_args=args,
        figure_history=FigureHistory(),
    )


class RayFront:
    """The HTTP API of one Ray session (a session with ``engine`` and ``address``)."""

    def __init__(self, session: Any, host: str = LOOPBACK, port: int = 0) -> None:
        self.session = session
        self.host = host
        self.port = port
        self.token = generate_token()
        self.endpoint = ""
        """``http://host:port`` once started."""
        self._token_written = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: tornado.httpserver.HTTPServer | None = None

    def start(self) -> RayFront:
        service = RayService(
            self.session.engine, str(self.session.address), self.token, self.host, ray_nodes
        )
        sockets = tornado.netutil.bind_sockets(self.port, self.host)
        self.port = sockets[0].getsockname()[1]
        ready = threading.Event()

        def serve() -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            self._loop = loop
            self._server = tornado.httpserver.HTTPServer(make_ray_app(service))
            self._server.add_sockets(sockets)
            loop.call_soon(ready.set)
            loop.run_forever()
            loop.close()

        self._thread = threading.Thread(target=serve, name="mars-ray-front", daemon=True)
        self._thread.start()
        ready.wait()
        self.endpoint = f"http://{self.host}:{self.port}"
        write_token_file(f"{self.host}:{self.port}", self.token)
        self._token_written = True
        return self

    def close(self) -> None:
        """Stop serving, and forget the token."""
        if self._token_written:
            remove_token_file(f"{self.host}:{self.port}")
            self._token_written = False
        loop, server = self._loop, self._server
        if loop is not None and server is not None and self._thread is not None:

            async def stop() -> None:
                server.stop()
                await server.close_all_connections()
                loop.stop()

            asyncio.run_coroutine_threadsafe(stop(), loop)
            self._thread.join(10)
        self._loop = self._server = self._thread = None

    def __enter__(self) -> RayFront:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.close()
