"""``ClusterManager``: the one cluster a Jupyter server owns, and its life.

Theory of operation. The manager holds at most one cluster and a state:

    stopped --start--> starting --(up)--> running --stop--> stopping --> stopped
                          |                  |
                          +--(error)--> failed --start--> starting
                                          +------stop---> stopped

State fields: ``_state`` (one of ``STATES``), ``_error`` (why it failed), ``_cluster``
(the ``OwnedCluster``, set while running), ``_options`` (what it was started with),
``_started`` (when), ``_scaling`` (a scale in flight) and ``_generation`` (starts so
far). They change only under ``_lock``, and every change is quick.

The slow work (starting processes, SSH, stopping, scaling) runs in threads, never on the
server's event loop: ``start()`` returns at once and launches in the manager's own
thread; ``stop()``, ``scale()`` and ``adapt()`` are coroutines that run their blocking
part in a thread. One such operation runs at a time (``_operation``): a second ``start`` while
one runs is a ``Conflict`` (409), a ``scale`` while another scale runs too; ``stop``
waits for a start or scale in flight and then stops what it left. ``adapt()`` hands the
cluster to its launcher's adaptive loop (``launcher/adaptive_loop.py``), which resizes it
from then on; ``scale()`` and ``stop()`` end that loop first.

``status()``, ``workers()``, ``tasks()`` and ``cancel()`` ask the supervisor over its
API (``supervisor_api.py``); the host list file is read and written here, checked with
the SSH launcher's own parser.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import psutil
import yaml

from jupyter_mars.deploy.yaml_errors import describe_yaml_error
from jupyter_mars.engine.sizes import parse_size
from jupyter_mars.launcher.adaptive import check_bounds
from jupyter_mars.launcher.hosts import parse_hosts
from jupyter_mars.server import models
from jupyter_mars.server.clusters import OwnedCluster, StartOptions, launch
from jupyter_mars.server.errors import ClusterError, Conflict, InvalidRequest
from jupyter_mars.server.supervisor_api import call_json, stream_snapshot

STATES = ("stopped", "starting", "running", "stopping", "failed")


def describe(error: BaseException) -> str:
    """An error as the status shows it: its type and message."""
    message = str(error).strip()
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


class ClusterManager:
    """Starts, scales, stops and reports on the server's cluster (see the module
    docstring). ``launcher`` starts a cluster from ``StartOptions``; tests may pass
    another."""

    def __init__(
        self,
        *,
        host_list: str = "",
        new_host_list: str = "",
        n_workers: int = 2,
        n_cpu: int = 1,
        memory: str = "",
        web_port: int = 0,
        known_hosts: str = "",
        start_timeout: float = 120.0,
        web_base_path: str = "/",
        dashboard: str = "/mars/dashboard/",
        launcher: Callable[[StartOptions], OwnedCluster] = launch,
    ) -> None:
        self.host_list = host_list
        """The host list file; empty: clusters are local."""
        self.new_host_list = new_host_list
        """Where a host list written from the panel goes while none is configured; once
        written there it is the host list (clusters then start over SSH on it)."""
        self.n_workers = n_workers
        self.n_cpu = n_cpu
        self.memory = memory
        self.web_port = web_port
        self.known_hosts = known_hosts
        self.start_timeout = start_timeout
        self.web_base_path = web_base_path
        """The base path the supervisor's web service is started with."""
        self.dashboard = dashboard
        """The dashboard's path through the Jupyter server."""
        self._launcher = launcher
        self._lock = threading.Lock()
        self._operation = threading.Lock()
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mars-cluster")
        self._state = "stopped"
        self._error: str | None = None
        self._cluster: OwnedCluster | None = None
        self._options: dict[str, Any] = {}
        self._started: float | None = None
        self._scaling = False
        self._generation = 0
        """Counts starts, so that a launch overtaken by a stop does not begin."""

    # ---- state ------------------------------------------------------------------------

    @property
    def state(self) -> str:
        return self._state

    @property
    def cluster(self) -> OwnedCluster | None:
        """The cluster while it runs; None otherwise."""
        return self._cluster if self._state == "running" else None

    @property
    def pids(self) -> list[int]:
        """The cluster's processes on this machine (none when there is no cluster)."""
        cluster = self._cluster
        return [] if cluster is None else list(cluster.pids)

    def snapshot(self) -> dict[str, Any]:
        """The manager's own fields, as ``models.status_model`` reads them."""
        with self._lock:
            cluster = self._cluster
            return {
                "state": self._state,
                "error": self._error,
                "kind": None if cluster is None else cluster.kind,
                "endpoint": None if cluster is None else cluster.endpoint,
                "adaptive": None if cluster is None else cluster.adaptive(),
                "started": self._started,
                "options": dict(self._options),
            }

    # ---- start ------------------------------------------------------------------------

    def start_options(
        self, n_workers: int | None = None, n_cpu: int | None = None, memory: str | None = None
    ) -> StartOptions:
        """The options a start with these overrides uses; ``InvalidRequest`` names what
        is wrong with them."""
        if self.host_list and (n_cpu is not None or memory is not None):
            raise InvalidRequest(
                "n_cpu and memory of SSH workers are set per host in the host list"
            )
        memory = memory if memory is not None else (self.memory or None)
        if memory is not None:
            try:
                parse_size(memory, psutil.virtual_memory().total)
            except ValueError as exc:
                raise InvalidRequest(f"memory: {exc}") from None
        workers = n_workers if n_workers is not None else self.n_workers
        return StartOptions(
            n_workers=n_workers if self.host_list else workers,
            n_cpu=n_cpu if n_cpu is not None else self.n_cpu,
            memory=memory,
            host_list=self.host_list,
            known_hosts=self.known_hosts or None,
            web_port=self.web_port,
            web_base_path=self.web_base_path,
            timeout=self.start_timeout,
            dashboard=self.dashboard,
        )

    def start(
        self, n_workers: int | None = None, n_cpu: int | None = None, memory: str | None = None
    ) -> Future[None]:
        """Begin starting a cluster and return at once (the state is ``starting``); the
        future ends when it runs, or with the error that made it ``failed``."""
        options = self.start_options(n_workers, n_cpu, memory)
        with self._lock:
            if self._state not in ("stopped", "failed"):
                raise Conflict(f"a cluster is already {self._state}; stop it first")
            self._state, self._error = "starting", None
            self._options = {
                "n_workers": options.n_workers,
                "n_cpu": options.n_cpu,
                "memory": options.memory,
                "host_list": options.host_list or None,
            }
            self._started = time.time()
            self._generation += 1
            return self._executor.submit(self._launch, options, self._generation)

    def _launch(self, options: StartOptions, generation: int) -> None:
        with self._operation:
            with self._lock:
                if self._generation != generation or self._state != "starting":
                    return  # stopped before it began
            try:
                cluster = self._launcher(options)
            except BaseException as exc:
                with self._lock:
                    if self._state == "starting":
                        self._state, self._error = "failed", describe(exc)
                raise
            with self._lock:
                self._cluster = cluster
                if self._state == "starting":  # else a stop waits to stop it
                    self._state = "running"

    # ---- stop -------------------------------------------------------------------------

    def stop_now(self) -> None:
        """Stop the cluster, waiting for a start or scale in flight (blocking: call it
        from a thread, or use ``stop``). Stopping a stopped cluster does nothing."""
        with self._lock:
            if self._state == "stopped":
                return
            self._state = "stopping"
        with self._operation:
            with self._lock:
                cluster, self._cluster = self._cluster, None
            try:
                if cluster is not None:
                    cluster.stop()
            except Exception as exc:
                message = f"stopping the cluster failed: {describe(exc)}"
                with self._lock:
                    self._state, self._error = "failed", message
                raise ClusterError(message) from exc
            with self._lock:
                self._state, self._error, self._started = "stopped", None, None

    async def stop(self) -> None:
        await asyncio.to_thread(self.stop_now)

    def close(self) -> None:
        """Stop the cluster and the manager's thread (the server is shutting down)."""
        self.stop_now()
        self._executor.shutdown(wait=False)

    # ---- scale ------------------------------------------------------------------------

    def scale_now(self, n: int) -> None:
        """Run ``n`` workers (blocking; ``scale`` is the coroutine)."""
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= models.MAX_WORKERS:
            raise InvalidRequest(f"n must be a whole number from 1 to {models.MAX_WORKERS}")
        with self._lock:
            cluster = self._running()
            if self._scaling:
                raise Conflict("the cluster is already being scaled")
            self._scaling = True
        try:
            with self._operation:
                if self._cluster is not cluster:
                    raise Conflict("the cluster stopped before it could be scaled")
                try:
                    cluster.scale(n)
                except Exception as exc:
                    raise ClusterError(f"scaling to {n} workers failed: {describe(exc)}") from exc
                with self._lock:
                    self._options["n_workers"] = n
        finally:
            with self._lock:
                self._scaling = False

    async def scale(self, n: int) -> None:
        await asyncio.to_thread(self.scale_now, n)

    # ---- adapt ------------------------------------------------------------------------

    def adapt_now(self, bounds: dict[str, Any] | None) -> None:
        """Adapt between ``bounds`` (``models.parse_adapt``: minimum, maximum, wait);
        None: stop adapting, keeping the workers that run (blocking: stopping waits for
        a resize in flight; ``adapt`` is the coroutine)."""
        checked = None
        if bounds is not None:
            try:
                checked = check_bounds(**bounds)
            except (TypeError, ValueError) as exc:
                raise InvalidRequest(str(exc)) from None
        with self._lock:
            cluster = self._running()
            if self._scaling:
                raise Conflict("the cluster is being scaled; adapt once that is done")
        # one operation at a time: a stop waits, and then finds the loop to end
        with self._operation:
            if self._cluster is not cluster:
                raise Conflict("the cluster stopped before it could adapt")
            if checked is None:
                cluster.stop_adapting()
            else:
                cluster.adapt(checked)

    async def adapt(self, bounds: dict[str, Any] | None) -> None:
        await asyncio.to_thread(self.adapt_now, bounds)

    def _running(self) -> OwnedCluster:
        if self._state != "running" or self._cluster is None:
            raise Conflict(f"no cluster is running (it is {self._state})")
        return self._cluster

    # ---- what the supervisor says -------------------------------------------------------

    async def status(self) -> dict[str, Any]:
        """The status model: the manager's state, and while running the workers and the
        running tasks (a supervisor that does not answer is reported, not raised)."""
        state = self.snapshot()
        cluster = self.cluster
        if cluster is None or state["state"] != "running":
            return models.status_model(state, self.dashboard)
        try:
            model, message = await asyncio.gather(
                call_json(cluster.endpoint, cluster.token, "GET", "/api/v1/cluster"),
                stream_snapshot(cluster.endpoint, cluster.token),
            )
        except ClusterError as exc:
            return models.status_model(state, self.dashboard, supervisor_error=str(exc))
        return models.status_model(state, self.dashboard, model, models.task_models(message))

    async def workers(self) -> list[dict[str, Any]]:
        cluster = self.cluster
        if cluster is None:
            return []
        model = await call_json(cluster.endpoint, cluster.token, "GET", "/api/v1/cluster")
        return models.workers_model(model)

    async def tasks(self) -> list[dict[str, Any]]:
        """Every session's latest executions, whatever their state."""
        cluster = self.cluster
        if cluster is None:
            return []
        return models.task_models(await stream_snapshot(cluster.endpoint, cluster.token))

    async def cancel(self, session_id: str, execution_id: str) -> dict[str, Any]:
        cluster = self._running()
        path = f"/api/v1/sessions/{session_id}/executions/{execution_id}/cancel"
        answer = await call_json(cluster.endpoint, cluster.token, "POST", path)
        return {"session_id": session_id, "execution_id": execution_id, **answer}

    # ---- the host list ------------------------------------------------------------------

    def read_host_list(self) -> dict[str, Any]:
        """The host list file's model; its text is empty while the file does not exist."""
        if not self.host_list:
            if not self.new_host_list:
                return models.host_list_model("", "")
            # shown (a file kept from before included) but not used until it is saved
            draft = Path(self.new_host_list).expanduser()
            try:
                text = draft.read_text(encoding="utf-8")
            except OSError:
                text = ""
            return models.host_list_model(str(draft), text, configured=False)
        path = Path(self.host_list).expanduser()
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            text = ""
        except OSError as exc:
            raise ClusterError(f"cannot read the host list {path}: {exc.strerror}") from None
        return models.host_list_model(str(path), text)

    def write_host_list(self, text: str) -> dict[str, Any]:
        """Check ``text`` as a host list and replace the file with it (readable by this
        user only: it names keys and users)."""
        if not self.host_list and not self.new_host_list:
            raise Conflict(
                "no host list file is configured: set MarsExtension.host_list to its path"
            )
        try:
            parse_hosts(yaml.safe_load(text))
        except yaml.YAMLError as exc:
            raise InvalidRequest(f"the host list is {describe_yaml_error(exc)}") from None
        except ValueError as exc:
            raise InvalidRequest(f"invalid host list: {exc}") from None
        path = Path(self.host_list or self.new_host_list).expanduser()
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor, partial = tempfile.mkstemp(dir=path.parent, prefix=".hosts-")
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
                stream.write(text)
            os.replace(partial, path)
        except BaseException:
            Path(partial).unlink(missing_ok=True)
            raise
        self.host_list = str(path)  # written: clusters now start over SSH on it
        return models.host_list_model(str(path), text)
