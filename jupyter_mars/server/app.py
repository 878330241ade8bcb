"""``MarsExtension``: the server extension's application, its configuration and its life.

Configured as ``MarsExtension.<name>`` (``jupyter_server_config.py``, or the command line
``--MarsExtension.n_workers=4``):

    start_on_launch  start a cluster when the server starts (False)
    host_list        a host list file (YAML): clusters start over SSH on it; '' = local
    n_workers        workers of a local cluster (2)
    n_cpu            cores of each local worker (1)
    memory           each local worker's memory limit, such as '4g'; '' = no limit
    web_port         the supervisor's web port; 0 = any free one
    known_hosts      the SSH known_hosts file; '' = the user's
    start_timeout    seconds a cluster has to start (120)

The cluster's supervisor serves its web service under ``<base_url>mars/dashboard/`` (or
``/mars/dashboard/`` when the base URL is not a plain path), which the dashboard proxy
forwards to. Stopping the server stops the cluster.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from jupyter_core.paths import jupyter_data_dir
from jupyter_server.extension.application import ExtensionApp
from jupyter_server.utils import url_path_join
from traitlets import Bool, Float, Int, Unicode

from jupyter_mars.deploy.values import to_base_path
from jupyter_mars.server.errors import ClusterError
from jupyter_mars.server.handlers import routes
from jupyter_mars.server.kernels import notebooks_by_pid
from jupyter_mars.server.machine import MachineClusters
from jupyter_mars.server.manager import ClusterManager
from jupyter_mars.server.proxy import DASHBOARD_PATH, DASHBOARDS_PATH

FALLBACK_BASE_PATH = "/mars/dashboard/"
"""The supervisor's base path when Jupyter's base URL cannot be one (``%`` escapes...)."""


def supervisor_base_path(dashboard: str) -> str:
    """The base path the supervisor serves under: the dashboard's own path when it is a
    plain one, so that proxied paths map one to one.

    >>> supervisor_base_path("/user/ann/mars/dashboard/"), supervisor_base_path("/a%40b/x/")
    ('/user/ann/mars/dashboard/', '/mars/dashboard/')
    """
    try:
        return to_base_path(dashboard)
    except ValueError:
        return FALLBACK_BASE_PATH


class MarsExtension(ExtensionApp):
    """A cluster owned by the Jupyter server, its REST API and its dashboard."""

    name = "jupyter_mars"

    start_on_launch = Bool(False, help="Start a cluster when the server starts.").tag(config=True)
    host_list = Unicode(
        "", help="A host list file (YAML); clusters start over SSH on it. '' = local."
    ).tag(config=True)
    n_workers = Int(2, min=1, help="Workers of a local cluster.").tag(config=True)
    n_cpu = Int(1, min=1, help="Cores of each local worker.").tag(config=True)
    memory = Unicode("", help="Each local worker's memory limit ('4g'); '' = no limit.").tag(
        config=True
    )
    web_port = Int(0, min=0, max=65535, help="The supervisor's web port; 0 = any.").tag(config=True)
    known_hosts = Unicode("", help="The SSH known_hosts file; '' = the user's.").tag(config=True)
    start_timeout = Float(120.0, min=1.0, help="Seconds a cluster has to start.").tag(config=True)

    manager: ClusterManager
    machine: MachineClusters

    def initialize_settings(self) -> None:
        assert self.serverapp is not None
        dashboard = url_path_join(self.serverapp.base_url, DASHBOARD_PATH) + "/"
        self.manager = ClusterManager(
            host_list=self.host_list,
            # where the panel's editor writes one while none is configured
            new_host_list=str(Path(jupyter_data_dir()) / "jupyter_mars" / "hosts.yml"),
            n_workers=self.n_workers,
            n_cpu=self.n_cpu,
            memory=self.memory,
            web_port=self.web_port,
            known_hosts=self.known_hosts,
            start_timeout=self.start_timeout,
            web_base_path=supervisor_base_path(dashboard),
            dashboard=dashboard,
        )
        serverapp = self.serverapp

        async def kernels() -> dict[int, str | None]:
            # names the notebook whose kernel started a cluster, from this server's own
            # kernel and session managers
            return await notebooks_by_pid(
                getattr(serverapp, "kernel_manager", None),
                getattr(serverapp, "session_manager", None),
            )

        self.machine = MachineClusters(
            self.manager,
            dashboards=url_path_join(self.serverapp.base_url, DASHBOARDS_PATH) + "/",
            kernels=kernels,
        )

    def initialize_handlers(self) -> None:
        self.handlers.extend(routes(self.manager, self.machine))

    async def _start_jupyter_server_extension(self, serverapp: Any) -> None:
        if self.start_on_launch:
            try:
                self.manager.start()
            except ClusterError as exc:
                self.log.error("jupyter_mars: the cluster did not start: %s", exc)

    async def stop_extension(self) -> None:
        """Stop the cluster (and wait for one starting) as the server shuts down."""
        manager = getattr(self, "manager", None)
        if manager is None:
            return
        try:
            await asyncio.to_thread(manager.close)
        except Exception:
            self.log.exception("jupyter_mars: stopping the cluster failed")
