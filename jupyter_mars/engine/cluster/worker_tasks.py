"""Tasks on a worker: the IO side of the worker core (``engine/worker/``).

``WorkerTasks`` turns ``execute`` and ``cancel`` calls and the completions of its work
into the core's events, and carries out the instructions the core returns: ``Fetch`` (a
``get_data`` call to a peer, its values kept as copies for later tasks), ``Run`` (the task
on one of ``n_cpu`` threads through the ``TaskRunner`` the embedded runtime uses too, after
it waited for room under ``--phy-mem``), ``Store`` (into the chunk store, off the event
loop when it spills), ``Forget``, ``Interrupt`` and ``Reply`` (the answer to the call).
Everything runs on the worker's event loop, except the computations and the disk IO.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import AsyncIterator, Coroutine, Iterator
from concurrent.futures import CancelledError, ThreadPoolExecutor
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from jupyter_mars.engine.cluster.losses import InputLost
from jupyter_mars.engine.cluster.stacks import SLOT_THREAD_PREFIX
from jupyter_mars.engine.cluster.storage import sizeof
from jupyter_mars.engine.cluster.storage.admission import process_rss
from jupyter_mars.engine.cluster.storage.limits import mib
from jupyter_mars.engine.executors.runner import TaskRun, TaskRunner
from jupyter_mars.engine.graph import Key, Task
from jupyter_mars.engine.worker.events import (
    CancelRequested,
    FetchFailed,
    InputsFetched,
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

if TYPE_CHECKING:
    from jupyter_mars.engine.cluster.worker_server import WorkerServer

logger = logging.getLogger(__name__)

HOPELESS_WAIT = 2.0
"""Seconds a task waits for memory when nothing here can free any, for releases in
flight, before it fails."""


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
    assigned: bool = False
    """Whether the core heard of it (it was admitted)."""
    cancelled: bool = False
    """Cancelled while it waited for memory, before the core heard of it."""


class WorkerTasks:
    """The tasks of one worker process, and the worker core that decides about them."""

    def __init__(self, worker: WorkerServer, n_cpu: int) -> None:
        self.worker = worker
        """Its chunk store, copies of peers' chunks, peer connections and address."""
        self.core = WorkerState(n_cpu)
        """Decides what to fetch, run, store and reply (``engine/worker/``)."""
        self.runner = TaskRunner(n_slots=n_cpu, n_cpu=n_cpu)
        self.admission_timeout = 60.0
        self.running = 0
        """``execute`` calls under way."""
        self.running_since: list[tuple[Key, float]] = []
        """(key, ``time.time()`` it arrived) of each task here, followers included."""
        self.computing: dict[Key, float] = {}
        """Key -> ``time.time()`` its kernel started on a slot (the others of
        ``running_since`` wait for inputs, memory or a free slot)."""
        self._calls: dict[int, _Call] = {}
        """Attempt -> the ``execute`` call it numbers, while it is under way."""
        self._attempts = itertools.count(1)
        self._storing: dict[Key, asyncio.Future[None]] = {}
        """Results being stored with a spill to disk, off the event loop."""
        self._work: set[asyncio.Future[Any]] = set()
        """Fetches and runs under way."""
        self._pool = ThreadPoolExecutor(max_workers=n_cpu, thread_name_prefix=SLOT_THREAD_PREFIX)
        self._in_pool = 0
        self._rss = 0
        self._rss_sampled = 0.0
        self._reserved = 0
        """Bytes reserved by the tasks admitted and not ended (``_admitted``)."""
        self._n_admitted = 0

    def close(self) -> None:
        """Stop the work under way (the worker stops)."""
        for task in self._work:
            task.cancel()
        self._pool.shutdown(wait=False, cancel_futures=True)

    # ---- RPC handlers -----------------------------------------------------------------

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
            with self.running_task(key):
                # admitted before its inputs are read or fetched: a task waiting for
                # memory holds none (the core hears of it once admitted)
                async with self._admitted(self._input_bytes(deps), call):
                    outcome, local = await self._assigned(call, deps, locations)
            return self._answer(call, deps, local, outcome)
        finally:
            self.running -= 1
            del self._calls[call.attempt]
            for dep in call.pinned:
                self.worker.store.unpin(dep)

    async def _assigned(
        self, call: _Call, deps: tuple[Key, ...], locations: dict[Key, str | None]
    ) -> tuple[Outcome, frozenset[Key]]:
        """Tell the core of an admitted call: its outcome once the core replied, and the
        inputs that were here when it came."""
        if call.cancelled:  # while it waited for memory
            return Cancelled(), frozenset(deps)  # it copied nothing
        call.assigned = True
        key = call.key
        local = self._hold_local_inputs(call, deps)
        # a chunk placed here that the store lacks is lost, as one placed nowhere
        here = self.worker.address
        where = {d: None if locations.get(d) == here else locations.get(d) for d in deps}
        follower = None if call.then is None else call.then[0]
        self.handle(
            TaskAssigned(f"execute-{key!r}", key, call.attempt, deps, local, where, follower)
        )
        try:
            outcome = await asyncio.shield(call.outcome)
        except asyncio.CancelledError:
            # the call itself was dropped (its connection closed, the server stops)
            self.handle(CancelRequested(f"dropped-{key!r}", (key,), call.attempt))
            raise
        if call.stores:  # results being spilled to disk as they are stored
            await asyncio.gather(*call.stores)
        return outcome, local

    async def cancel(self, keys: list[Key]) -> int:
        """Stop the tasks ``keys`` running here: nobody needs them any more. One waiting
        for its inputs, memory or a slot never runs; one computing is interrupted (Python
        code at once, code in C when its current call returns); a result of theirs kept
        just before is dropped. Returns how many ``execute`` calls were stopped."""
        if not isinstance(keys, list | tuple):
            raise TypeError(f"keys must be a list of chunk keys, not {type(keys).__name__}")
        done = self.handle(CancelRequested("cancel", tuple(keys)))
        stopped = sum(1 for ins in done if isinstance(ins, Reply))
        wanted = set(keys)
        for call in self._calls.values():
            # waiting for memory: the core has not heard of it yet
            if call.key in wanted and not call.assigned and not call.cancelled:
                call.cancelled = True
                stopped += 1
        return stopped

    @contextmanager
    def running_task(self, key: Key) -> Iterator[None]:
        """Lists ``key`` among the tasks running here while the block runs."""
        entry = (key, time.time())
        self.running_since.append(entry)
        try:
            yield
        finally:
            self.running_since.remove(entry)

    # ---- the core and its instructions ------------------------------------------------------

    def handle(self, *events: WorkerEvent) -> list[Instruction]:
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
                self.worker.store.delete(ins.key)
            else:  # pragma: no cover - a new instruction the shell does not know yet
                raise AssertionError(f"unknown instruction {ins!r}")
        return instructions

    def _hold_local_inputs(self, call: _Call, deps: tuple[Key, ...]) -> frozenset[Key]:
        """The inputs held here: chunks are pinned (not spilled mid-task, read when the
        task runs), copies of peers' chunks are read now (they may be evicted later)."""
        local = []
        for dep in deps:
            if dep in self.worker.store:
                self.worker.store.pin(dep)
                call.pinned.append(dep)
                local.append(dep)
            elif dep in self.worker.replicas:
                call.copies[dep] = self.worker.replicas.get(dep)
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
                    data[dep] = await self._read_local(dep)
                value, seconds = await self._run(run, task, data)
            else:
                assert call.then is not None
                task = call.then[1]
                with self.running_task(ins.runs):
                    value, seconds = await self._run(run, task, data)
            del data
        except asyncio.CancelledError:
            raise  # the worker stops
        except BaseException as exc:  # noqa: BLE001 - reported to the core
            # a task's SystemExit or KeyboardInterrupt too: left to escape this task of the
            # event loop, it would stop the worker; it fails the call instead, as the RPC
            # server answers it
            if ins.runs != call.key:
                logger.debug("follower %r of %r failed here", ins.runs, call.key, exc_info=True)
            event = TaskErred(f"erred-{ins.runs!r}", call.key, call.attempt, exc)
        else:
            figures = _result_figures(value, seconds)
            event = TaskFinished(f"finished-{ins.runs!r}", call.key, call.attempt, value, figures)
        finally:
            self.runner.end(run)
        self.handle(event)

    async def _read_local(self, key: Key) -> Any:
        """The value of an input in the chunk store, pinned since the task arrived."""
        found, value = self.worker.store.peek(key)
        if found:
            return value
        try:  # a spilled input is read back from disk: off the event loop
            return await asyncio.get_running_loop().run_in_executor(
                None, self.worker.store.get, key
            )
        except KeyError:
            # deleted meanwhile (a reset): lost, and retried once it is back
            raise InputLost(f"input chunk {key!r} was dropped from this worker") from None

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
            watched = self.worker._memory.run_watched  # stopped past the hard memory limit
            return await loop.run_in_executor(
                self._pool, watched, task.key, self._compute, run, task, data
            )
        finally:
            self._in_pool -= 1

    def _store(self, key: Key, value: Any) -> None:
        self.worker._fit_replicas(incoming=sizeof(value))
        if self.worker.store.has_room(sizeof(value)):
            self.worker.store.put(key, value)
            return
        # storing spills to disk: off the event loop; the reply waits for it
        pending = asyncio.get_running_loop().run_in_executor(
            None, self.worker.store.put, key, value
        )
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
        copied = [d for d in deps if d not in local and d in self.worker.replicas]
        if not isinstance(outcome, Done):
            for dep in copied:  # the supervisor will not hear of them: not kept
                self.worker.replicas.discard(dep)
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

    def _compute(
        self, run: TaskRun, task: Task, data: dict[Key, Any]
    ) -> tuple[Any, dict[str, float]]:
        self.computing[task.key] = time.time()
        try:
            value, times = self.runner.run(run, task, data)
        finally:
            self.computing.pop(task.key, None)
        return value, times.seconds

    async def _fetch(self, peer: str, keys: tuple[Key, ...]) -> None:
        """Fetch ``keys`` from ``peer`` for the core, keeping copies for later tasks."""
        events: list[WorkerEvent] = []
        try:
            part: dict[Key, Any] = await self.worker._peer(peer).call("get_data", keys=list(keys))
        except KeyError as exc:
            # the peer lost them (or is another process on a dead peer's address): a lost
            # input, which the supervisor recomputes, not an error of the task
            events.append(FetchFailed("fetch-failed", peer, keys, f"it does not hold them: {exc}"))
        except Exception as exc:  # noqa: BLE001 - the peer died or could not answer
            events.append(FetchFailed("fetch-failed", peer, keys, f"{type(exc).__name__}: {exc}"))
        else:
            for key, value in part.items():
                self.worker._transfer.received(sizeof(value))
                if self.core.waiters(key):  # else their tasks were cancelled meanwhile
                    self.worker._fit_replicas()
                    self.worker.replicas.put(key, value)
            events.append(InputsFetched("fetched", peer, part))
            missing = tuple(k for k in keys if k not in part)
            if missing:
                events.append(FetchFailed("fetch-failed", peer, missing, "it did not send them"))
        self.handle(*events)

    def _background(self, coroutine: Coroutine[Any, Any, None]) -> None:
        """Run ``coroutine`` as a task of its own, held until it ends (asyncio keeps only
        weak references to tasks)."""
        task = asyncio.ensure_future(coroutine)
        self._work.add(task)
        task.add_done_callback(self._work.discard)

    def _input_bytes(self, deps: tuple[Key, ...]) -> int:
        """The bytes of the task's inputs known here (those held by peers are counted in
        the process's memory once fetched)."""
        total = 0
        for dep in deps:
            if dep in self.worker.replicas:
                total += sizeof(self.worker.replicas.get(dep))
            else:
                try:
                    total += self.worker.store.nbytes(dep)
                except KeyError:
                    pass
        return total

    @asynccontextmanager
    async def _admitted(self, input_bytes: int, call: _Call) -> AsyncIterator[None]:
        """Runs the block once the task is admitted (``_admit``), with ``input_bytes``
        reserved for it until the block ends: tasks admitted together must all fit, not
        each one alone in memory their neighbours are about to take."""
        await self._admit(input_bytes, call)
        self._reserved += input_bytes
        self._n_admitted += 1
        try:
            yield
        finally:
            self._reserved -= input_bytes
            self._n_admitted -= 1

    async def _admit(self, input_bytes: int, call: _Call) -> None:
        """Wait until a result about the size of the inputs, and the reservations of the
        tasks admitted before, fit within the soft limit, or the call is cancelled.

        Memory frees as other tasks finish, the monitor spills and the supervisor releases
        chunks; a task that cannot be admitted within ``admission_timeout``, or within
        ``HOPELESS_WAIT`` when no other task here could free memory, fails with a logged
        MemoryError, which the supervisor retries elsewhere.
        """
        now = time.monotonic()
        if now - self._rss_sampled > 0.1:
            self._rss, self._rss_sampled = process_rss(), now
        limits = self.worker.limits
        if self._rss + input_bytes + self._reserved <= limits.soft // 2:
            return  # far from the limit: no need for the exact check
        waited = 0.0
        while not call.cancelled and not self.worker.store.can_admit(input_bytes + self._reserved):
            hopeless = self._n_admitted == 0
            if waited >= (HOPELESS_WAIT if hopeless else self.admission_timeout):
                error = MemoryError(
                    f"worker {self.worker.address}: no room for a task reading "
                    f"{input_bytes} bytes: its memory ({mib(process_rss())}) is above the "
                    f"soft limit of {limits.describe_soft()}"
                    + (" and no other task here could free any" if hopeless else "")
                )
                logger.error("%s", error)
                raise error
            await asyncio.sleep(0.05)
            waited += 0.05


def _result_figures(value: Any, seconds: dict[str, float]) -> dict[str, Any]:
    """What the supervisor records of a result: its size and shape, and the seconds the
    task took per operator step."""
    return {"nbytes": sizeof(value), "shape": getattr(value, "shape", None), "seconds": seconds}
