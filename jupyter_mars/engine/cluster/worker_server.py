"""A worker process: runs chunk tasks in ``n_cpu`` slots and serves its chunks to peers.

The IO shell around the worker core (``engine/worker/``, a pure state machine): RPCs and
the completions of its work become events, and it carries out the core's instructions.
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

The worker registers with every supervisor it is given and sends heartbeats with true
resource figures (CPU, memory, store, bytes moved to and from peers, GPUs); while no
supervisor answers it retries with backoff and says so. For the dashboard's worker page it
answers ``state`` (the tasks running now, the last lines of its log, transfer and GPU
figures) and ``stack`` (every thread's stack).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import time
import uuid
from collections.abc import Coroutine, Iterator, Sequence
from concurrent.futures import CancelledError, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from jupyter_mars.engine.cluster.host_identity import host_figures
from jupyter_mars.engine.cluster.log_tail import LogTail
from jupyter_mars.engine.cluster.losses import InputLost
from jupyter_mars.engine.cluster.resources import GpuMeter, ResourceMeter, TransferMeter
from jupyter_mars.engine.cluster.rpc import RPCClient, RPCServer
from jupyter_mars.engine.cluster.stacks import SLOT_THREAD_PREFIX, thread_stacks
from jupyter_mars.engine.cluster.storage import ChunkStore, sizeof
from jupyter_mars.engine.cluster.storage.admission import process_rss
from jupyter_mars.engine.cluster.storage.replicas import ReplicaCache
from jupyter_mars.engine.executors.runner import TaskInterrupted, TaskRun, TaskRunner
from jupyter_mars.engine.graph import Key, Task
from jupyter_mars.engine.node import op_name_of
from jupyter_mars.engine.worker.events import (
    CancelRequested,
    FetchFailed,
    InputsFetched,
    ResetRequested,
    TaskAssigned,
    TaskErred,
    TaskFinished,
    WorkerEvent,
)
from jupyter_mars.engine.worker.instructions import (
    Cancelled,
    Done,
    Failed,
    Fetch,
    Forget,
    InputsLost,
    Instruction,
    Interrupt,
    Outcome,
    Reply,
    Run,
    Store,
)
from jupyter_mars.engine.worker.state import WorkerState

logger = logging.getLogger(__name__)

REPLICA_SHARE = 0.25
"""Share of ``--cache-mem`` that copies of peers' chunks may take at most, and only while
the chunk store leaves that much of it free."""

LOG_TAIL_LINES = 200
"""Lines of its log a worker keeps for its dashboard page (records at INFO and above)."""


@dataclass(eq=False)
class _Call:
    """One ``execute`` call under way: the IO side of its record in the core."""

    key: Key
    attempt: int
    task: Task
    then: tuple[Key, Task] | None
    outcome: asyncio.Future[Outcome]
    """Set by the core's ``Reply``."""
    pinned: list[Key] = field(default_factory=list)
    """Inputs in the chunk store, pinned until the call ends."""
    copies: dict[Key, Any] = field(default_factory=dict)
    """Inputs read from the copies of peers' chunks when it arrived."""
    stores: list[asyncio.Future[None]] = field(default_factory=list)
    """Its results being stored with a spill to disk when it replied."""


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
        self.core = WorkerState(n_cpu)
        """Decides what to fetch, run, store and reply (``engine/worker/``)."""
        self._calls: dict[int, _Call] = {}
        """Attempt -> the ``execute`` call it numbers, while it is under way."""
        self._attempts = itertools.count(1)
        self._storing: dict[Key, asyncio.Future[None]] = {}
        """Results being stored with a spill to disk, off the event loop."""
        self._work: set[asyncio.Future[Any]] = set()
        """Fetches and runs under way."""
        self._rss = 0
        self._rss_sampled = 0.0
        self.instance = uuid.uuid4().hex
        """Tells this process from an earlier worker that listened on the same address."""
        self.store = ChunkStore(cache_bytes, spill_dirs, phy_mem_bytes)
        self.phy_mem_given = phy_mem_bytes is not None if phy_mem_given is None else phy_mem_given
        """Whether the memory limit was asked for (``--phy-mem``) rather than the machine's
        default: without it, the supervisor shows this worker's share of its machine."""
        self._host = host_figures()
        self._replica_cap = int(cache_bytes * REPLICA_SHARE)
        self.replicas = ReplicaCache(self._replica_cap)
        """Copies of peers' chunks read by tasks here, for the next task that reads them."""
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
        await self._register_everywhere()
        self._tasks.append(asyncio.ensure_future(self._heartbeats()))
        return self.address

    async def stop(self) -> None:
        for task in [*self._tasks, *self._work]:
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

        Raises ``CancelledError`` when ``cancel`` stopped it, and ``InputLost`` when an
        input could not be had (the supervisor retries once it is back).
        """
        deps = tuple(dict.fromkeys(task.dependencies))
        call = _Call(
            key, next(self._attempts), task, then, asyncio.get_running_loop().create_future()
        )
        self._calls[call.attempt] = call
        self.running += 1
        try:
            with self._running_task(key):
                local = self._hold_local_inputs(call, deps)
                # a chunk placed here that the store lacks is lost, as one placed nowhere
                where = {
                    d: None if locations.get(d) == self.address else locations.get(d) for d in deps
                }
                follower = None if then is None else then[0]
                self._handle(
                    TaskAssigned(
                        f"execute-{key!r}", key, call.attempt, deps, local, where, follower
                    )
                )
                try:
                    outcome = await asyncio.shield(call.outcome)
                except asyncio.CancelledError:
                    # the call itself was dropped (its connection closed, the server stops)
                    self._handle(CancelRequested(f"dropped-{key!r}", (key,), call.attempt))
                    raise
                if call.stores:  # results being spilled to disk as they are stored
                    await asyncio.gather(*call.stores)
            return self._answer(call, deps, local, outcome)
        finally:
            self.running -= 1
            del self._calls[call.attempt]
            for dep in call.pinned:
                self.store.unpin(dep)

    async def cancel(self, keys: list[Key]) -> int:
        """Stop the tasks ``keys`` running here: nobody needs them any more. One waiting
        for its inputs, memory or a slot never runs; one computing is interrupted (Python
        code at once, code in C when its current call returns); a result of theirs kept
        just before is dropped. Returns how many ``execute`` calls were stopped."""
        if not isinstance(keys, list | tuple):
            raise TypeError(f"keys must be a list of chunk keys, not {type(keys).__name__}")
        done = self._handle(CancelRequested("cancel", tuple(keys)))
        return sum(1 for ins in done if isinstance(ins, Reply))

    # ---- the core and its instructions ------------------------------------------------------

    def _handle(self, *events: WorkerEvent) -> list[Instruction]:
        """Feed ``events`` to the core and carry out what it decides, in order."""
        instructions = self.core.handle(*events)
        for ins in instructions:
            if isinstance(ins, Run):
                self._start_run(ins)
            elif isinstance(ins, Fetch):
                self._background(self._fetch(ins.peer, ins.keys))
            elif isinstance(ins, Store):
                self._store(ins.key, ins.value)
            elif isinstance(ins, Reply):
                self._reply(ins)
            elif isinstance(ins, Interrupt):
                self.runner.interrupt(ins.runs)
            elif isinstance(ins, Forget):
                self.store.delete(ins.key)
            else:  # pragma: no cover - a new instruction the shell does not know yet
                raise AssertionError(f"unknown instruction {ins!r}")
        return instructions

    def _hold_local_inputs(self, call: _Call, deps: tuple[Key, ...]) -> frozenset[Key]:
        """The inputs held here: chunks are pinned (not spilled mid-task, read when the
        task runs), copies of peers' chunks are read now (they may be evicted later)."""
        local = []
        for dep in deps:
            if dep in self.store:
                self.store.pin(dep)
                call.pinned.append(dep)
                local.append(dep)
            elif dep in self.replicas:
                call.copies[dep] = self.replicas.get(dep)
                local.append(dep)
        return frozenset(local)

    def _start_run(self, ins: Run) -> None:
        call = self._calls[ins.attempt]
        # registered now, so that an interrupt that comes before it computes stops it
        run = self.runner.begin(ins.runs)
        self._background(self._run_call(call, ins, run))

    async def _run_call(self, call: _Call, ins: Run, run: TaskRun) -> None:
        event: WorkerEvent
        try:
            data = dict(ins.inputs)
            if ins.runs == call.key:
                task = call.task
                data.update(call.copies)
                call.copies = {}
                for dep in call.pinned:
                    found, value = self.store.peek(dep)
                    # a spilled input is read back from disk: off the event loop
                    data[dep] = (
                        value
                        if found
                        else await asyncio.get_running_loop().run_in_executor(
                            None, self.store.get, dep
                        )
                    )
                await self._admit(sum(sizeof(v) for v in data.values()))
                value, seconds = await self._run(run, task, data)
            else:
                assert call.then is not None
                task = call.then[1]
                with self._running_task(ins.runs):
                    value, seconds = await self._run(run, task, data)
            del data
        except (Exception, TaskInterrupted) as exc:  # noqa: BLE001 - reported to the core
            if ins.runs != call.key:
                logger.debug("follower %r of %r failed here", ins.runs, call.key, exc_info=True)
            event = TaskErred(f"erred-{ins.runs!r}", call.key, call.attempt, exc)
        else:
            figures = _result_figures(value, seconds)
            event = TaskFinished(f"finished-{ins.runs!r}", call.key, call.attempt, value, figures)
        finally:
            self.runner.end(run)
        self._handle(event)

    async def _run(
        self, run: TaskRun, task: Task, data: dict[Key, Any]
    ) -> tuple[Any, dict[str, float]]:
        """The task's result, and the seconds it and each task nested in it took, by
        operator step (``TaskTimes``)."""
        if self._in_pool == 0 and self.runner.tiny:
            # tiny tasks run on this thread: a hop to a slot thread and back costs more
            # than they do. Only while no slot thread computes, so that the busy cores
            # stay within --n-cpu.
            return self._compute(run, task, data)
        self._in_pool += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._pool, self._compute, run, task, data)
        finally:
            self._in_pool -= 1

    def _store(self, key: Key, value: Any) -> None:
        self._fit_replicas(incoming=sizeof(value))
        if self.store.has_room(sizeof(value)):
            self.store.put(key, value)
            return
        # storing spills to disk: off the event loop; the reply waits for it
        pending = asyncio.get_running_loop().run_in_executor(None, self.store.put, key, value)
        self._storing[key] = pending
        pending.add_done_callback(lambda _: self._storing.pop(key, None))

    def _reply(self, ins: Reply) -> None:
        call = self._calls[ins.attempt]
        keys = (call.key,) if call.then is None else (call.key, call.then[0])
        call.stores = [self._storing[k] for k in keys if k in self._storing]
        call.outcome.set_result(ins.outcome)

    def _answer(
        self, call: _Call, deps: tuple[Key, ...], local: frozenset[Key], outcome: Outcome
    ) -> dict[str, Any]:
        """The reply to an ``execute`` call, or the error it raises."""
        # copies of peers' chunks made for this task: the supervisor counts them for
        # placement, and deletes them with their chunk
        copied = [d for d in deps if d not in local and d in self.replicas]
        if not isinstance(outcome, Done):
            for dep in copied:  # the supervisor will not hear of them: not kept
                self.replicas.discard(dep)
        if isinstance(outcome, Cancelled):
            raise CancelledError(f"task {call.key!r} was cancelled")
        if isinstance(outcome, Failed):
            raise outcome.error
        if isinstance(outcome, InputsLost):
            raise InputLost(f"inputs {list(outcome.keys)!r} of task {call.key!r}: {outcome.reason}")
        reply = dict(outcome.figures)
        if call.then is not None:
            reply["then"] = None if outcome.then is None else dict(outcome.then)
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

    def _fit_replicas(self, incoming: int = 0) -> None:
        """Copies of peers' chunks take only the room the store leaves in the cache (and
        ``incoming`` bytes about to be stored): chunks come first."""
        room = max(0, self.store.free_bytes() - incoming)
        self.replicas.max_bytes = min(self._replica_cap, room)
        self.replicas.shrink(self.replicas.max_bytes)

    def _compute(
        self, run: TaskRun, task: Task, data: dict[Key, Any]
    ) -> tuple[Any, dict[str, float]]:
        self._computing[task.key] = time.time()
        try:
            value, times = self.runner.run(run, task, data)
        finally:
            self._computing.pop(task.key, None)
        return value, times.seconds

    async def _fetch(self, peer: str, keys: tuple[Key, ...]) -> None:
        """Fetch ``keys`` from ``peer`` for the core, keeping copies for later tasks."""
        events: list[WorkerEvent] = []
        try:
            part: dict[Key, Any] = await self._peer(peer).call("get_data", keys=list(keys))
        except KeyError as exc:
            # the peer lost them (or is another process on a dead peer's address): a lost
            # input, which the supervisor recomputes, not an error of the task
            events.append(FetchFailed("fetch-failed", peer, keys, f"it does not hold them: {exc}"))
        except Exception as exc:  # noqa: BLE001 - the peer died or could not answer
            events.append(FetchFailed("fetch-failed", peer, keys, f"{type(exc).__name__}: {exc}"))
        else:
            for key, value in part.items():
                self._transfer.received(sizeof(value))
                self._fit_replicas()
                self.replicas.put(key, value)
            events.append(InputsFetched("fetched", peer, part))
            missing = tuple(k for k in keys if k not in part)
            if missing:
                events.append(FetchFailed("fetch-failed", peer, missing, "it did not send them"))
        self._handle(*events)

    def _background(self, coroutine: Coroutine[Any, Any, None]) -> None:
        """Run ``coroutine`` as a task of its own, held until it ends (asyncio keeps only
        weak references to tasks)."""
        task = asyncio.ensure_future(coroutine)
        self._work.add(task)
        task.add_done_callback(self._work.discard)

    async def _admit(self, input_bytes: int) -> None:
        """Wait until a result about the size of the inputs fits within ``--phy-mem``.

        Memory frees as other tasks finish and the supervisor releases chunks; a task that
        cannot be admitted within ``admission_timeout`` fails with MemoryError, which the
        supervisor retries elsewhere.
        """
        now = time.monotonic()
        if now - self._rss_sampled > 0.1:
            self._rss, self._rss_sampled = process_rss(), now
        if self._rss + input_bytes <= self.store.phy_mem_bytes // 2:
            return  # far from the limit: no need for the exact check
        waited = 0.0
        while not self.store.can_admit(input_bytes):
            if waited >= self.admission_timeout:
                raise MemoryError(
                    f"worker {self.address}: no room for a task reading "
                    f"{input_bytes} bytes within its memory limit"
                )
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
        self._handle(ResetRequested("reset"))
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
