"""A worker process: runs chunk tasks in ``n_cpu`` slots and serves its chunks to peers.

Tasks arrive as ``execute`` RPCs from the active supervisor. Inputs held here are read
from the chunk store (pinned so they are not spilled mid-task); others are fetched from
the peers that hold them, ``n_io_process`` connections per peer. The task runs on one of
``n_cpu`` threads through the ``TaskRunner`` the embedded runtime uses too
(``engine/executors/runner.py``), with BLAS/OpenMP pools limited to one thread each, so
the process keeps at most ``n_cpu`` cores busy. The result stays in the store, which spills
to disk beyond its cache size. A ``cancel`` from the supervisor stops the given tasks: one
waiting for inputs or a slot never runs, one computing is interrupted, and no result of
theirs is kept.

The worker registers with every supervisor it is given and sends heartbeats with true
resource figures (CPU, memory, store, bytes moved to and from peers, GPUs); while no
supervisor answers it retries with backoff and says so. For the dashboard's worker page it
answers ``state`` (the tasks running now, the last lines of its log, transfer and GPU
figures) and ``stack`` (every thread's stack).
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
import uuid
from collections.abc import AsyncIterator, Iterator, Sequence
from concurrent.futures import CancelledError, ThreadPoolExecutor
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Any

from jupyter_mars.engine.cluster.host_identity import host_figures
from jupyter_mars.engine.cluster.log_tail import LogTail
from jupyter_mars.engine.cluster.losses import InputLost
from jupyter_mars.engine.cluster.memory_monitor import MemoryMonitor
from jupyter_mars.engine.cluster.resources import GpuMeter, ResourceMeter, TransferMeter
from jupyter_mars.engine.cluster.rpc import RPCClient, RPCServer, as_exception
from jupyter_mars.engine.cluster.stacks import SLOT_THREAD_PREFIX, thread_stacks
from jupyter_mars.engine.cluster.storage import ChunkStore, sizeof
from jupyter_mars.engine.cluster.storage.admission import physical_memory, process_rss
from jupyter_mars.engine.cluster.storage.limits import MemoryLimits, mib
from jupyter_mars.engine.cluster.storage.replicas import ReplicaCache
from jupyter_mars.engine.executors.runner import TaskRun, TaskRunner
from jupyter_mars.engine.graph import Key, Task
from jupyter_mars.engine.node import op_name_of

logger = logging.getLogger(__name__)

REPLICA_SHARE = 0.25
"""Share of ``--cache-mem`` that copies of peers' chunks may take at most, and only while
the chunk store leaves that much of it free."""

HOPELESS_WAIT = 2.0
"""Seconds a task waits for memory when nothing here can free any, for releases in
flight, before it fails."""

LOG_TAIL_LINES = 200
"""Lines of its log a worker keeps for its dashboard page (records at INFO and above)."""


@dataclass(eq=False)
class _Execution:
    """One ``execute`` call under way: what ``cancel`` stops."""

    keys: list[Key]
    """The task's key, and its follower's once that runs."""
    body: asyncio.Future[Any] | None = None
    cancelled: bool = False


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
        self.heartbeat_interval = heartbeat_interval
        self.admission_timeout = 60.0
        self._in_pool = 0
        self.runner = TaskRunner(n_slots=n_cpu, n_cpu=n_cpu)
        self._executions: dict[Key, list[_Execution]] = {}
        """Task key -> the ``execute`` calls running it here now."""
        self._rss = 0
        self._rss_sampled = 0.0
        self._reserved = 0
        """Bytes reserved by the tasks admitted and not ended (``_admitted``)."""
        self._n_admitted = 0
        self._epoch = 0
        self.instance = uuid.uuid4().hex
        """Tells this process from an earlier worker that listened on the same address."""
        """Bumped by ``reset``: results of tasks started before it are not kept."""
        memory = physical_memory() if phy_mem_bytes is None else phy_mem_bytes
        self.limits = MemoryLimits.of(memory, memory_soft_limit, memory_hard_limit)
        self.store = ChunkStore(cache_bytes, spill_dirs, memory, self.limits.soft)
        self._memory = MemoryMonitor(self.limits, self.store)
        """Spills above the soft limit, stops the growing task past the hard one."""
        self.phy_mem_given = phy_mem_bytes is not None if phy_mem_given is None else phy_mem_given
        """Whether the memory limit was asked for (``--phy-mem``) rather than the machine's
        default: without it, the supervisor shows this worker's share of its machine."""
        self._host = host_figures()
        self._replica_cap = int(cache_bytes * REPLICA_SHARE)
        self.replicas = ReplicaCache(self._replica_cap)
        """Copies of peers' chunks read by tasks here, for the next task that reads them."""
        self._fetching: dict[Key, asyncio.Future[Any]] = {}
        """Keys being fetched from peers right now, for other tasks that need them too."""
        self.address = ""
        self.running = 0
        self._running_since: list[tuple[Key, float]] = []
        """(key, ``time.time()`` it arrived) of each task here, followers included."""
        self._computing: dict[Key, float] = {}
        """Key -> ``time.time()`` its kernel started on a slot (the others of
        ``_running_since`` wait for inputs, memory or a free slot)."""
        self._pool = ThreadPoolExecutor(max_workers=n_cpu, thread_name_prefix=SLOT_THREAD_PREFIX)
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
        self._transfer = TransferMeter()
        self._gpus = GpuMeter(self.cuda_devices)
        self._log_tail = LogTail(LOG_TAIL_LINES, level=logging.INFO)
        self._tasks: list[asyncio.Task[Any]] = []

    async def start(self) -> str:
        logging.getLogger().addHandler(self._log_tail)
        if self.cuda_devices is not None:
            # GPU libraries read this when they first load: only the devices given are seen
            os.environ["CUDA_VISIBLE_DEVICES"] = ",".join(map(str, self.cuda_devices))
        # a dedicated process: the limit holds for its whole life
        self.runner.hold_blas_limit()
        bound = await self._server.start(self.host, self.port)
        port = bound.rsplit(":", 1)[1]
        self.address = f"{self.advertise_address}:{port}" if self.advertise_address else bound
        self._memory.where = self.address
        self._memory.start()
        await self._register_everywhere()
        self._tasks.append(asyncio.ensure_future(self._heartbeats()))
        return self.address

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for address, client in self._supervisor_clients.items():
            try:
                await asyncio.wait_for(client.call("unregister_worker", address=self.address), 2)
            except (ConnectionError, TimeoutError, asyncio.TimeoutError):
                logger.info("supervisor %s did not acknowledge the stop", address)
            await client.close()
        for client in self._peers.values():
            await client.close()
        await self._server.stop()
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._memory.stop()
        self.store.close()
        logging.getLogger().removeHandler(self._log_tail)
        self.runner.drop_blas_limit()  # for a worker run inside another process, in tests

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
            resources=await self._resource_figures(),
        )

    async def _resource_figures(self) -> dict[str, Any]:
        """This worker's resource figures, as registrations and heartbeats carry them."""
        return {
            **self._meter.sample(),
            "store": self.store.info(),
            "memory_limits": self._memory.figures(),
            "replicas": self._replica_info(),
            "running": self.running,
            "transfer": self._transfer.sample(),
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
    ) -> Any:
        """Run ``task`` and keep its result under ``key``.

        ``then`` is a follower: a task that reads only this one's result, run right after
        it in the same slot, so that it costs the supervisor no round trip of its own. Its
        result is kept too and reported under ``"then"``; if it fails, ``"then"`` is None
        and the supervisor runs it the usual way, where its error is reported.

        Raises ``CancelledError`` when ``cancel`` stopped it.
        """
        execution = _Execution([key])
        # a task of its own, so that cancel stops this call and not the RPC server's reply
        body = execution.body = asyncio.ensure_future(
            self._execute(execution, key, task, locations, then)
        )
        self._executions.setdefault(key, []).append(execution)
        try:
            return await asyncio.shield(body)
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if not execution.cancelled or (current is not None and current.cancelling()):
                body.cancel()
                raise  # the server stops
            raise CancelledError(f"task {key!r} was cancelled") from None
        finally:
            executions = self._executions[key]
            executions.remove(execution)
            if not executions:
                del self._executions[key]

    async def cancel(self, keys: list[Key]) -> int:
        """Stop the tasks ``keys`` running here: nobody needs them any more. One waiting
        for its inputs, memory or a slot never runs; one computing is interrupted (Python
        code at once, code in C when its current call returns); a result of theirs kept
        just before is dropped. Returns how many ``execute`` calls were stopped."""
        if not isinstance(keys, list | tuple):
            raise TypeError(f"keys must be a list of chunk keys, not {type(keys).__name__}")
        stopped = 0
        for key in keys:
            for execution in self._executions.get(key, ()):
                if execution.cancelled:
                    continue
                execution.cancelled = True
                stopped += 1
                for k in execution.keys:
                    self.runner.interrupt(k)
                    self.store.delete(k)
                if execution.body is not None:
                    execution.body.cancel()
            # its call ended before the cancel came: the result is nobody's
            self.store.delete(key)
        return stopped

    async def _execute(
        self,
        execution: _Execution,
        key: Key,
        task: Task,
        locations: dict[Key, str | None],
        then: tuple[Key, Task] | None,
    ) -> Any:
        epoch = self._epoch
        pinned: list[Key] = []
        copied: list[Key] = []
        self.running += 1
        try:
            with self._running_task(key):
                # admitted before its inputs are read: a task waiting for memory holds none
                async with self._admitted(self._input_bytes(task)):
                    data, copied = await self._gather_inputs(task, locations, pinned)
                    value, seconds = await self._run(task, data)
                    del data
                    await self._keep(epoch, key, value)
            reply = _result_figures(value, seconds)
            if then is not None:
                execution.keys.append(then[0])
                reply["then"] = await self._run_follower(epoch, key, value, *then)
        except asyncio.CancelledError:
            # copies the supervisor will not hear of, so would never ask to delete
            for dep in copied:
                self.replicas.discard(dep)
            raise
        finally:
            self.running -= 1
            for dep in pinned:
                self.store.unpin(dep)
        reply["replicas"] = copied
        return reply

    @contextmanager
    def _running_task(self, key: Key) -> Iterator[None]:
        """Lists ``key`` among the tasks running here while the block runs."""
        entry = (key, time.time())
        self._running_since.append(entry)
        try:
            yield
        finally:
            self._running_since.remove(entry)

    async def _run(self, task: Task, data: dict[Key, Any]) -> tuple[Any, dict[str, float]]:
        """The task's result, and the seconds it and each task nested in it took, by
        operator step (``TaskTimes``)."""
        run = self.runner.begin(task.key)
        try:
            if self._in_pool == 0 and self.runner.tiny:
                # tiny tasks run on this thread: a hop to a slot thread and back costs more
                # than they do. Only while no slot thread computes, so that the busy cores
                # stay within --n-cpu.
                return self._compute(run, task, data)
            self._in_pool += 1
            try:
                loop = asyncio.get_running_loop()
                watched = self._memory.run_watched  # stopped past the hard memory limit
                return await loop.run_in_executor(
                    self._pool, watched, task.key, self._compute, run, task, data
                )
            finally:
                self._in_pool -= 1
        except (SystemExit, KeyboardInterrupt) as exc:
            # a chunk function's sys.exit() fails its task, never the worker's loop (an
            # asyncio task would hand these on to it)
            raise as_exception(exc) from None
        finally:
            self.runner.end(run)

    async def _keep(self, epoch: int, key: Key, value: Any) -> None:
        if epoch != self._epoch:
            return  # a reset came while it ran; the supervisor that asked for it is gone
        self._fit_replicas(incoming=sizeof(value))
        if self.store.has_room(sizeof(value)):
            self.store.put(key, value)
        else:  # storing spills to disk: off the event loop
            await asyncio.get_running_loop().run_in_executor(None, self.store.put, key, value)

    def _fit_replicas(self, incoming: int = 0) -> None:
        """Copies of peers' chunks take only the room the store leaves in the cache (and
        ``incoming`` bytes about to be stored): chunks come first."""
        room = max(0, self.store.free_bytes() - incoming)
        self.replicas.max_bytes = min(self._replica_cap, room)
        self.replicas.shrink(self.replicas.max_bytes)

    async def _run_follower(
        self, epoch: int, input_key: Key, input_value: Any, key: Key, task: Task
    ) -> dict[str, Any] | None:
        try:
            with self._running_task(key):
                value, seconds = await self._run(task, {input_key: input_value})
        except Exception:  # noqa: BLE001 - run again by the supervisor, which reports it
            logger.debug("follower %r of %r failed here", key, input_key, exc_info=True)
            return None
        await self._keep(epoch, key, value)
        return _result_figures(value, seconds)

    def _compute(
        self, run: TaskRun, task: Task, data: dict[Key, Any]
    ) -> tuple[Any, dict[str, float]]:
        self._computing[task.key] = time.time()
        try:
            value, times = self.runner.run(run, task, data)
        finally:
            self._computing.pop(task.key, None)
        return value, times.seconds

    async def _gather_inputs(
        self, task: Task, locations: dict[Key, str | None], pinned: list[Key]
    ) -> tuple[dict[Key, Any], list[Key]]:
        """The task's inputs, and the keys of those newly copied from peers."""
        data: dict[Key, Any] = {}
        remote: dict[str, list[Key]] = {}
        fetched_elsewhere: list[tuple[Key, asyncio.Future[Any]]] = []
        loop = asyncio.get_running_loop()
        for dep in task.dependencies:
            if dep in self.store:
                self.store.pin(dep)
                pinned.append(dep)
                found, value = self.store.peek(dep)
                # a spilled input is read back from disk: off the event loop
                data[dep] = (
                    value if found else await loop.run_in_executor(None, self.store.get, dep)
                )
            elif dep in self.replicas:
                data[dep] = self.replicas.get(dep)
            elif dep in self._fetching:  # another task here is fetching it right now
                fetched_elsewhere.append((dep, self._fetching[dep]))
            else:
                where = locations.get(dep)
                if where is None or where == self.address:
                    # a connection-type error: the supervisor retries once the chunk is back
                    raise InputLost(f"input chunk {dep!r} is not held by any worker")
                remote.setdefault(where, []).append(dep)
        copied = await self._fetch_remote(remote, data) if remote else []
        for dep, future in fetched_elsewhere:
            data[dep] = await future
        return data, copied

    async def _fetch_remote(self, remote: dict[str, list[Key]], data: dict[Key, Any]) -> list[Key]:
        """Fetch ``remote`` (peer -> keys) into ``data``, keeping copies for later tasks."""
        loop = asyncio.get_running_loop()
        futures = {k: loop.create_future() for keys in remote.values() for k in keys}
        self._fetching.update(futures)
        try:
            parts = await asyncio.gather(
                *(self._get_data(addr, keys) for addr, keys in remote.items())
            )
        except BaseException as exc:
            for future in futures.values():
                future.set_exception(exc)
                future.exception()  # whoever waits on it is told; nobody else needs to be
            raise
        finally:
            for key in futures:
                del self._fetching[key]
        copied = []
        for part in parts:
            for key, value in part.items():
                self._transfer.received(sizeof(value))
                data[key] = value
                futures[key].set_result(value)
                self._fit_replicas()
                self.replicas.put(key, value)
                if key in self.replicas:
                    copied.append(key)
        return copied

    async def _get_data(self, address: str, keys: list[Key]) -> dict[Key, Any]:
        try:
            part: dict[Key, Any] = await self._peer(address).call("get_data", keys=keys)
        except KeyError as exc:
            # the peer lost them (or is another process on a dead peer's address): a lost
            # input, which the supervisor recomputes, not an error of the task
            raise InputLost(f"peer {address} does not hold inputs {keys!r}: {exc}") from None
        return part

    def _input_bytes(self, task: Task) -> int:
        """The bytes of the task's inputs known here (those held by peers are counted in
        the process's memory once fetched)."""
        total = 0
        for dep in task.dependencies:
            if dep in self.replicas:
                total += sizeof(self.replicas.get(dep))
            else:
                try:
                    total += self.store.nbytes(dep)
                except KeyError:
                    pass
        return total

    @asynccontextmanager
    async def _admitted(self, input_bytes: int) -> AsyncIterator[None]:
        """Runs the block once the task is admitted (``_admit``), with ``input_bytes``
        reserved for it until the block ends: tasks admitted together must all fit, not
        each one alone in memory their neighbours are about to take."""
        await self._admit(input_bytes)
        self._reserved += input_bytes
        self._n_admitted += 1
        try:
            yield
        finally:
            self._reserved -= input_bytes
            self._n_admitted -= 1

    async def _admit(self, input_bytes: int) -> None:
        """Wait until a result about the size of the inputs, and the reservations of the
        tasks admitted before, fit within the soft limit.

        Memory frees as other tasks finish, the monitor spills and the supervisor releases
        chunks; a task that cannot be admitted within ``admission_timeout``, or within
        ``HOPELESS_WAIT`` when no other task here could free memory, fails with a logged
        MemoryError, which the supervisor retries elsewhere.
        """
        now = time.monotonic()
        if now - self._rss_sampled > 0.1:
            self._rss, self._rss_sampled = process_rss(), now
        needed = input_bytes + self._reserved
        if self._rss + needed <= self.limits.soft // 2:
            return  # far from the limit: no need for the exact check
        waited = 0.0
        while not self.store.can_admit(input_bytes + self._reserved):
            hopeless = self._n_admitted == 0
            if waited >= (HOPELESS_WAIT if hopeless else self.admission_timeout):
                error = MemoryError(
                    f"worker {self.address}: no room for a task reading {input_bytes} bytes: "
                    f"its memory ({mib(process_rss())}) is above the soft limit of "
                    f"{self.limits.describe_soft()}"
                    + (" and no other task here could free any" if hopeless else "")
                )
                logger.error("%s", error)
                raise error
            await asyncio.sleep(0.05)
            waited += 0.05

    def _peer(self, address: str) -> RPCClient:
        client = self._peers.get(address)
        if client is None:
            client = self._peers[address] = RPCClient(
                address, self.token, n_channels=self.n_io_process
            )
        return client

    async def get_data(self, keys: list[Key]) -> dict[Key, Any]:
        missing = [k for k in keys if k not in self.store]
        if missing:
            raise KeyError(f"chunks not held by worker {self.address}: {missing!r}")
        loop = asyncio.get_running_loop()
        data = {}
        for key in keys:
            found, value = self.store.peek(key)
            # a spilled chunk is read back from disk: off the event loop
            data[key] = value if found else await loop.run_in_executor(None, self.store.get, key)
        self._transfer.sent(sum(sizeof(value) for value in data.values()))
        return data

    async def delete_data(self, keys: list[Key]) -> None:
        for key in keys:
            self.store.delete(key)
            self.replicas.discard(key)

    async def reset(self) -> int:
        """Drop every chunk: a supervisor that took over knows none of them."""
        self._epoch += 1
        keys = self.store.keys()
        for key in keys:
            self.store.delete(key)
        self.replicas.clear()
        return len(keys)

    async def info(self) -> dict[str, Any]:
        return {
            "address": self.address,
            "n_cpu": self.n_cpu,
            "cuda_devices": self.cuda_devices,
            "running": self.running,
            "store": self.store.info(),
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
            "running_tasks": running_tasks(self._running_since, self._computing, time.time()),
            "log": self._log_tail.lines(min(max(log_lines, 0), LOG_TAIL_LINES)),
            # the heartbeat's rate window is left as it is
            "transfer": self._transfer.sample(advance=False),
            "gpus": await self._gpu_figures(),
            "host": self._host,
            "memory_limit_given": self.phy_mem_given,
        }

    async def stack(self) -> dict[str, Any]:
        """Every thread's stack, task slots first."""
        return {"address": self.address, "threads": thread_stacks()}

    async def _gpu_figures(self) -> list[dict[str, Any]]:
        if self.cuda_devices is None:
            return []
        # reading them may run nvidia-smi: off the event loop
        return await asyncio.get_running_loop().run_in_executor(None, self._gpus.sample)

    def _replica_info(self) -> dict[str, int]:
        return {"count": len(self.replicas), "bytes": self.replicas.nbytes}


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


def _result_figures(value: Any, seconds: dict[str, float]) -> dict[str, Any]:
    """What the supervisor records of a result: its size and shape, and the seconds the
    task took per operator step."""
    return {"nbytes": sizeof(value), "shape": getattr(value, "shape", None), "seconds": seconds}
