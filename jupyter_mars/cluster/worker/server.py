"""A worker process: runs chunk tasks in ``n_cpu`` slots and serves its chunks to peers.

The IO shell around the worker core (``engine/worker/``, a pure state machine): RPCs and
the completions of its work become events, and it carries out the core's instructions
(the tasks' side of it is ``tasks.py``).
Tasks arrive as ``execute`` RPCs from the active supervisor (``TaskAssigned``, numbered by
an attempt). Inputs held here are pinned in the chunk store (not spilled mid-task); the
core has the others fetched once from the peers that hold them (``Fetch``, over
``n_io_process`` connections per peer), and gives the task a slot when all are here
(``Run``). The task runs on one of ``n_cpu`` threads through the ``TaskRunner`` the
embedded runtime uses too (``engine/executors/runner.py``), with BLAS/OpenMP pools limited
to one thread each, so the process keeps at most ``n_cpu`` cores busy; before it computes,
it waits for room under ``--phy-mem``. The result stays in the store (``Store``), which
spills to disk beyond its cache size, and the call is answered (``Reply``). A ``cancel``
from the supervisor stops the given tasks: one waiting for inputs or a slot never runs,
one computing is interrupted (``Interrupt``), and no result of theirs is kept.

With ``--cuda-devices`` (by default every device CuPy sees, where a GPU can be used) each
device gets a GPU slot beside the CPU ones, and the supervisor places GPU tasks only on
workers that have one; GPU results stay on their device in ``device_store``, up to
``--gpu-mem`` a device (by default 90 % of its memory), beyond which the least recently
used move to the chunk store (``tasks.py``). Peers and clients always get host copies.

The worker registers with every supervisor it is given and sends heartbeats with true
resource figures (CPU, memory, store, bytes moved to and from peers, GPUs); while no
supervisor answers it retries with backoff and says so. For the dashboard's worker page it
answers ``state`` (the tasks running now, the last lines of its log, transfer and GPU
figures) and ``stack`` (every thread's stack).
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Sequence
from typing import Any

from jupyter_mars.cluster.wire.rpc import RPCClient, RPCServer
from jupyter_mars.cluster.worker.host_identity import host_figures
from jupyter_mars.cluster.worker.log_tail import LogTail
from jupyter_mars.cluster.worker.replicas import ReplicaCache
from jupyter_mars.cluster.worker.resources import GpuMeter, ResourceMeter, TransferMeter
from jupyter_mars.cluster.worker.stacks import thread_stacks
from jupyter_mars.cluster.worker.tasks import WorkerTasks
from jupyter_mars.engine.devices import cupy_module, device_count
from jupyter_mars.engine.executors.gpu_slots import host_copy
from jupyter_mars.engine.graph import Key, Task
from jupyter_mars.engine.node import op_name_of
from jupyter_mars.engine.storage import ChunkStore, sizeof
from jupyter_mars.engine.storage.admission import physical_memory
from jupyter_mars.engine.storage.device import DeviceStore
from jupyter_mars.engine.worker.events import (
    ResetRequested,
)
from jupyter_mars.engine.worker.limits import MemoryLimits

logger = logging.getLogger(__name__)

REPLICA_SHARE = 0.25
"""Share of ``--cache-mem`` that copies of peers' chunks may take at most, and only while
the chunk store leaves that much of it free."""

LOG_TAIL_LINES = 200
"""Lines of its log a worker keeps for its dashboard page (records at INFO and above)."""


class WorkerServer:
    def __init__(
        self,
        *,
        supervisors: Sequence[str],
        token: str,
        host: str = "127.0.0.1",
        port: int = 0,
        advertise_address: str | None = None,
        n_cpu: int = 1,
        n_io_process: int = 1,
        cuda_devices: Sequence[int] | None = None,
        gpu_mem: int | float | None = None,
        cache_bytes: int = 1 << 30,
        phy_mem_bytes: int | None = None,
        phy_mem_given: bool | None = None,
        spill_dirs: Sequence[str] = (),
        memory_soft_limit: int | None = None,
        memory_hard_limit: int | None = None,
        heartbeat_interval: float = 1.0,
    ) -> None:
        self.supervisors = list(supervisors)
        self.token = token
        self.host = host
        self.port = port
        self.advertise_address = advertise_address
        self.n_cpu = n_cpu
        self.n_io_process = n_io_process
        self.cuda_devices = None if cuda_devices is None else list(cuda_devices)
        self.gpu_devices = (
            list(range(device_count())) if cuda_devices is None else list(cuda_devices)
        )
        """The devices with a GPU slot: those given, or every one CuPy sees (checked by
        ``mars-worker`` before it starts)."""
        self.device_store = DeviceStore(gpu_store_limit(self.gpu_devices, gpu_mem))
        """Results of GPU tasks, on their devices (``--gpu-mem`` each)."""
        self.heartbeat_interval = heartbeat_interval
        self.instance = uuid.uuid4().hex
        """Tells this process from an earlier worker that listened on the same address."""
        memory = physical_memory() if phy_mem_bytes is None else phy_mem_bytes
        self.limits = MemoryLimits.of(memory, memory_soft_limit, memory_hard_limit)
        self.store = ChunkStore(cache_bytes, spill_dirs, memory, self.limits.soft)
        self.phy_mem_given = phy_mem_bytes is not None if phy_mem_given is None else phy_mem_given
        """Whether the memory limit was asked for (``--phy-mem``) rather than the machine's
        default: without it, the supervisor shows this worker's share of its machine."""
        self._host = host_figures()
        self._replica_cap = int(cache_bytes * REPLICA_SHARE)
        self.replicas = ReplicaCache(self._replica_cap)
        """Copies of peers' chunks read by tasks here, for the next task that reads them."""
        self.address = ""
        self._server = RPCServer(
            {
                "execute": self.execute,
                "cancel": self.cancel,
                "get_data": self.get_data,
                "delete_data": self.delete_data,
                "reset": self.reset,
                "info": self.info,
                "state": self.state,
                "stack": self.stack,
            },
            token,
        )
        self._peers: dict[str, RPCClient] = {}
        self._supervisor_clients: dict[str, RPCClient] = {}
        self._meter = ResourceMeter()
        self.transfer = TransferMeter()
        """Bytes sent to and received from peers, for the heartbeat."""
        self._gpus = GpuMeter(self.cuda_devices)
        self._log_tail = LogTail(LOG_TAIL_LINES, level=logging.INFO)
        self._tasks: list[asyncio.Task[Any]] = []
        self.tasks = WorkerTasks(self, n_cpu, self.gpu_devices)
        """The tasks here and the worker core deciding about them (``tasks.py``)."""

    async def start(self) -> str:
        logging.getLogger().addHandler(self._log_tail)
        # no CUDA_VISIBLE_DEVICES: the devices were checked by their indices on the machine
        # (which starts CUDA, after which the variable is not read), and each GPU slot
        # selects its own device by that index
        # a dedicated process: the limit holds for its whole life
        self.tasks.runner.hold_blas_limit()
        bound = await self._server.start(self.host, self.port)
        port = bound.rsplit(":", 1)[1]
        self.address = f"{self.advertise_address}:{port}" if self.advertise_address else bound
        self.tasks.start()
        await self._register_everywhere()
        self._tasks.append(asyncio.ensure_future(self._heartbeats()))
        return self.address

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        self.tasks.close()
        for address, client in self._supervisor_clients.items():
            try:
                await asyncio.wait_for(client.call("unregister_worker", address=self.address), 2)
            except (ConnectionError, TimeoutError, asyncio.TimeoutError):
                logger.info("supervisor %s did not acknowledge the stop", address)
            await client.close()
        for client in self._peers.values():
            await client.close()
        await self._server.stop()
        self.store.close()
        self.device_store.clear()
        logging.getLogger().removeHandler(self._log_tail)
        self.tasks.runner.drop_blas_limit()  # for a worker run inside another process, in tests

    # ---- supervisors ----------------------------------------------------------------------

    def _supervisor(self, address: str) -> RPCClient:
        client = self._supervisor_clients.get(address)
        if client is None:
            client = self._supervisor_clients[address] = RPCClient(address, self.token, timeout=10)
        return client

    async def _register_everywhere(self) -> None:
        """Register with every supervisor, retrying with backoff until one has answered."""
        delay = 0.1
        attempt = 0
        while True:
            attempt += 1
            registered = 0
            for address in self.supervisors:
                try:
                    await self._register(address)
                    registered += 1
                except (ConnectionError, OSError, TimeoutError, asyncio.TimeoutError) as exc:
                    logger.warning(
                        "supervisor %s not reachable yet (%s); retrying in %.1f s (attempt %d)",
                        address,
                        type(exc).__name__,
                        delay,
                        attempt,
                    )
            if registered:
                return
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)

    async def _register(self, address: str) -> None:
        await self._supervisor(address).call(
            "register_worker",
            address=self.address,
            instance=self.instance,
            n_cpu=self.n_cpu,
            n_gpu=len(self.gpu_devices),
            resources=await self._resource_figures(),
        )

    async def _resource_figures(self) -> dict[str, Any]:
        """This worker's resource figures, as registrations and heartbeats carry them."""
        return {
            **self._meter.sample(),
            "store": self.store.info(),
            "memory_limits": self.tasks.memory_figures(),
            "replicas": self._replica_info(),
            "running": self.tasks.running,
            "transfer": self.transfer.sample(),
            "gpus": await self._gpu_figures(),
            "host": self._host,
            "memory_limit_given": self.phy_mem_given,
        }

    async def _heartbeats(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat_interval)
            figures = await self._resource_figures()
            # in parallel, each bounded: a supervisor whose host is down must not delay the
            # heartbeats of the others past their timeout
            await asyncio.gather(*(self._heartbeat(a, figures) for a in self.supervisors))

    async def _heartbeat(self, address: str, figures: dict[str, Any]) -> None:
        try:
            known = await asyncio.wait_for(
                self._supervisor(address).call(
                    "heartbeat", address=self.address, resources=figures, instance=self.instance
                ),
                max(self.heartbeat_interval, 0.5),
            )
            if not known:
                await self._register(address)
        except (ConnectionError, OSError, TimeoutError, asyncio.TimeoutError):
            logger.debug("heartbeat to %s failed", address)

    # ---- RPC handlers ---------------------------------------------------------------------

    async def execute(
        self,
        key: Key,
        task: Task,
        locations: dict[Key, str | None],
        then: tuple[Key, Task] | None = None,
        unread: bool = False,
    ) -> Any:
        """Run ``task`` and keep its result under ``key`` (``WorkerTasks.execute``)."""
        return await self.tasks.execute(key, task, locations, then, unread)

    async def cancel(self, keys: list[Key]) -> int:
        """Stop the tasks ``keys`` running here (``WorkerTasks.cancel``); how many
        ``execute`` calls were stopped."""
        return await self.tasks.cancel(keys)

    def fit_replicas(self, incoming: int = 0) -> None:
        """Copies of peers' chunks take only the room the store leaves in the cache (and
        ``incoming`` bytes about to be stored): chunks come first."""
        room = max(0, self.store.free_bytes() - incoming)
        self.replicas.max_bytes = min(self._replica_cap, room)
        self.replicas.shrink(self.replicas.max_bytes)

    def peer(self, address: str) -> RPCClient:
        """The connection to the peer worker at ``address``, made on first use."""
        client = self._peers.get(address)
        if client is None:
            client = self._peers[address] = RPCClient(
                address, self.token, n_channels=self.n_io_process
            )
        return client

    async def forget_peer(self, address: str) -> None:
        """Drop the connection to a peer that could not be reached (a later fetch from its
        address connects anew)."""
        client = self._peers.pop(address, None)
        if client is not None:
            await client.close()

    async def get_data(self, keys: list[Key]) -> dict[Key, Any]:
        """The chunks ``keys``; GPU chunks as host copies (``to_cpu()`` on the reader's side
        is not needed: a GPU task there puts them back on its device)."""
        missing = [k for k in keys if k not in self.store and k not in self.device_store]
        if missing:
            raise KeyError(f"chunks not held by worker {self.address}: {missing!r}")
        loop = asyncio.get_running_loop()
        data = {}
        for key in keys:
            if key in self.device_store:
                value = self.device_store.get(key)
                data[key] = await loop.run_in_executor(None, host_copy, value)
                continue
            found, value = self.store.peek(key)
            try:
                if not found:  # a spilled chunk is read back from disk: off the event loop
                    value = await loop.run_in_executor(None, self.store.get, key)
            except KeyError:  # released while an earlier one was read back
                raise KeyError(f"chunks not held by worker {self.address}: {[key]!r}") from None
            data[key] = value
        self.transfer.sent(sum(sizeof(value) for value in data.values()))
        return data

    async def delete_data(self, keys: list[Key]) -> None:
        for key in keys:
            if self.device_store.pop(key) is None:
                self.store.delete(key)
            self.replicas.discard(key)

    async def reset(self) -> int:
        """Drop every chunk: a supervisor that took over knows none of them."""
        self.tasks.handle(ResetRequested("reset"))
        keys = self.store.keys() + self.device_store.keys()
        for key in self.store.keys():
            self.store.delete(key)
        self.device_store.clear()
        self.replicas.clear()
        return len(keys)

    async def info(self) -> dict[str, Any]:
        return {
            "address": self.address,
            "n_cpu": self.n_cpu,
            "cuda_devices": self.cuda_devices,
            "gpu_slots": self.gpu_devices,
            "running": self.tasks.running,
            "store": self.store.info(),
            "device_store": {**self.device_store.info(), "limit": self.device_store.limit},
            "replicas": self._replica_info(),
            # a probe: the heartbeat's CPU window is left as it is
            **self._meter.sample(advance=False),
        }

    async def state(self, log_lines: int = 100) -> dict[str, Any]:
        """What the worker page shows beside the heartbeat figures: the tasks running now
        (longest running first), the last ``log_lines`` lines of the log (at most
        ``LOG_TAIL_LINES``), bytes moved and GPU figures."""
        if isinstance(log_lines, bool) or not isinstance(log_lines, int):
            raise ValueError(f"log_lines must be an int, not {type(log_lines).__name__}")
        return {
            "address": self.address,
            "n_cpu": self.n_cpu,
            "running_tasks": running_tasks(
                self.tasks.running_since, self.tasks.computing, time.time()
            ),
            "log": self._log_tail.lines(min(max(log_lines, 0), LOG_TAIL_LINES)),
            # the heartbeat's rate window is left as it is
            "transfer": self.transfer.sample(advance=False),
            "gpus": await self._gpu_figures(),
            "host": self._host,
            "memory_limit_given": self.phy_mem_given,
        }

    async def stack(self) -> dict[str, Any]:
        """Every thread's stack, task slots first."""
        return {"address": self.address, "threads": thread_stacks()}

    async def _gpu_figures(self) -> list[dict[str, Any]]:
        """Per GPU of ``--cuda-devices`` (every GPU NVML sees without it): index, name,
        use, memory, temperature, power; [] without GPUs."""
        # a driver call can block (a GPU being reset, say): off the event loop
        return await asyncio.get_running_loop().run_in_executor(None, self._gpus.sample)

    def _replica_info(self) -> dict[str, int]:
        return {"count": len(self.replicas), "bytes": self.replicas.nbytes}


