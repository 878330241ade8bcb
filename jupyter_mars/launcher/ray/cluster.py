"""``new_cluster_in_ray``: this project's supervisor and workers, placed by Ray.

A supervisor actor and ``worker_num`` worker actors (``actors.py``), each keeping
the real server program on the node Ray placed it on; the workers are spread over the
nodes (``SPREAD``) and reserve ``worker_cpu`` CPUs and ``worker_mem`` memory in Ray, which
their servers are given as ``--n-cpu`` and ``--phy-mem``. The actors are named
``<id>-supervisor`` and ``<id>-worker-<n>`` in the ``jupyter_mars`` namespace and
outlive the driver that started them (detached), so that another driver re-attaches by
id (``RayCluster.from_id``, ``new_cluster_in_ray(instance_id=...)``) until one stops it.

A worker actor whose node is lost is restarted by Ray on another node, where a new worker
joins the supervisor; a lost supervisor is reported (``check_running``, ``running``).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Sequence
from typing import Any, cast

import ray

from jupyter_mars.engine.sizes import format_size
from jupyter_mars.launcher.adaptive_loop import Adaptive, Adapts
from jupyter_mars.launcher.handle import ClusterHandle
from jupyter_mars.launcher.ray.actors import STOP_GRACE, ServerKeeper
from jupyter_mars.launcher.ray.request import (
    DEFAULT_SUPERVISOR_MEM,
    DEFAULT_TIMEOUT,
    DEFAULT_WORKER_CPU,
    DEFAULT_WORKER_MEM,
    DEFAULT_WORKER_NUM,
    RayClusterRequest,
    ray_cluster_request,
)
from jupyter_mars.remote import HttpClient
from jupyter_mars.remote.tokens import generate_token
from jupyter_mars.session import new_session

__all__ = ["NAMESPACE", "RayCluster", "new_cluster_in_ray"]

NAMESPACE = "jupyter_mars"
"""The Ray namespace the clusters' actors are named in."""

_KEEPER: Any = ray.remote(ServerKeeper)  # an actor class: its methods have .remote
_CONCURRENCY = 4
_ANSWER = 5.0
"""Seconds a placed actor takes at most to answer a call that does nothing."""
"""Calls an actor serves at once: ``stop`` is not held up by a ``started`` that waits."""


