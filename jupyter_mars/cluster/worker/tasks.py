"""Tasks on a worker: the IO side of the worker core (``engine/worker/``).

``WorkerTasks`` turns ``execute`` and ``cancel`` calls, samples of the process's memory
(every ``SAMPLE_EVERY`` seconds) and the completions of its work into the core's events,
and carries out the instructions the core returns: ``Fetch`` (a ``get_data`` call to a
peer, its values kept as copies for later tasks), ``Run`` (the task on one of ``n_cpu``
threads through the ``TaskRunner`` the embedded runtime uses too), ``Store`` (into the
chunk store, off the event loop when it spills), ``Forget``, ``Interrupt``, ``Reply`` (the
answer to the call), ``Spill`` and ``Collect`` (on a thread of their own, so that sampling
goes on during the disk IO), ``Shed`` (the run raises ``HardLimitPassed``, which fails it
with a ``MemoryError``) and ``Log``. Everything runs on the worker's event loop, except the
computations and the disk IO.

GPU tasks (``Task.device == "gpu"``) compute on GPU slots: one thread per CUDA device,
which made its device current when it started (``engine/executors/gpu_slots.py``), the
least busy taking the next; the core counts them among its slots (the supervisor sends at
most as many as there are GPU slots, and CPU tasks still compute on ``n_cpu`` threads).
Their results stay on the device, in the worker's ``device_store`` (``--gpu-mem``); the
least recently used beyond its limit move to the chunk store, in host memory, which may
spill them to disk in turn. A GPU task's inputs in host memory (moved there, or fetched
from a peer, which always sends host copies) go back to its device before it computes.
"""

from __future__ import annotations

import asyncio
import collections
import gc
import itertools
import logging
import time
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import CancelledError, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from jupyter_mars.cluster.wire.errors import InputLost
from jupyter_mars.cluster.worker.stacks import SLOT_THREAD_PREFIX
from jupyter_mars.engine.devices import GPU, GPUUnavailable, is_device_array
from jupyter_mars.engine.executors.gpu_slots import host_copy, inputs_on_device, use_device
from jupyter_mars.engine.executors.memory import RECENT_RESULTS
from jupyter_mars.engine.executors.runner import TaskInterrupted, TaskRun, TaskRunner
from jupyter_mars.engine.graph import Key, Task
from jupyter_mars.engine.recipes import Undrawn, recipe, undrawn
from jupyter_mars.engine.remote_traceback import keep_user_frames
from jupyter_mars.engine.storage import heap, sizeof
from jupyter_mars.engine.storage.admission import process_rss
from jupyter_mars.engine.worker.events import (
    CancelRequested,
    FetchFailed,
    InputsFetched,
    MemorySampled,
    PeerLost,
    SpillDone,
    TaskAssigned,
    TaskErred,
    TaskFinished,
    WorkerEvent,
)
from jupyter_mars.engine.worker.instructions import (
    Admit,
    Cancelled,
    Collect,
    Done,
    Failed,
    Fetch,
    Forget,
    InputsLost,
    Instruction,
    Interrupt,
    Log,
    Outcome,
    Reply,
    Run,
    Shed,
    Spill,
    Store,
)
from jupyter_mars.engine.worker.state import WorkerState

if TYPE_CHECKING:
    from jupyter_mars.cluster.worker.server import WorkerServer

logger = logging.getLogger(__name__)

SAMPLE_EVERY = 0.1
"""Seconds between two samples of the resident size: a task allocating a gigabyte a second
passes the gap between the limits, 15 % of the worker's memory, in about that time on a
small worker."""
TRIM_EVERY = 1.0
"""Seconds between two heap trims while spilling frees nothing (a trim walks the heap)."""
TRIM_SHARE = 0.9
"""Share of the soft limit past which a sample first gives back the memory the heaps keep
for the next chunks (``storage.heap``)."""


