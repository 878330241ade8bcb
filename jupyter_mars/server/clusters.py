"""The clusters the server extension owns, local or on a host list, behind one interface.

``launch(options)`` starts a ``LocalCluster`` (no host list) or an ``SSHCluster`` and
wraps it in an ``OwnedCluster``: its web endpoint and token, ``worker_count()``,
``scale(n)``, ``adapt(bounds)`` / ``stop_adapting()`` / ``adaptive()`` (adaptive
scaling, which ``scale`` turns off) and ``stop()``. Every call here blocks (processes
start, SSH connects): the manager runs them in threads, never on the server's event loop.

A server has no use for a session to its cluster: both launchers are asked for none
(``connect=False``), so the server process's default session stays as it was.

The cluster is published in the registry of this machine's clusters with kind
``server`` (what ``%mars connect`` without an address prefers): a ``LocalCluster``
records itself with that kind; an ``SSHCluster`` records itself as ``ssh`` (so that
``mars-cluster down`` can stop it), and a second, ``server`` record is added beside it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Protocol

from jupyter_mars.launcher import registry
from jupyter_mars.launcher.adaptive import AdaptiveBounds
from jupyter_mars.launcher.adaptive_loop import Adaptive
from jupyter_mars.launcher.local import LocalCluster

JOIN_TIMEOUT = 60.0
"""Seconds that workers added by ``scale`` have to join (or leave)."""


@dataclass(frozen=True)
class StartOptions:
    """Everything a cluster is started with; checked before it gets here."""

    n_workers: int | None
    """Workers to run; None: the host list's count (SSH only)."""
    n_cpu: int
    """Cores of each local worker."""
    memory: str | None
    """Each local worker's memory limit (``--phy-mem``); None: no limit."""
    host_list: str
    """The host list's path; empty: a local cluster."""
    known_hosts: str | None
    """The SSH known_hosts file; None: the user's."""
    web_port: int
    """The supervisor's web port; 0: any free one."""
    web_base_path: str
    """The path the supervisor's web service is served under."""
    timeout: float
    """Seconds the cluster has to start."""
    dashboard: str = ""
    """The dashboard's path through the Jupyter server, published with the cluster."""


class OwnedCluster(Protocol):
    kind: str
    """``local`` or ``ssh``: what started it."""
    endpoint: str
    """The supervisor's web address, with its base path."""
    token: str
    web_base_path: str
    """The base path the supervisor really serves under ('/' when it has none)."""

    @property
    def pids(self) -> list[int]:
        """Its processes on this machine."""

    def worker_count(self) -> int: ...

    def scale(self, n: int) -> None: ...

    def adapt(self, bounds: AdaptiveBounds) -> None: ...

    def stop_adapting(self) -> None: ...

    def adaptive(self) -> dict[str, Any] | None:
        """Its adaptive bounds and last error while it adapts; None otherwise."""

    def stop(self) -> None: ...


def adaptive_model(adaptive: Adaptive | None) -> dict[str, Any] | None:
    """What the status says of a launcher's adaptive loop (None: it does not adapt)."""
    if adaptive is None or not adaptive.running:
        return None
    return {**adaptive.bounds.as_dict(), "error": adaptive.last_error}


def launch(options: StartOptions) -> OwnedCluster:
    """Start the cluster ``options`` describe and wait until it runs."""
    if options.host_list:
        return OwnedSSHCluster(options)
    return OwnedLocalCluster(options)


class LauncherBacked:
    """What both owned clusters read and adapt through the launcher they wrap."""

    cluster: Any
    """The ``LocalCluster`` or ``SSHCluster``."""

    def worker_count(self) -> int:
        return len(self.cluster.workers)

    def adapt(self, bounds: AdaptiveBounds) -> None:
        self.cluster.adapt(
            bounds.minimum, bounds.maximum, wait=bounds.wait, interval=bounds.interval
        )

    def stop_adapting(self) -> None:
        self.cluster.stop_adapting()

    def adaptive(self) -> dict[str, Any] | None:
        return adaptive_model(self.cluster.adaptive)


class OwnedLocalCluster(LauncherBacked):
    """A supervisor and workers as subprocesses of the Jupyter server."""

    kind = "local"
    cluster: LocalCluster

    def __init__(self, options: StartOptions) -> None:
        self.options = options
        self.cluster = LocalCluster(
            n_worker=options.n_workers or 1,
            n_cpu=options.n_cpu,
            memory=options.memory,
            web_port=options.web_port or None,
            timeout=options.timeout,
            web_base_path=options.web_base_path,
            kind="server",
            connect=False,
        )
        self.endpoint: str = self.cluster.endpoint
        self.token: str = self.cluster.token
        self.web_base_path = options.web_base_path
        entry = registry.find(self.cluster.id) if self.cluster.id is not None else None
        if entry is not None:  # where notebooks of this server find its dashboard
            registry.record(dataclasses.replace(entry, jupyter_dashboard=options.dashboard))

    @property
    def pids(self) -> list[int]:
        return self.cluster.pids

    def scale(self, n: int) -> None:
        self.cluster.scale(n, timeout=JOIN_TIMEOUT)

    def stop(self) -> None:
        self.cluster.stop()


class OwnedSSHCluster(LauncherBacked):
    """A supervisor on this machine (or a host of the list) and workers over SSH."""

    kind = "ssh"

    def __init__(self, options: StartOptions) -> None:
        from jupyter_mars.launcher.ssh_cluster import SSHCluster

        self.options = options
        self.cluster = SSHCluster(
            options.host_list,
            known_hosts=options.known_hosts,
            web_port=options.web_port,
            connect=False,
        )
        self.cluster.start(timeout=options.timeout)
        self.record_id: str | None = None
        try:
            if options.n_workers is not None and options.n_workers != self.worker_count():
                self.cluster.scale(options.n_workers)
            self.endpoint: str = self.cluster.endpoint
            self.token: str = self.cluster.token
            # the SSH launcher has no base path option: its supervisor serves under '/'
            self.web_base_path = "/"
            self._publish()
        except BaseException:
            self.stop()
            raise

    @property
    def pids(self) -> list[int]:
        return []

    def scale(self, n: int) -> None:
        self.cluster.scale(n)
        self._publish()

    def _publish(self) -> None:
        """The ``server`` record beside the launcher's own ``ssh`` one; its owner is this
        process, so it goes stale with the Jupyter server."""
        entry = registry.ClusterRecord(
            self.endpoint,
            "server",
            n_workers=self.worker_count(),
            state={"ssh_cluster": self.cluster.id},
            jupyter_dashboard=self.options.dashboard,
        )
        if self.record_id is not None:
            entry = dataclasses.replace(entry, id=self.record_id)
        registry.record(entry)
        self.record_id = entry.id

    def stop(self) -> None:
        if self.record_id is not None:
            registry.remove(self.record_id)
            self.record_id = None
        self.cluster.stop()
