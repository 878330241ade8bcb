"""``MachineClusters``: every cluster of this machine's registry, as the panel sees them.

The server's own cluster is one of them (its manager holds its token); for the others the
server reads the token their supervisor wrote on this machine (``remote/tokens.py``),
found by address, and asks the supervisor itself: the browser never learns a token or a
supervisor's address, only a cluster's id and its dashboard's path through this server.
A supervisor that does not answer (or whose token is not here) is reported on its own
cluster, never as an error of the whole list.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import psutil

from jupyter_mars.launcher import registry
from jupyter_mars.remote.http import token_for
from jupyter_mars.server import models
from jupyter_mars.server.errors import ClusterError, NotFound, SupervisorError
from jupyter_mars.server.listing import Listed, kernel_owners, listed_clusters
from jupyter_mars.server.manager import ClusterManager
from jupyter_mars.server.supervisor_api import call_json, stream_snapshot

LIST_TIMEOUT = 3.0
"""Seconds each supervisor has to answer while the list is drawn: one that hangs must not
hold up the others' (every 2 s in the panel)."""

KernelLookup = Callable[[], Awaitable[dict[int, str | None]]]
"""This server's kernels: pid -> their notebook's path (``kernels.notebooks_by_pid``)."""


async def no_kernels() -> dict[int, str | None]:
    return {}


@dataclass(frozen=True)
class Target:
    """Where the server reaches one cluster's supervisor."""

    endpoint: str
    token: str
    web_base_path: str
    """The path its web service serves under ('/' when none)."""


def base_path(endpoint: str) -> str:
    """The path a supervisor's web service is served under, read from its endpoint.

    >>> base_path("http://127.0.0.1:9"), base_path("http://127.0.0.1:9/jl/mars/dashboard")
    ('/', '/jl/mars/dashboard/')
    """
    path = urlsplit(endpoint).path.rstrip("/")
    return f"{path}/" if path else "/"


def _ancestors(pid: int) -> list[int]:
    try:
        return [p.pid for p in psutil.Process(pid).parents()]
    except psutil.Error:
        return []


class MachineClusters:
    """Lists this machine's clusters and reaches each one's supervisor (see the module)."""

    def __init__(
        self,
        manager: ClusterManager,
        dashboards: str = "/mars/dashboards/",
        kernels: KernelLookup = no_kernels,
    ) -> None:
        self.manager = manager
        self.dashboards = dashboards
        """The path through this server under which ``<id>/`` is a cluster's dashboard."""
        self._kernels = kernels

    async def listed(self) -> list[Listed]:
        """This machine's clusters, the server's own first (stale records dropped)."""
        records = await asyncio.to_thread(registry.entries)
        own = self.manager.cluster
        kernels = await self._kernels()
        others = {e.owner_pid for e in records if e.owner_pid and e.owner_pid not in kernels}
        parents = {pid: _ancestors(pid) for pid in others}
        owners = kernel_owners(kernels, parents)
        own_endpoint = None if own is None else own.endpoint
        return listed_clusters(records, own_endpoint, owners, own_pid=os.getpid())

    async def find(self, cluster_id: str) -> Listed:
        """The cluster ``cluster_id`` (any of its records' ids); ``NotFound`` otherwise."""
        clusters = await self.listed()
        for cluster in clusters:
            if cluster_id in cluster.record_ids:
                return cluster
        known = ", ".join(c.id for c in clusters) or "none"
        raise NotFound(f"no cluster {cluster_id!r} runs on this machine; its clusters: {known}")

    def target(self, cluster: Listed) -> Target:
        """Where its supervisor is, and its token; ``SupervisorError`` when the token is
        not on this machine (a supervisor on another host keeps its own)."""
        own = self.manager.cluster
        if cluster.own and own is not None:
            return Target(own.endpoint, own.token, own.web_base_path)
        token = token_for(cluster.endpoint)
        if token is None:
            raise SupervisorError(
                f"the token of the cluster {cluster.id} is not on this machine "
                "(its supervisor runs elsewhere, or it stopped)"
            )
        return Target(cluster.endpoint, token, base_path(cluster.endpoint))

    async def resolve(self, cluster_id: str) -> Target:
        return self.target(await self.find(cluster_id))

    def dashboard(self, cluster: Listed) -> str:
        """Its dashboard's path through this server: the server's own keeps its old one."""
        if cluster.own:
            return self.manager.dashboard
        return f"{self.dashboards.rstrip('/')}/{cluster.id}/"

    async def models(self) -> list[dict[str, Any]]:
        """``GET clusters``: every cluster with its workers and running tasks."""
        clusters = await self.listed()
        return list(await asyncio.gather(*(self._model(c) for c in clusters)))

    async def model(self, cluster_id: str) -> dict[str, Any]:
        return await self._model(await self.find(cluster_id))

    async def _model(self, cluster: Listed) -> dict[str, Any]:
        fields = dataclasses.asdict(cluster)
        dashboard = self.dashboard(cluster)
        try:
            target = self.target(cluster)
            state, message = await asyncio.gather(
                call_json(target.endpoint, target.token, "GET", "/api/v1/cluster", LIST_TIMEOUT),
                stream_snapshot(target.endpoint, target.token, LIST_TIMEOUT),
            )
        except ClusterError as exc:
            return models.listed_cluster_model(fields, dashboard, supervisor_error=str(exc))
        except (OSError, ValueError) as exc:  # an answer that is not the API's: one cluster's
            problem = f"its supervisor's answer could not be read: {exc}"
            return models.listed_cluster_model(fields, dashboard, supervisor_error=problem)
        return models.listed_cluster_model(fields, dashboard, state, models.task_models(message))

    async def tasks(self, cluster_id: str) -> list[dict[str, Any]]:
        """Every session's latest executions on that cluster, whatever their state."""
        target = await self.resolve(cluster_id)
        return models.task_models(await stream_snapshot(target.endpoint, target.token))

    async def cancel(self, cluster_id: str, session_id: str, execution_id: str) -> dict[str, Any]:
        target = await self.resolve(cluster_id)
        path = f"/api/v1/sessions/{session_id}/executions/{execution_id}/cancel"
        answer = await call_json(target.endpoint, target.token, "POST", path)
        return {"session_id": session_id, "execution_id": execution_id, **answer}