class HardLimitPassed(TaskInterrupted):
    """Raised in a task's thread to stop it: it grew the process past the hard memory
    limit. The run's ``MemoryError`` replaces it."""


@dataclass(eq=False)
class _Call:
    """One ``execute`` call under way: the IO side of its record in the core."""

    key: Key
    attempt: int
    task: Task
    then: tuple[Key, Task] | None
    outcome: asyncio.Future[Outcome]
    """Set by the core's ``Reply``."""
    unread: bool = False
    """No task waits for its result: it is held for later."""
    local: frozenset[Key] = frozenset()
    """Its inputs held here when it came (chunk store or copies of peers' chunks)."""
    pinned: list[Key] = field(default_factory=list)
    """Inputs in the chunk store, pinned from its admission until the call ends (the
    admission counted on them staying in memory)."""
    copies: dict[Key, Any] = field(default_factory=dict)
    """Inputs read from the copies of peers' chunks when it was admitted."""
    gone: list[Key] = field(default_factory=list)
    """Inputs held here when it came but no longer when it was admitted."""
    stores: list[asyncio.Future[None]] = field(default_factory=list)
    """Its results being stored with a spill to disk when it replied."""


class WorkerTasks:
    """The tasks of one worker process, and the worker core that decides about them."""

    def __init__(self, worker: WorkerServer, n_cpu: int, gpu_devices: list[int]) -> None:
        self.worker = worker
        """Its chunk store, copies of peers' chunks, peer connections and address."""
        # GPU tasks hold slots of the core too; the threads keep them off the CPU cores
        self.core = WorkerState(n_cpu + len(gpu_devices), worker.limits)
        """Decides what to fetch, run, store, spill, stop and reply (``engine/worker/``)."""
        self.runner = TaskRunner(n_slots=n_cpu, n_cpu=n_cpu)
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
        self._gpu_slots = {
            device: ThreadPoolExecutor(
                max_workers=1,
                thread_name_prefix=f"{SLOT_THREAD_PREFIX}-gpu{device}",
                initializer=use_device,
                initargs=(device,),
            )
            for device in gpu_devices
        }
        """CUDA device -> the thread of its GPU slot."""
        self._gpu_busy = dict.fromkeys(gpu_devices, 0)
        """CUDA device -> GPU tasks computing or queued on its slot."""
        self._in_pool = 0
        self._spiller = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mars-memory-spill")
        self._trimmed = 0.0
        self._start_rss = 0
        """The process's resident size when it started sampling (interpreter, libraries)."""
        self._shed: dict[Key, str] = {}
        """Runs told to stop for memory -> the message of their ``MemoryError``."""
        self._recent_results: collections.deque[int] = collections.deque(maxlen=RECENT_RESULTS)
        """The sizes of the last results stored: a task makes room for the largest before
        it runs."""
        self._room_ahead: asyncio.Future[int] | None = None
        """Room being made on the spill thread for the result after the one computing."""

    def start(self) -> None:
        """Start sampling the process's memory (the worker listens at its address)."""
        heap.keep_freed_chunks(self.worker.store.cache_bytes)
        self._start_rss = process_rss()
        self.core.memory.where = self.worker.address
        self._background(self._sample_memory())

    def close(self) -> None:
        """Stop the work under way (the worker stops)."""
        for task in self._work:
            task.cancel()
        self._pool.shutdown(wait=False, cancel_futures=True)
        for slot in self._gpu_slots.values():
            slot.shutdown(wait=False, cancel_futures=True)
        self._spiller.shutdown(wait=False, cancel_futures=True)

    def memory_figures(self) -> dict[str, Any]:
        """The memory limits and the last sample, for the heartbeat and the dashboard."""
        return self.core.memory.figures()

    # ---- RPC handlers -----------------------------------------------------------------

    async def execute(
        self,
        key: Key,
        task: Task,
        locations: dict[Key, str | None],
        then: tuple[Key, Task] | None = None,
        unread: bool = False,
    ) -> Any:
        """Run ``task`` and keep its result under ``key``.

        ``then`` is a follower: a task that reads only this one's result, run right after
        it in the same slot, so that it costs the supervisor no round trip of its own. Its
        result is kept too and reported under ``"then"``; if it fails, ``"then"`` is None
        and the supervisor runs it the usual way, where its error is reported.

        ``unread``: no task waits for the result, which is held for later. Where the
        chunk store is full and the task is its own recipe and says what it makes, the
        result is kept as that recipe and drawn by its first reader (``_undrawn``).

        Raises ``CancelledError`` when ``cancel`` stopped it, and ``InputLost`` when an
        input could not be had (the supervisor retries once it is back).
        """
        deps = tuple(dict.fromkeys(task.dependencies))
        call = _Call(
            key,
            next(self._attempts),
            task,
            then,
            asyncio.get_running_loop().create_future(),
            unread=unread,
        )
        self._calls[call.attempt] = call
        self.running += 1
        try:
            with self.running_task(key):
                outcome = await self._assigned(call, deps, locations)
            return self._answer(call, deps, outcome)
        finally:
            self.running -= 1
            del self._calls[call.attempt]
            for dep in call.pinned:
                if not any(dep in other.task.dependencies for other in self._calls.values()):
                    self.worker.store.demote(dep)  # no task here reads it now: spill it first
                self.worker.store.unpin(dep)

    async def _assigned(
        self, call: _Call, deps: tuple[Key, ...], locations: dict[Key, str | None]
    ) -> Outcome:
        """Tell the core of a call; its outcome once the core replied."""
        key = call.key
        store, replicas, devices = self.worker.store, self.worker.replicas, self.worker.device_store
        call.local = frozenset(d for d in deps if d in store or d in replicas or d in devices)
        # a chunk placed here that the store lacks is lost, as one placed nowhere
        here = self.worker.address
        where = {d: None if locations.get(d) == here else locations.get(d) for d in deps}
        follower = None if call.then is None else call.then[0]
        self.handle(
            TaskAssigned(
                f"execute-{key!r}",
                key,
                call.attempt,
                deps,
                call.local,
                where,
                follower,
                nbytes=self._input_bytes(deps),
                now=time.monotonic(),
            )
        )
        try:
            outcome = await asyncio.shield(call.outcome)
        except asyncio.CancelledError:
            # the call itself was dropped (its connection closed, the server stops)
            self.handle(CancelRequested(f"dropped-{key!r}", (key,), call.attempt))
            raise
        if call.stores:  # results being spilled to disk as they are stored
            await asyncio.gather(*call.stores)
        return outcome

    async def cancel(self, keys: list[Key]) -> int:
        """Stop the tasks ``keys`` running here: nobody needs them any more. One waiting
        for its inputs, memory or a slot never runs; one computing is interrupted (Python
        code at once, code in C when its current call returns); a result of theirs kept
        just before is dropped. Returns how many ``execute`` calls were stopped."""
        if not isinstance(keys, list | tuple):
            raise TypeError(f"keys must be a list of chunk keys, not {type(keys).__name__}")
        done = self.handle(CancelRequested("cancel", tuple(keys)))
        return sum(1 for ins in done if isinstance(ins, Reply))

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
                if self.worker.device_store.pop(ins.key) is None:
                    self.worker.store.delete(ins.key)
            elif isinstance(ins, Admit):
                self._hold_local_inputs(self._calls[ins.attempt])
            elif isinstance(ins, Spill):
                self._background(self._spill(ins.nbytes))
            elif isinstance(ins, Shed):
                self._shed[ins.runs] = ins.message
                self.runner.interrupt(ins.runs, HardLimitPassed)
            elif isinstance(ins, Collect):
                self._spiller.submit(_collect)
            elif isinstance(ins, Log):
                logger.log(ins.level, "%s", ins.message)
            else:  # pragma: no cover - a new instruction the shell does not know yet
                raise AssertionError(f"unknown instruction {ins!r}")
        return instructions

    def _hold_local_inputs(self, call: _Call) -> None:
        """As the task is admitted, its inputs held here: chunks are pinned (neither
        spilled nor counted as memory spilling could free, read when it runs), copies
        of peers' chunks are read now (they may be evicted later)."""
        for dep in call.local:
            if dep in self.worker.device_store:  # held by the call while it lives
                call.copies[dep] = self.worker.device_store.get(dep)
            elif dep in self.worker.store:
                self.worker.store.pin(dep)
                call.pinned.append(dep)
            elif dep in self.worker.replicas:
                call.copies[dep] = self.worker.replicas.get(dep)
            else:  # evicted or deleted while it waited for memory
                call.gone.append(dep)

    def _start_run(self, ins: Run) -> None:
        call = self._calls[ins.attempt]
        # registered now, so that an interrupt that comes before it computes stops it
        run = self.runner.begin(ins.runs)
        self._background(self._run_call(call, ins, run))

    async def _run_call(self, call: _Call, ins: Run, run: TaskRun) -> None:
        event: WorkerEvent
        seconds: dict[str, float]
        try:
            data = dict(ins.inputs)
            if ins.runs == call.key:
                task = call.task
                if call.gone:  # retried once they are back
                    raise InputLost(f"input chunks {call.gone!r} were dropped from this worker")
                data.update(call.copies)
                call.copies = {}
                for dep in call.pinned:
                    data[dep] = await self._read_local(dep)
                owed = self._undrawn(call)
                if owed is not None:  # drawn by its first reader
                    value, seconds = owed, {}
                else:
                    await self._make_room()
                    value, seconds = await self._run(run, task, data)
            else:
                assert call.then is not None
                task = call.then[1]
                with self.running_task(ins.runs):
                    value, seconds = await self._run(run, task, data)
            del data
        except asyncio.CancelledError:
            raise  # the worker stops
        except HardLimitPassed:
            error = MemoryError(self._shed.pop(ins.runs, f"task {ins.runs!r} was stopped"))
            event = TaskErred(f"erred-{ins.runs!r}", call.key, call.attempt, error)
        except BaseException as exc:  # noqa: BLE001 - reported to the core
            # a task's SystemExit or KeyboardInterrupt too: left to escape this task of the
            # event loop, it would stop the worker; it fails the call instead, as the RPC
            # server answers it
            if ins.runs != call.key:
                logger.debug("follower %r of %r failed here", ins.runs, call.key, exc_info=True)
            keep_user_frames(exc)  # its traceback stays here; the user's lines travel
            event = TaskErred(f"erred-{ins.runs!r}", call.key, call.attempt, exc)
        else:
            figures = _result_figures(value, seconds)
            event = TaskFinished(f"finished-{ins.runs!r}", call.key, call.attempt, value, figures)
        finally:
            self.runner.end(run)
            self._shed.pop(ins.runs, None)
        self.handle(event)

    async def _read_local(self, key: Key) -> Any:
        """The value of an input in the chunk store, pinned since its run started."""
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

    async def _make_room(self) -> None:
        """Spill, before a task computes, what its result would push out of the cache
        (as large as the largest recent one): else the process would hold the full cache, the
        result, and the chunk being written out to make room for it.

        The room for the result after it is made meanwhile, on the spill thread, while
        this task computes: a task waits for the disk only when that fell behind."""
        store = self.worker.store
        expected = max(self._recent_results, default=0)
        if not expected:
            return
        loop = asyncio.get_running_loop()
        if not store.has_room(expected):
            await loop.run_in_executor(self._spiller, store.make_room, expected)
        ahead = self._room_ahead
        if (ahead is None or ahead.done()) and not store.has_room(2 * expected):
            self._room_ahead = loop.run_in_executor(self._spiller, store.make_room, 2 * expected)

    async def _run(
        self, run: TaskRun, task: Task, data: dict[Key, Any]
    ) -> tuple[Any, dict[str, float]]:
        """The task's result, and the seconds it and each task nested in it took, by
        operator step (``TaskTimes``)."""
        if task.device == GPU:
            return await self._run_on_gpu(run, task, data)
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

    async def _run_on_gpu(
        self, run: TaskRun, task: Task, data: dict[Key, Any]
    ) -> tuple[Any, dict[str, float]]:
        """Compute a GPU task on the least busy GPU slot, its inputs on that device."""
        if not self._gpu_busy:
            raise GPUUnavailable(
                f"task {task.key!r} runs on a GPU and worker {self.worker.address} has no "
                "GPU slot (mars-worker --cuda-devices 0)"
            )
        device = min(self._gpu_busy, key=self._gpu_busy.__getitem__)
        self._gpu_busy[device] += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(
                self._gpu_slots[device], self._compute_on_device, run, task, data
            )
        finally:
            self._gpu_busy[device] -= 1

    def _undrawn(self, call: _Call) -> Undrawn | None:
        """The call's chunk as its recipe, where nothing reads it now and the chunk store
        is full (``ChunkStore.is_full``): drawn, it would push out of memory another
        chunk drawn as cheaply, or be pushed out itself, before anyone read it. Its first
        reader draws it. Not a GPU task's chunk, kept on its device."""
        if not call.unread or call.then is not None or call.task.device == GPU:
            return None
        owed = undrawn(call.task)
        if owed is None or not self.worker.store.is_full(owed.nbytes):
            return None
        return owed

    def _compute_on_device(
        self, run: TaskRun, task: Task, data: dict[Key, Any]
    ) -> tuple[Any, dict[str, float]]:
        return self._compute(run, task, inputs_on_device(data))

    def _store(self, key: Key, value: Any) -> None:
        if type(value) is Undrawn:
            self.worker.store.put_undrawn(key, value.recompute, value.nbytes)
            return
        nbytes = sizeof(value)
        if is_device_array(value):  # device memory, under --gpu-mem, not --cache-mem
            self.worker.device_store.put(key, value, nbytes)
            for moved in self.worker.device_store.over_limit():
                self._store_on_host(moved)
            return
        self._recent_results.append(nbytes)
        self.worker.fit_replicas(incoming=nbytes)
        again = self._recipe_of(key)  # drawn again rather than spilled, where it can be
        if self.worker.store.has_room(nbytes):
            self.worker.store.put(key, value, nbytes, recompute=again)
            return
        # storing spills to disk: off the event loop; the reply waits for it
        pending = asyncio.get_running_loop().run_in_executor(
            None, partial(self.worker.store.put, key, value, nbytes, recompute=again)
        )
        self._storing[key] = pending
        pending.add_done_callback(lambda _: self._storing.pop(key, None))

    def _store_on_host(self, key: Key) -> None:
        """Move a GPU chunk to the chunk store, beyond the device store's limit."""
        value = self.worker.device_store.pop(key)
        if value is None:
            return
        host = host_copy(value)
        del value  # its device memory goes back to the pool
        nbytes = sizeof(host)
        self.worker.fit_replicas(incoming=nbytes)
        if self.worker.store.has_room(nbytes):
            self.worker.store.put(key, host, nbytes)
            return
        pending = asyncio.get_running_loop().run_in_executor(
            None, partial(self.worker.store.put, key, host, nbytes)
        )
        self._storing[key] = pending
        pending.add_done_callback(lambda _: self._storing.pop(key, None))

    def _recipe_of(self, key: Key) -> Callable[[], Any] | None:
        """What computes ``key`` again, when its task can (``engine/recipes.py``)."""
        for call in self._calls.values():
            if call.key == key:
                return recipe(call.task)
            if call.then is not None and call.then[0] == key:
                return recipe(call.then[1])
        return None

    def _reply(self, ins: Reply) -> None:
        call = self._calls[ins.attempt]
        keys = (call.key,) if call.then is None else (call.key, call.then[0])
        call.stores = [self._storing[k] for k in keys if k in self._storing]
        call.outcome.set_result(ins.outcome)

    def _answer(self, call: _Call, deps: tuple[Key, ...], outcome: Outcome) -> dict[str, Any]:
        """The reply to an ``execute`` call, or the error it raises."""
        # copies of peers' chunks made for this task: the supervisor counts them for
        # placement, and deletes them with their chunk
        copied = [d for d in deps if d not in call.local and d in self.worker.replicas]
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
            part: dict[Key, Any] = await self.worker.peer(peer).call("get_data", keys=list(keys))
        except KeyError as exc:
            # the peer lost them (or is another process on a dead peer's address): a lost
            # input, which the supervisor recomputes, not an error of the task
            events.append(FetchFailed("fetch-failed", peer, keys, f"it does not hold them: {exc}"))
        except Exception as exc:  # noqa: BLE001 - the peer died or could not answer
            # every fetch from it fails now, not each when its own call times out
            events.append(PeerLost("peer-lost", peer, f"{type(exc).__name__}: {exc}"))
            await self.worker.forget_peer(peer)
        else:
            for key, value in part.items():
                self.worker.transfer.received(sizeof(value))
                if self.core.waiters(key):  # else their tasks were cancelled meanwhile
                    self.worker.fit_replicas()
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

    # ---- memory -------------------------------------------------------------------------

    async def _sample_memory(self) -> None:
        """Tell the core of the process's memory every ``SAMPLE_EVERY`` seconds."""
        store = self.worker.store
        # the memory kept for the next chunks is given back before the soft limit sees it
        # or the process passes its cache by more than the budget, and once each time the
        # worker falls idle (deleted results leave the RSS then)
        cache = store.cache_bytes
        trim_above = min(
            self.worker.limits.soft * TRIM_SHARE,
            self._start_rss + cache + heap.kept_budget(cache),
        )
        idle_trimmed = True
        while True:
            busy = self.running > 0
            if not busy and not idle_trimmed:
                heap.give_back()
            idle_trimmed = not busy
            sample = MemorySampled(
                "memory",
                process_rss(trim_above, live=True),
                store.reclaimable_bytes(),
                time.monotonic(),
            )
            try:
                self.handle(sample)
            except Exception:  # noqa: BLE001 - sampling must outlive any one sample
                logger.exception("memory: a sample failed")
            await asyncio.sleep(SAMPLE_EVERY)

    async def _spill(self, nbytes: int) -> None:
        """Spill about ``nbytes`` on the spill thread, then tell the core."""
        loop = asyncio.get_running_loop()
        spilled = 0
        try:
            spilled = await loop.run_in_executor(self._spiller, self._spill_and_trim, nbytes)
        finally:
            self.handle(SpillDone("spilled", spilled))

    def _spill_and_trim(self, nbytes: int) -> int:
        spilled = self.worker.store.spill_memory(nbytes)
        now = time.monotonic()
        if spilled or now - self._trimmed > TRIM_EVERY:
            heap.trim()  # what was spilled goes back to the system
            self._trimmed = now
        return spilled


def _collect() -> None:
    """What a stopped task held may sit in reference cycles: collect it, and give the
    freed memory back to the system."""
    gc.collect()
    heap.give_back()


def _result_figures(value: Any, seconds: dict[str, float]) -> dict[str, Any]:
    """What the supervisor records of a result: its size and shape, and the seconds the
    task took per operator step (an ``Undrawn`` chunk's figures are its own)."""
    return {"nbytes": sizeof(value), "shape": getattr(value, "shape", None), "seconds": seconds}