class RayCluster(Adapts, ClusterHandle):
    """A cluster whose supervisor and workers are Ray actors (``new_cluster_in_ray``
    makes one; ``from_id`` re-attaches to one). ``session`` is connected to it."""

    def __init__(
        self,
        cluster_id: str,
        supervisor: Any,
        record: dict[str, Any],
        workers: dict[str, Any],
        connect: bool = True,
    ) -> None:
        self.id: str | None = cluster_id
        self.supervisor = supervisor
        """The supervisor's actor."""
        self.workers = workers
        """Worker actors by name, oldest first."""
        self.endpoint: str = record["endpoint"]
        self.token: str = record["token"]
        self.supervisor_address: str = record["supervisor_address"]
        self.worker_cpu: int = record["worker_cpu"]
        self.worker_mem: int = record["worker_mem"]
        self._next_worker: int = record["next_worker"]
        self.config: str | None = record.get("config")
        self.adaptive: Adaptive | None = None
        self.session: Any = new_session(self.endpoint, token=self.token) if connect else None

    @classmethod
    def start(cls, request: RayClusterRequest) -> RayCluster:
        """Start the actors of ``request``; returns once ``min_worker_num`` workers joined
        (the others join meanwhile). Whatever started is stopped if it fails."""
        cluster_id = f"mars-{uuid.uuid4().hex[:8]}"
        token = generate_token()
        supervisor = _KEEPER.options(
            name=f"{cluster_id}-supervisor",
            namespace=NAMESPACE,
            lifetime="detached",
            num_cpus=0,
            memory=request.supervisor_mem,
            max_restarts=0,  # a new supervisor would know no worker nor any data: report it
            max_concurrency=_CONCURRENCY,
        ).remote("supervisor", ["-p", "0", "-w", "0", *_config_flags(request)], token)
        workers: dict[str, Any] = {}
        try:
            started = _started_supervisor(supervisor, request)
            record = {
                "endpoint": f"http://{started['addresses']['web']}",
                "token": token,
                "supervisor_address": started["addresses"]["rpc"],
                "worker_cpu": request.worker_cpu,
                "worker_mem": request.worker_mem,
                "next_worker": 0,
                "workers": [],
                "config": request.config,
            }
            cluster = cls(cluster_id, supervisor, record, workers, connect=False)
            cluster._start_workers(request.worker_num, request.min_worker_num, request.timeout)
            cluster.session = new_session(cluster.endpoint, token=token)
        except BaseException:
            _kill([supervisor, *workers.values()])
            raise
        cluster.announce("started in Ray")
        return cluster

    @classmethod
    def from_id(cls, cluster_id: str, connect: bool = True) -> RayCluster:
        """The running cluster ``cluster_id`` (its ``instance_id``), started by this
        driver or another one connected to the same Ray cluster."""
        if not isinstance(cluster_id, str) or not cluster_id:
            raise TypeError(f"instance_id must be a cluster's id (a str), got {cluster_id!r}")
        try:
            supervisor = ray.get_actor(f"{cluster_id}-supervisor", namespace=NAMESPACE)
        except ValueError:
            raise ValueError(
                f"no cluster {cluster_id!r} runs in this Ray cluster (namespace {NAMESPACE!r})"
            ) from None
        record = cast(dict[str, Any], ray.get(supervisor.recall.remote()))
        workers = {}
        for name in record["workers"]:
            try:
                workers[name] = ray.get_actor(name, namespace=NAMESPACE)
            except ValueError:
                continue  # stopped meanwhile by another driver
        cluster = cls(cluster_id, supervisor, record, workers, connect=connect)
        cluster.announce("re-attached in Ray")
        return cluster

    # -- sizes -------------------------------------------------------------------------

    @property
    def n_workers(self) -> int:
        return len(self.workers)

    def scale(self, n: int, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Run ``n`` workers: more actors are started, or the newest stopped; returns once
        the supervisor counts exactly ``n``. Turns adaptive scaling off."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"n must be a non-negative int, got {n!r}")
        self.stop_adapting()
        self.resize(n, timeout=timeout)

    def resize(self, n: int, retire: Sequence[str] = (), timeout: float = DEFAULT_TIMEOUT) -> None:
        """Run ``n`` workers, leaving adaptive scaling as it is; with ``retire`` (workers'
        supervisor addresses), only workers named there leave, the first first."""
        self.check_running()
        if n > len(self.workers):
            self._start_workers(n - len(self.workers), n - len(self.workers), timeout)
            self._wait_for_workers(n, timeout, exactly=True)
        elif n < len(self.workers):
            excess = len(self.workers) - n
            if retire:
                by_address = {a: name for name, a in self._worker_addresses().items()}
                names = [by_address[a] for a in dict.fromkeys(retire) if a in by_address]
                leaving = names[:excess]
            else:
                leaving = list(self.workers)[n:]
            self._stop_actors([self.workers.pop(name) for name in leaving])
            self._remember()
            self._wait_for_workers(len(self.workers), timeout, exactly=True)

    def most_workers(self, minimum: int) -> int:
        """As many workers as the Ray cluster's CPUs hold (now: an autoscaling Ray cluster
        grows past this only when asked for more)."""
        cpus = int(ray.cluster_resources().get("CPU", 0))
        return max(minimum, cpus // self.worker_cpu)

    def check_running(self) -> None:
        if not self.running:
            raise RuntimeError(
                f"the cluster {self.id or '(stopped)'} does not run: its supervisor's actor "
                "is gone (stopped, or its node lost); start a new one"
            )

    @property
    def running(self) -> bool:
        """Whether its supervisor's actor answers."""
        if self.id is None:
            return False
        try:
            ray.get(self.supervisor.describe.remote(), timeout=30)
        except (ray.exceptions.RayActorError, ray.exceptions.GetTimeoutError):
            return False
        return True

    @property
    def pids(self) -> dict[str, int]:
        """The server processes' ids by actor name (each on its actor's node)."""
        actors = {f"{self.id}-supervisor": self.supervisor, **self.workers}
        described = ray.get([a.describe.remote() for a in actors.values()], timeout=60)
        return {name: d["pid"] for name, d in zip(actors, described, strict=True)}

    def stop(self) -> None:
        """Stop the servers and kill the actors (nothing if already stopped)."""
        self.stop_adapting()
        if self.session is not None:
            self.session.close()
            self.session = None
        if self.id is None:
            return
        workers = list(self.workers.values())
        self.workers = {}
        self._stop_actors(workers)
        self._stop_actors([self.supervisor])
        self.id = None

    def __enter__(self) -> RayCluster:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def __repr__(self) -> str:
        if self.id is None:
            return f"<RayCluster {self.endpoint} stopped>"
        return f"<RayCluster {self.id} {self.endpoint} {self.n_workers} workers>"

    # -- the actors ----------------------------------------------------------------------

    def _start_workers(self, n: int, least: int, timeout: float) -> None:
        """Start ``n`` worker actors; return once ``least`` of them joined."""
        flags = ["-s", self.supervisor_address, "--n-cpu", str(self.worker_cpu)]
        flags += ["--phy-mem", str(self.worker_mem)]
        if self.config is not None:
            flags += ["-f", self.config]
        new = []
        for _ in range(n):
            name = f"{self.id}-worker-{self._next_worker}"
            self._next_worker += 1
            self.workers[name] = _KEEPER.options(
                name=name,
                namespace=NAMESPACE,
                lifetime="detached",
                num_cpus=self.worker_cpu,
                memory=self.worker_mem,
                scheduling_strategy="SPREAD",
                max_restarts=-1,  # its node lost: Ray places it again, and its worker joins
                max_concurrency=_CONCURRENCY,
            ).remote("worker", flags, self.token)
            new.append(self.workers[name])
        self._remember()
        refs = [actor.started.remote(timeout) for actor in new]
        ready, pending = ray.wait(refs, num_returns=least, timeout=timeout) if least else ([], [])
        ray.get(ready)  # a worker that failed to start raises here, with its last lines
        if len(ready) < least:
            raise TimeoutError(
                f"{len(ready)} of {least} worker actors started within {timeout} s: Ray has "
                f"not placed the others (each asks {self.worker_cpu} CPU and "
                f"{format_size(self.worker_mem)} of memory; available now: "
                f"{_resources(_available())})"
            )
        self._wait_for_workers(len(self.workers) - n + least, timeout)

    def _wait_for_workers(self, n: int, timeout: float, exactly: bool = False) -> None:
        http = HttpClient(self.endpoint, self.token, timeout=5)
        deadline = time.monotonic() + timeout
        while True:
            joined = len(http.json("GET", "/api/v1/cluster")["workers"])
            if joined == n or (joined > n and not exactly):
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"{joined} of {n} workers joined within {timeout} s")
            time.sleep(0.1)

    def _worker_addresses(self) -> dict[str, str]:
        """Each worker actor's worker address (a restarted actor's worker has a new one)."""
        names = list(self.workers)
        described = ray.get([self.workers[n].describe.remote() for n in names], timeout=60)
        return {
            name: d["addresses"]["rpc"]
            for name, d in zip(names, described, strict=True)
            if "rpc" in d["addresses"]
        }

    def _remember(self) -> None:
        record = {
            "endpoint": self.endpoint,
            "token": self.token,
            "supervisor_address": self.supervisor_address,
            "worker_cpu": self.worker_cpu,
            "worker_mem": self.worker_mem,
            "next_worker": self._next_worker,
            "workers": list(self.workers),
            "config": self.config,
        }
        ray.get(self.supervisor.remember.remote(record))

    def _stop_actors(self, actors: list[Any]) -> None:
        """Stop their servers (SIGTERM: a worker leaves the supervisor), then kill them.
        An actor Ray has not placed (or that is gone) does not answer, and is killed only."""
        asked = {actor.describe.remote(): actor for actor in actors}
        answered, _ = ray.wait(list(asked), num_returns=len(asked), timeout=_ANSWER)
        refs = [asked[ref].stop.remote() for ref in answered]
        ray.wait(refs, num_returns=len(refs), timeout=2 * STOP_GRACE)
        _kill(actors)


def _config_flags(request: RayClusterRequest) -> list[str]:
    return [] if request.config is None else ["-f", request.config]


def _kill(actors: list[Any]) -> None:
    for actor in actors:
        try:
            ray.kill(actor, no_restart=True)
        except ray.exceptions.RayError:
            pass  # already gone


def _started_supervisor(supervisor: Any, request: RayClusterRequest) -> dict[str, Any]:
    try:
        return cast(
            dict[str, Any],
            ray.get(supervisor.started.remote(request.timeout), timeout=request.timeout),
        )
    except ray.exceptions.GetTimeoutError:
        raise TimeoutError(
            f"the supervisor did not start within {request.timeout} s: Ray may not have "
            f"placed its actor (it asks no CPU and {format_size(request.supervisor_mem)} of "
            f"memory; available now: {_resources(_available())})"
        ) from None


def _available() -> dict[str, float]:
    return dict(ray.available_resources())


def _resources(resources: dict[str, float]) -> str:
    shown = [f"{k} {resources[k]:g}" for k in ("CPU", "GPU") if k in resources]
    if "memory" in resources:
        shown.append(f"memory {format_size(int(resources['memory']))}")
    return ", ".join(shown) or "none"


def new_cluster_in_ray(
    worker_num: int = DEFAULT_WORKER_NUM,
    worker_cpu: int = DEFAULT_WORKER_CPU,
    worker_mem: int | float | str = DEFAULT_WORKER_MEM,
    supervisor_mem: int | float | str = DEFAULT_SUPERVISOR_MEM,
    min_worker_num: int | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    address: str | None = None,
    *,
    config: str | None = None,
    instance_id: str | None = None,
    **ray_init_kwargs: Any,
) -> RayCluster:
    """Start this project's supervisor and ``worker_num`` workers of ``worker_cpu`` CPUs
    and ``worker_mem`` memory (GiB without a unit; bytes from 2**20) as Ray actors, and
    return once ``min_worker_num`` (default: all) joined, with ``.session`` connected and
    made the default. Connects this process to Ray first when it is not yet
    (``ray.init(address, **ray_init_kwargs)``: with no address, a running local Ray
    cluster or a new one); when it is, ``address`` is not used, and ``ray_init_kwargs``
    are refused. ``config``: a config file both programs read (``mars-supervisor -f``),
    at that path on every node. With ``instance_id``: the running cluster of that id
    instead.

    Every argument is checked before Ray is touched."""
    if instance_id is not None:
        _connect(address, ray_init_kwargs)
        return RayCluster.from_id(instance_id)
    request = ray_cluster_request(
        worker_num, worker_cpu, worker_mem, supervisor_mem, min_worker_num, timeout, config
    )
    if address is not None and not isinstance(address, str):
        raise TypeError(f"address must be a Ray address (a str) or None, got {address!r}")
    _connect(address, ray_init_kwargs)
    return RayCluster.start(request)


def _connect(address: str | None, ray_init_kwargs: dict[str, Any]) -> None:
    if not ray.is_initialized():
        ray.init(address=address, **ray_init_kwargs)
    elif ray_init_kwargs:
        raise TypeError(
            f"{', '.join(sorted(ray_init_kwargs))}: this process is connected to Ray already, "
            "so nothing would use them (they are ray.init's arguments)"
        )