GPU_MEM_SHARE = 0.9
"""Share of each device's memory that GPU chunks take by default (``--gpu-mem``)."""


def gpu_store_limit(devices: Sequence[int], gpu_mem: int | float | None) -> int | None:
    """Device bytes the GPU chunks may take on ``devices`` together: ``gpu_mem`` bytes a
    device, or that share of each one's memory (None: ``GPU_MEM_SHARE``); None without a
    device."""
    if not devices:
        return None
    if isinstance(gpu_mem, int):
        return gpu_mem * len(devices)
    share = GPU_MEM_SHARE if gpu_mem is None else gpu_mem
    return sum(int(share * device_memory(device)) for device in devices)


def device_memory(device: int) -> int:
    """Bytes of memory of CUDA device ``device``."""
    properties = cupy_module("--gpu-mem").cuda.runtime.getDeviceProperties(device)
    return int(properties["totalGlobalMem"])


def key_text(key: Key) -> str:
    """A chunk key as the dashboard shows it.

    >>> key_text(("sum-1a457de82-chunk", 0, 3))
    'sum-1a457de82-chunk[0, 3]'
    >>> key_text("x")
    'x'
    """
    if isinstance(key, tuple) and len(key) > 1:
        return f"{key[0]}[{', '.join(map(str, key[1:]))}]"
    if isinstance(key, tuple) and key:
        return str(key[0])
    return str(key)


def running_tasks(
    arrived: list[tuple[Key, float]], computing: dict[Key, float], now: float
) -> list[dict[str, Any]]:
    """``{"key", "op", "state", "since"}`` of each task here: ``running`` on a slot since
    its kernel started, or ``waiting`` (for inputs, memory or a slot) since it arrived;
    the running ones first, longest running first."""
    rows = []
    for key, since in arrived:
        started = computing.get(key)
        state = "waiting" if started is None else "running"
        seconds = round(max(now - (since if started is None else started), 0.0), 3)
        rows.append((state != "running", -seconds, key, state, seconds))
    rows.sort(key=lambda row: row[:2])
    return [
        {"key": key_text(key), "op": op_name_of(key), "state": state, "since": seconds}
        for _, _, key, state, seconds in rows
    ]
