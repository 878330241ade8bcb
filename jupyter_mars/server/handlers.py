"""The server extension's REST API under ``<base_url>mars/api/``: thin handlers over the
``ClusterManager``, and ``routes()``, the one list of every route the extension serves.

    GET  cluster                             the status (``models.status_model``)
    POST cluster/start                       {"n_workers"?, "n_cpu"?, "memory"?} -> 202
    POST cluster/stop                        -> the status, stopped
    POST cluster/scale                       {"n": 3} -> the status (adapting ends)
    POST cluster/adapt                       {"minimum": 1, "maximum": 4, "wait"?: s}
                                             -> the status; {"enabled": false} ends it
    DELETE cluster/adapt                     ends adapting -> the status
    GET  workers                             {"workers": [...]}
    GET  tasks                               {"tasks": [...]} (every recent execution)
    POST tasks/<session>/<execution>/cancel  {"session_id", "execution_id", "state"}
    GET  hostlist / PUT hostlist             {"path", "configured", "text"}; PUT takes
                                             the YAML itself or {"text": ...}

Every cluster of this machine (``machine.py``: the registry's, the server's own first,
each once; ``<id>`` is one of its records' ids):

    GET  clusters                            {"clusters": [...]} (``listed_cluster_model``:
                                             who started it, its dashboard through this
                                             server, workers, totals, running tasks, or
                                             ``supervisor_error`` when it did not answer)
    GET  clusters/<id>                       one of them
    GET  clusters/<id>/tasks                 {"tasks": [...]} (every recent execution)
    POST clusters/<id>/tasks/<session>/<execution>/cancel
                                             {"session_id", "execution_id", "state"}

An id that names no cluster here is a 404; a cluster whose supervisor does not answer (or
whose token is not on this machine) a 502, with a message. Stopping and scaling stay the
server's own cluster's (``cluster/...``). The dashboards: ``mars/dashboard/`` (the
server's own cluster) and ``mars/dashboards/<id>/`` (any listed one), in ``proxy.py``.

Every method needs a logged-in Jupyter user (403 otherwise: these are API handlers) and
is checked with the server's authorizer on the resource ``mars``. Errors are JSON
``{"message", "reason"}``, as jupyter_server's own.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import tornado.web
from jupyter_server.auth.decorator import authorized
from jupyter_server.base.handlers import APIHandler

from jupyter_mars.server import models
from jupyter_mars.server.authz import AUTH_RESOURCE
from jupyter_mars.server.errors import ClusterError
from jupyter_mars.server.machine import MachineClusters
from jupyter_mars.server.manager import ClusterManager
from jupyter_mars.server.proxy import DashboardProxyHandler, DashboardStreamHandler

Method = TypeVar("Method", bound=Callable[..., Awaitable[None]])


def json_errors(method: Method) -> Method:
    """Answer a ``ClusterError`` with its status and a JSON body saying why."""

    @functools.wraps(method)
    async def wrapper(self: MarsHandler, *args: Any, **kwargs: Any) -> None:
        try:
            await method(self, *args, **kwargs)
        except ClusterError as exc:
            self.log.info("jupyter_mars: %s %s: %s", self.request.method, self.request.path, exc)
            self.set_status(exc.status)
            self.finish(json.dumps(models.error_model(str(exc), type(exc).__name__)))

    return wrapper  # type: ignore[return-value]


def api_method(method: Method) -> Method:
    """What every method of the API is: behind Jupyter's login (403 otherwise), checked
    with the authorizer, and answering a ``ClusterError`` as JSON."""
    return tornado.web.authenticated(authorized(json_errors(method)))  # type: ignore[return-value]


class MarsHandler(APIHandler):
    auth_resource = AUTH_RESOURCE

    def initialize(self, manager: ClusterManager, machine: MachineClusters) -> None:
        self.manager = manager
        self.machine = machine

    def reply(self, model: Any, status: int = 200) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps(model))


class ClusterHandler(MarsHandler):
    @api_method
    async def get(self) -> None:
        self.reply(await self.manager.status())


class StartHandler(MarsHandler):
    @api_method
    async def post(self) -> None:
        self.manager.start(**models.parse_start(self.request.body))
        self.reply(await self.manager.status(), status=202)


class StopHandler(MarsHandler):
    @api_method
    async def post(self) -> None:
        await self.manager.stop()
        self.reply(await self.manager.status())


class ScaleHandler(MarsHandler):
    @api_method
    async def post(self) -> None:
        await self.manager.scale(models.parse_scale(self.request.body))
        self.reply(await self.manager.status())


class AdaptHandler(MarsHandler):
    @api_method
    async def post(self) -> None:
        await self.manager.adapt(models.parse_adapt(self.request.body))
        self.reply(await self.manager.status())

    @api_method
    async def delete(self) -> None:
        await self.manager.adapt(None)
        self.reply(await self.manager.status())


class WorkersHandler(MarsHandler):
    @api_method
    async def get(self) -> None:
        self.reply({"workers": await self.manager.workers()})


class TasksHandler(MarsHandler):
    @api_method
    async def get(self) -> None:
        self.reply({"tasks": await self.manager.tasks()})


class CancelHandler(MarsHandler):
    @api_method
    async def post(self, session_id: str, execution_id: str) -> None:
        self.reply(await self.manager.cancel(session_id, execution_id))


class ClustersHandler(MarsHandler):
    @api_method
    async def get(self) -> None:
        self.reply({"clusters": await self.machine.models()})


class OneClusterHandler(MarsHandler):
    @api_method
    async def get(self, cluster_id: str) -> None:
        self.reply(await self.machine.model(cluster_id))


class ClusterTasksHandler(MarsHandler):
    @api_method
    async def get(self, cluster_id: str) -> None:
        self.reply({"tasks": await self.machine.tasks(cluster_id)})


class ClusterCancelHandler(MarsHandler):
    @api_method
    async def post(self, cluster_id: str, session_id: str, execution_id: str) -> None:
        self.reply(await self.machine.cancel(cluster_id, session_id, execution_id))


class HostListHandler(MarsHandler):
    @api_method
    async def get(self) -> None:
        self.reply(self.manager.read_host_list())

    @api_method
    async def put(self) -> None:
        text = models.parse_host_list(self.request.body, self.request.headers.get("Content-Type"))
        self.reply(self.manager.write_host_list(text))


def routes(
    manager: ClusterManager, machine: MachineClusters
) -> list[tuple[str, type, dict[str, Any]]]:
    """Every route of the extension, relative to the server's base URL: the API, then
    the dashboard proxies (each stream before its catch-all)."""
    args = {"manager": manager, "machine": machine}
    api = [
        (r"mars/api/cluster", ClusterHandler),
        (r"mars/api/cluster/start", StartHandler),
        (r"mars/api/cluster/stop", StopHandler),
        (r"mars/api/cluster/scale", ScaleHandler),
        (r"mars/api/cluster/adapt", AdaptHandler),
        (r"mars/api/workers", WorkersHandler),
        (r"mars/api/tasks", TasksHandler),
        (r"mars/api/tasks/([\w-]+)/([\w-]+)/cancel", CancelHandler),
        (r"mars/api/hostlist", HostListHandler),
        (r"mars/api/clusters", ClustersHandler),
        (r"mars/api/clusters/([\w-]+)", OneClusterHandler),
        (r"mars/api/clusters/([\w-]+)/tasks", ClusterTasksHandler),
        (r"mars/api/clusters/([\w-]+)/tasks/([\w-]+)/([\w-]+)/cancel", ClusterCancelHandler),
        (r"mars/dashboard/api/v1/stream", DashboardStreamHandler),
        (r"mars/dashboard(?P<rest>/.*)?", DashboardProxyHandler),
        (r"mars/dashboards/(?P<cluster_id>[\w-]+)/api/v1/stream", DashboardStreamHandler),
        (r"mars/dashboards/(?P<cluster_id>[\w-]+)(?P<rest>/.*)?", DashboardProxyHandler),
    ]
    return [(pattern, handler, args) for pattern, handler in api]
