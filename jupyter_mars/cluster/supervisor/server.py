"""The supervisor process: worker registry, sessions and the scheduler core.

Workers register over RPC on ``-p`` and send heartbeats; a worker silent for
``worker_timeout`` seconds is removed (its running tasks are retried on others). Clients
reach the supervisor through its front: the HTTP API on ``-w`` (``jupyter_mars/web/``),
which the command line builds around this object and hands to it (``Front``); nothing
here imports it. Executions are planned and tiled here by engine sessions over one
``ClusterRuntime``, which alone drives the scheduler core, on this process's loop.

Several supervisors (``supervisors``, the ``-s`` list): one is active, the others stand by
(``election.py`` decides). A standby keeps its worker table current from the workers'
heartbeats and answers ``/api/v1/cluster``, but has no sessions: the web API sends clients
to the active one. Taking over, a supervisor first resets every worker (it knows none of
the chunks they hold), then accepts sessions; its ``epoch`` changes, so clients can tell
a new term from a supervisor they already knew. A supervisor that starts while another is
active stands by. Going back to standby (only when two are active after a partition, and
one ranked before it keeps the role), it drops its sessions and its runtime without
touching the workers, which now belong to the other one; the answers of its executions
then say it stands by (503), so that clients resubmit them on the active one.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Sequence
from typing import Any, Protocol

from jupyter_mars.cluster.supervisor.election import (
    WILDCARD_HOSTS,
    Election,
    ElectionMonitor,
    rank_of,
)
from jupyter_mars.cluster.supervisor.runtime import (
    NO_WORKERS_TIMEOUT,
    ClusterRuntime,
    WorkerConnection,
)
from jupyter_mars.cluster.supervisor.sessions import SESSION_TIMEOUT, SessionRegistry
from jupyter_mars.cluster.supervisor.shares import cluster_totals, memory_shares
from jupyter_mars.cluster.wire.rpc import RPCClient, RPCServer

logger = logging.getLogger(__name__)

RESET_TIMEOUT = 5.0
"""Seconds a worker may take to drop its chunks when a supervisor takes over."""


class Front(Protocol):
    """How clients reach a supervisor: its HTTP API and dashboard (``jupyter_mars/web/``).

    The command line builds it and hands it to the ``SupervisorServer``, which starts it
    once its runtime and sessions exist and before it answers its first ping (the answers
    carry the front's address), and stops it when it stops.
    """

    base_path: str
    """The URL path it serves under, starting and ending with '/'."""

    def start(self, supervisor: SupervisorServer) -> str:
        """Serve ``supervisor``; the address (``host:port``) it listens on."""
        ...

    def stop(self) -> None:
        """Stop accepting requests."""
        ...


def worker_summary(worker: WorkerConnection) -> dict[str, Any]:
    """What the cluster model says of a worker: its address, cores, tasks in flight to it,
    the chunks it holds (``stored``: stopping it would mean recomputing them), its last
    heartbeat's figures and how many seconds ago that came."""
    return {
        "address": worker.address,
        "n_cpu": worker.n_cpu,
        "running": worker.running,
        "stored": len(worker.keys),
        "heartbeat_age": round(max(time.monotonic() - worker.last_seen, 0.0), 1),
        "resources": worker.resources,
    }


class SupervisorServer:
    def __init__(
        self,
        *,
        token: str,
        host: str = "127.0.0.1",
        port: int = 0,
        front: Front | None = None,
        advertise_address: str | None = None,
        worker_timeout: float = 10.0,
        supervisors: Sequence[str] = (),
        ping_interval: float = 0.5,
        takeover_after: float = 2.0,
        no_workers_timeout: float = NO_WORKERS_TIMEOUT,
        session_timeout: float = SESSION_TIMEOUT,
    ) -> None:
        self.token = token
        self.host = host
        self.port = port
        self.front = front
        """The web service clients reach this supervisor through (none: RPC only)."""
        self.web_base_path = "/" if front is None else front.base_path
        """The URL path the web service is served under, starting and ending with '/'."""
        self.advertise_address = advertise_address
        self.worker_timeout = worker_timeout
        self.supervisors = list(supervisors)
        self.ping_interval = ping_interval
        self.takeover_after = takeover_after
        self.no_workers_timeout = no_workers_timeout
        """Seconds jobs wait for a worker while the cluster has none, before they fail."""
        self.session_timeout = session_timeout
        """Seconds a session lives without a request or keep-alive from its client."""
        self.address = ""
        self.web_address = ""
        """Where clients reach the web API: the advertised host, or the listening one
        (empty without a front)."""
        self.web_listen_address = ""
        self.started = time.time()
        self.active = False
        """Whether this supervisor accepts sessions and schedules; see ``election.py``."""
        self.epoch = ""
        """Changes each time this supervisor becomes active (empty while it never was)."""
        self.election: Election | None = None
        self.runtime: ClusterRuntime
        self.sessions: SessionRegistry
        self._instance = uuid.uuid4().hex[:8]
        self._terms = 0
        self._taking_over = False
        self._rpc = RPCServer(
            {
                "register_worker": self.register_worker,
                "unregister_worker": self.unregister_worker,
                "heartbeat": self.heartbeat,
                "ping": self.ping,
            },
            token,
        )
        self._peers: dict[str, RPCClient] = {}
        self._background: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        self.runtime = ClusterRuntime(
            asyncio.get_running_loop(), no_workers_timeout=self.no_workers_timeout
        )
        self.sessions = SessionRegistry(self.runtime, session_timeout=self.session_timeout)
        bound = await self._rpc.start(self.host, self.port)
        port = bound.rsplit(":", 1)[1]
        self.address = f"{self.advertise_address}:{port}" if self.advertise_address else bound
        if self.front is not None:
            self.web_listen_address = self.front.start(self)
            web_host, web_port = self.web_listen_address.rsplit(":", 1)
            self.web_address = f"{self.advertise_address or web_host}:{web_port}"
        self._background.append(asyncio.ensure_future(self._watch_workers()))
        self._background.append(asyncio.ensure_future(self._expire_sessions()))
        self.election = self._make_election(bound)
        if self.election.should_be_active(time.monotonic()):
            await self._set_active(True)
        if self.election.peers:
            monitor = ElectionMonitor(
                self.election,
                self._ping_peer,
                lambda: self.active or self._taking_over,
                self._set_active,
                self.ping_interval,
            )
            self._background.append(asyncio.ensure_future(monitor.run()))

    def _make_election(self, bound: str) -> Election:
        """This supervisor's place in the ``-s`` list (appended when it is not in it)."""
        port = bound.rsplit(":", 1)[1]
        own = {self.address, bound}
        if bound.rsplit(":", 1)[0] in WILDCARD_HOSTS | {"127.0.0.1"}:
            own |= {f"127.0.0.1:{port}", f"localhost:{port}"}
        supervisors = list(self.supervisors)
        rank = rank_of(supervisors, own, port)
        if rank is None:
            if supervisors:
                logger.warning(
                    "%s is not in the supervisor list %s: it stands by while any of them lives",
                    self.address,
                    ",".join(supervisors),
                )
            supervisors.append(self.address)
            rank = len(supervisors) - 1
        return Election(supervisors, rank, now=time.monotonic(), takeover_after=self.takeover_after)

    async def stop(self) -> None:
        for task in self._background:
            task.cancel()
        self.sessions.shutdown()
        self.runtime.close()
        if self.front is not None:
            self.front.stop()
        for worker in list(self.runtime.workers.values()):
            await worker.client.close()
        for client in self._peers.values():
            await client.close()
        await self._rpc.stop()

    # ---- election -----------------------------------------------------------------------

    async def ping(self) -> dict[str, Any]:
        # one taking over says so already, so that a peer starting meanwhile stands by
        active = self.active or self._taking_over
        return {"address": self.address, "web": self.web_address, "active": active}

    async def _ping_peer(self, address: str) -> dict[str, Any]:
        client = self._peers.get(address)
        if client is None:
            timeout = self.ping_interval * 2
            client = RPCClient(address, self.token, timeout=timeout, connect_timeout=timeout)
            self._peers[address] = client
        reply: dict[str, Any] = await client.call("ping")
        return reply

    async def _set_active(self, active: bool) -> None:
        if active:
            await self._take_over()
        else:
            self._stand_by()

    async def _take_over(self) -> None:
        """Reset every worker, then accept sessions: the workers' chunks are unknown here.

        Workers that register meanwhile are reset by ``register_worker``.
        """
        self._taking_over = True
        try:
            workers = list(self.runtime.workers.values())
            if self._terms:
                logger.warning("supervisor %s takes over", self.address)
            elif self.election is not None and self.election.rank > 0:
                logger.warning(
                    "supervisor %s takes over: no supervisor ranked before it answers",
                    self.address,
                )
            await asyncio.gather(*(self._reset(w.address, w.client) for w in workers))
            self._terms += 1
            self.epoch = f"{self._instance}-{self._terms}"
            self.active = True
            logger.info("supervisor %s is active (epoch %s)", self.address, self.epoch)
        finally:
            self._taking_over = False

    def _stand_by(self) -> None:
        """Drop sessions and scheduling state, keep the worker table: another is active."""
        logger.warning(
            "supervisor %s stands by: a supervisor ranked before it is active too", self.address
        )
        self.active = False
        old_runtime, old_sessions = self.runtime, self.sessions
        workers = list(old_runtime.workers.values())
        # detached first, so that nothing of the old term reaches the workers any more
        old_runtime.workers.clear()
        old_sessions.shutdown()
        old_runtime.close()
        self.runtime = ClusterRuntime(
            asyncio.get_running_loop(), no_workers_timeout=self.no_workers_timeout
        )
        self.sessions = SessionRegistry(self.runtime, session_timeout=self.session_timeout)
        for worker in workers:
            self._add_worker(
                worker.address, worker.n_cpu, worker.client, worker.resources, worker.n_gpu
            )

    async def _reset(self, address: str, client: RPCClient) -> None:
        try:
            dropped = await asyncio.wait_for(client.call("reset"), RESET_TIMEOUT)
            logger.info("worker %s reset: %s chunks dropped", address, dropped)
        except Exception as exc:  # noqa: BLE001 - a dead worker misses heartbeats, and goes
            logger.warning("worker %s could not be reset: %s", address, exc)

    # ---- worker RPC ---------------------------------------------------------------------

    async def register_worker(
        self,
        address: str,
        n_cpu: int,
        resources: dict[str, Any],
        instance: str = "",
        n_gpu: int = 0,
    ) -> bool:
        if not isinstance(n_cpu, int) or n_cpu < 1:
            raise ValueError(f"n_cpu must be a positive int, got {n_cpu!r}")
        if isinstance(n_gpu, bool) or not isinstance(n_gpu, int) or n_gpu < 0:
            raise ValueError(f"n_gpu must be an int >= 0 (its CUDA devices), got {n_gpu!r}")
        existing = self.runtime.workers.get(address)
        if existing is not None and self._replaced(existing, instance):
            existing = None
        if existing is None:
            client = RPCClient(address, self.token, timeout=None)
            if self.active or self._taking_over:
                # it may hold chunks of another supervisor (or of this one's past)
                await self._reset(address, client)
            existing = self.runtime.workers.get(address)  # registered again meanwhile?
            if existing is None:
                existing = self._add_worker(address, n_cpu, client, resources, n_gpu)
                logger.info(
                    "worker %s joined with %d slots and %d GPU slots", address, n_cpu, n_gpu
                )
            else:
                await client.close()
        existing.instance = instance
        existing.resources = resources
        existing.last_seen = time.monotonic()
        return True

    def _replaced(self, worker: WorkerConnection, instance: str) -> bool:
        """Whether ``instance`` is another process than the one registered on the same
        address (a worker started after a dead one, on its port): then the dead one is
        given up, and the chunks it held are recomputed."""
        if not instance or not worker.instance or worker.instance == instance:
            return False
        logger.warning("worker %s was restarted: the chunks it held are lost", worker.address)
        self.runtime.remove_worker(worker.address)
        return True

    def _add_worker(
        self,
        address: str,
        n_cpu: int,
        client: RPCClient,
        resources: dict[str, Any],
        n_gpu: int = 0,
    ) -> WorkerConnection:
        worker = self.runtime.add_worker(address, n_cpu, client, n_gpu)
        worker.resources = resources
        worker.last_seen = time.monotonic()
        return worker

    async def unregister_worker(self, address: str) -> bool:
        self.runtime.remove_worker(address)
        return True

    async def heartbeat(self, address: str, resources: dict[str, Any], instance: str = "") -> bool:
        """False tells the worker it is unknown here, so it registers again."""
        worker = self.runtime.workers.get(address)
        if worker is None or self._replaced(worker, instance):
            return False
        worker.resources = resources
        worker.last_seen = time.monotonic()
        return True

    async def _watch_workers(self) -> None:
        while True:
            await asyncio.sleep(self.worker_timeout / 4)
            now = time.monotonic()
            for address, worker in list(self.runtime.workers.items()):
                if now - worker.last_seen > self.worker_timeout:
                    logger.warning("worker %s missed its heartbeats", address)
                    self.runtime.remove_worker(address)

    async def _expire_sessions(self) -> None:
        """Close sessions whose clients went silent (``sessions.py``: leases)."""
        while True:
            await asyncio.sleep(min(self.session_timeout / 4, 5.0))
            self.sessions.expire()

    # ---- models -------------------------------------------------------------------------

    def supervisors_model(self) -> list[dict[str, Any]]:
        """Every supervisor of the list, as seen from here."""
        election = self.election
        if election is None:
            return [{"address": self.address, "web": self.web_address, "active": self.active}]
        now = time.monotonic()
        out = []
        for index, address in enumerate(election.supervisors):
            if index == election.rank:
                out.append({"address": address, "web": self.web_address, "active": self.active})
                continue
            peer = election.peers[address]
            alive = peer.last_answer is not None and election.alive(peer, now)
            out.append({"address": address, "web": peer.web, "active": peer.active and alive})
        return out

    def cluster_model(self) -> dict[str, Any]:
        workers = [worker_summary(w) for w in self.runtime.workers.values()]
        shares = memory_shares(workers)
        for worker in workers:
            worker["memory_share"] = shares[worker["address"]]
        totals = cluster_totals(workers)
        return {
            "active": self.active,
            "epoch": self.epoch,
            "address": self.address,
            "web": self.web_address,
            "web_base_path": self.web_base_path,
            "supervisors": self.supervisors_model(),
            "workers": workers,
            "n_cpu": totals["n_cpu"],
            "totals": totals,
            "tasks": self.tasks_model(),
            "sessions": len(self.sessions.sessions),
            "session_timeout": self.session_timeout,
            "uptime": round(time.time() - self.started, 3),
        }

    def tasks_model(self) -> dict[str, int]:
        """What an adaptive launcher weighs (``launcher/adaptive.py``): tasks waiting for a
        free slot, tasks in the workers' slots, and the slots."""
        core = self.runtime.core
        return {"ready": core.n_ready, "running": core.n_running, "slots": core.n_slots}

    def active_web_address(self) -> str:
        """The web address of the supervisor believed active ('' when none is known)."""
        for entry in self.supervisors_model():
            if entry["active"] and entry["web"]:
                return str(entry["web"])
        return ""
