"""A local cluster re-attached by its id, from the process that started it or another one.

A local cluster's registry record lists its supervisor's and workers' processes (PID and
start time); this handle connects a session to it and stops it by those PIDs. A PID is
signalled only while it still belongs to the cluster: the same start time and a
jupyter_mars command line, so that a PID the system has given to another process since is
never touched. A worker's nanny is stopped with the worker under it.
"""

from __future__ import annotations

import time
from typing import Any

import psutil

from jupyter_mars.launcher import registry
from jupyter_mars.launcher.handle import ClusterHandle
from jupyter_mars.remote.http import token_for
from jupyter_mars.session import new_session

STOP_WAIT_SECONDS = 5.0
"""How long the processes have to exit after SIGTERM before they are killed."""


def process_identity(pid: int) -> dict[str, Any]:
    """What tells process ``pid`` apart from a later one given the same PID."""
    return {"pid": pid, "created": psutil.Process(pid).create_time()}


def owned_process(identity: dict[str, Any]) -> psutil.Process | None:
    """The process ``identity`` recorded, if it still runs and is still that one."""
    try:
        process = psutil.Process(int(identity["pid"]))
        same = abs(process.create_time() - float(identity["created"])) < 0.01
        if not same or "jupyter_mars" not in " ".join(process.cmdline()):
            return None
        if process.status() == psutil.STATUS_ZOMBIE:
            return None
        return process
    except (psutil.Error, KeyError, TypeError, ValueError):
        return None


def _gone(process: psutil.Process) -> bool:
    try:
        return bool(process.status() == psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return True
    except psutil.Error:
        return False


def stop_processes(processes: list[psutil.Process], wait: float = STOP_WAIT_SECONDS) -> bool:
    """SIGTERM each process, SIGKILL those still running after ``wait`` seconds; a zombie
    (exited, not yet reaped by its parent) is gone. True when all are gone."""
    for process in processes:
        try:
            process.terminate()
        except psutil.Error:
            pass
    deadline = time.monotonic() + wait
    while not all(_gone(p) for p in processes) and time.monotonic() < deadline:
        time.sleep(0.05)
    for process in processes:
        if not _gone(process):
            try:
                process.kill()
            except psutil.Error:
                pass
    deadline = time.monotonic() + wait
    while not all(_gone(p) for p in processes) and time.monotonic() < deadline:
        time.sleep(0.05)
    return all(_gone(p) for p in processes)


class AttachedLocalCluster(ClusterHandle):
    """A running local cluster found by its id (``LocalCluster.from_id``,
    ``new_cluster(instance_id=...)``): ``session`` (the default session, with
    ``connect``), ``get_logview_address()``, ``stop_server()``."""

    def __init__(self, entry: registry.ClusterRecord, connect: bool = True) -> None:
        self.id: str | None = entry.id
        self.endpoint = entry.endpoint
        self.token = token_for(entry.endpoint)
        processes = entry.state["processes"]
        self._supervisor: dict[str, Any] = processes["supervisor"]
        self._workers: list[dict[str, Any]] = processes["workers"]
        self.session: Any = None
        if connect:
            self.session = new_session(self.endpoint, token=self.token)
        self.announce("attached")

    @classmethod
    def from_id(cls, cluster_id: str, connect: bool = True) -> AttachedLocalCluster:
        entry = registry.find(cluster_id)
        if entry is None:
            known = ", ".join(f"{e.id} ({e.kind})" for e in registry.entries()) or "none"
            raise LookupError(
                f"no cluster {cluster_id!r} runs on this machine: it was stopped, or the "
                f"process that started it exited; running here: {known}"
            )
        if entry.kind == "server":
            raise LookupError(
                f"cluster {cluster_id!r} is the Jupyter server's, stopped with the server: "
                f"connect to it with new_session({entry.endpoint!r}) instead"
            )
        if "processes" not in entry.state:
            raise LookupError(
                f"cluster {cluster_id!r} was recorded without its processes (by an older "
                "version): it cannot be re-attached"
            )
        return cls(entry, connect=connect)

    @property
    def n_workers(self) -> int:
        return len(self._workers)

    @property
    def running(self) -> bool:
        return owned_process(self._supervisor) is not None

    def stop(self) -> None:
        """Stop its workers (with their nannies' children) and supervisor, and remove its
        record. Raises ``RuntimeError`` if a process survived SIGKILL."""
        if self.session is not None:
            self.session.close()
            self.session = None
        found = [owned_process(i) for i in [*self._workers, self._supervisor]]
        processes: list[psutil.Process] = []
        for process in found:
            if process is None:
                continue
            try:
                processes += [process, *process.children(recursive=True)]
            except psutil.Error:
                processes.append(process)
        stopped = stop_processes(processes)
        if self.id is not None:
            registry.remove(self.id)
            self.id = None
        if not stopped:
            raise RuntimeError(f"processes of the cluster at {self.endpoint} survived SIGKILL")

    def __repr__(self) -> str:
        if not self.running:
            return f"<AttachedLocalCluster {self.endpoint} stopped>"
        n = self.n_workers
        return f"<AttachedLocalCluster {self.id} {self.endpoint} {n} worker{'' if n == 1 else 's'}>"

    def __enter__(self) -> AttachedLocalCluster:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()
