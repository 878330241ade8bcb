"""The supervisor process: worker registry, sessions, the scheduler core and the web API.

Workers register over RPC on ``-p`` and send heartbeats; a worker silent for
``worker_timeout`` seconds is removed (its running tasks are retried on others). Clients
use the HTTP API on ``-w``. Executions are planned and tiled here by engine sessions over
one ``ClusterRuntime``, which alone drives the scheduler core, on this process's loop.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import tornado.httpserver

from jupyter_mars.engine.cluster.rpc import RPCClient, RPCServer
from jupyter_mars.engine.cluster.runtime import ClusterRuntime
from jupyter_mars.engine.cluster.sessions import SessionRegistry
from jupyter_mars.engine.cluster.web import MAX_GRAPH_BYTES, make_app

logger = logging.getLogger(__name__)


class SupervisorServer:
    def __init__(
        self,
        *,
        token: str,
        host: str = "127.0.0.1",
        port: int = 0,
        web_host: str | None = None,
        web_port: int = 0,
        advertise_address: str | None = None,
        worker_timeout: float = 10.0,
    ) -> None:
        self.token = token
        self.host = host
        self.port = port
        self.web_host = web_host or host
        self.web_port = web_port
        self.advertise_address = advertise_address
        self.worker_timeout = worker_timeout
        self.address = ""
        self.web_address = ""
        self.started = time.time()
        self.runtime: ClusterRuntime
        self.sessions: SessionRegistry
        self._rpc = RPCServer(
            {
                "register_worker": self.register_worker,
                "unregister_worker": self.unregister_worker,
                "heartbeat": self.heartbeat,
            },
            token,
        )
        self._http: tornado.httpserver.HTTPServer | None = None
        self._monitor: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.runtime = ClusterRuntime(asyncio.get_running_loop())
        self.sessions = SessionRegistry(self.runtime)
        bound = await self._rpc.start(self.host, self.port)
        port = bound.rsplit(":", 1)[1]
        self.address = f"{self.advertise_address}:{port}" if self.advertise_address else bound
        self._http = tornado.httpserver.HTTPServer(
            make_app(self), max_body_size=MAX_GRAPH_BYTES, max_buffer_size=MAX_GRAPH_BYTES
        )
        sockets = tornado.netutil.bind_sockets(self.web_port, self.web_host)
        self._http.add_sockets(sockets)
        web_port = sockets[0].getsockname()[1]
        self.web_address = f"{self.web_host}:{web_port}"
        self._monitor = asyncio.ensure_future(self._watch_workers())

    async def stop(self) -> None:
        if self._monitor is not None:
            self._monitor.cancel()
        self.sessions.shutdown()
        self.runtime.close()
        if self._http is not None:
            self._http.stop()
        for worker in list(self.runtime.workers.values()):
            await worker.client.close()
        await self._rpc.stop()

    # ---- worker RPC ---------------------------------------------------------------------

    async def register_worker(self, address: str, n_cpu: int, resources: dict[str, Any]) -> bool:
        if not isinstance(n_cpu, int) or n_cpu < 1:
            raise ValueError(f"n_cpu must be a positive int, got {n_cpu!r}")
        existing = self.runtime.workers.get(address)
        if existing is None:
            client = RPCClient(address, self.token, timeout=None)
            existing = self.runtime.add_worker(address, n_cpu, client)
            logger.info("worker %s joined with %d slots", address, n_cpu)
        existing.resources = resources
        existing.last_seen = time.monotonic()
        return True

    async def unregister_worker(self, address: str) -> bool:
        self.runtime.remove_worker(address)
        return True

    async def heartbeat(self, address: str, resources: dict[str, Any]) -> bool:
        """False tells the worker it is unknown here, so it registers again."""
        worker = self.runtime.workers.get(address)
        if worker is None:
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

    # ---- models -------------------------------------------------------------------------

    def cluster_model(self) -> dict[str, Any]:
        workers = [
            {
                "address": w.address,
                "n_cpu": w.n_slots,
                "running": w.running,
                "resources": w.resources,
            }
            for w in self.runtime.workers.values()
        ]
        return {
            "supervisors": [{"address": self.address, "web": self.web_address, "active": True}],
            "workers": workers,
            "n_cpu": sum(w.n_slots for w in self.runtime.workers.values()),
            "sessions": len(self.sessions.sessions),
            "uptime": round(time.time() - self.started, 3),
        }
