"""The embedded runtime: the scheduler core driven by a pool of threads in this process.

There is no dispatcher thread. A pool thread that finishes a task takes the lock, feeds
the outcome to the scheduler core, carries out the instructions it gets back (queue tasks
to run, drop released data, finish jobs), picks the next queued task and runs it outside
the lock. Chunk data lives in ``store``, a ``ChunkStore`` (``engine/storage/``), as plain
objects: no copy, no serialisation.

With a ``memory_limit`` the store spills to ``spill_dir`` (by default a temporary
directory, removed at close) and every task is admitted against the limit first
(``memory.py``): a thread that finds no room spills the least recently used chunks that no
running task reads (inputs are pinned while their task runs), outside the lock, or waits
for a running task to end. A chunk its own task can draw again (a seeded random draw, a
range: ``engine/recipes.py``) is dropped rather than written. Chunks on disk come back
when a task reads them, over a mapping of their file (``storage/spill_file.py``), and
dropped ones are drawn again, both on the task's thread outside the lock. Neither the
store nor the lock ever writes to disk while the lock is held.

Freed chunks' memory stays with the process for the next chunks, within a budget
(``storage/heap.py``; a sixteenth of the limit, or of the machine's memory without one):
a fresh mapping costs a page fault per page, often more than the task itself. Once no task
has run and no result been released for ``heap.IDLE_GIVE_BACK`` seconds, an idle pool
thread gives that memory back (the limit's spare blocks too).

Tasks run through the ``TaskRunner`` a worker uses too (``runner.py``): it decides whether
tasks are tiny enough for one thread, limits BLAS and OpenMP pools to
``max(1, n_cpu // threads)`` threads each while any job runs (so busy cores never exceed
``n_cpu``), and stops the tasks the scheduler core interrupts (a cancelled or failed job's),
whose threads then take the next queued task.

GPU tasks (``Task.device == "gpu"``) run on GPU slots: one thread per CUDA device of
``gpu_devices``, which makes its device current before its first task and takes the GPU
tasks the scheduler core starts from a queue of their own (``gpu_slots.py``). Their results,
CuPy arrays, stay in ``device_store`` (``storage/device.py``): not in the host store, not
under the memory limit, never spilled; their device memory goes back to the driver when
the last of them is released. ``gpu_devices=None`` decides at the first job that has a GPU
task: every device CuPy sees, or none (and the job fails at once, saying how to get one),
so a session that never asks for a GPU never imports CuPy.
"""

from __future__ import annotations

import collections
import itertools
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from typing import Any

from jupyter_mars.engine.devices import GPU, device_count, is_device_array
from jupyter_mars.engine.executors.gpu_slots import inputs_on_device, use_device
from jupyter_mars.engine.executors.memory import MemoryBudget
from jupyter_mars.engine.executors.runner import TaskInterrupted, TaskRunner
from jupyter_mars.engine.graph import Key, Task, TaskTimes, failed_key
from jupyter_mars.engine.opstats import OperatorStats
from jupyter_mars.engine.recipes import Undrawn, recipe, undrawn
from jupyter_mars.engine.runtime import JobHandle, serve
from jupyter_mars.engine.scheduler.events import (
    GraphSubmitted,
    JobCancelled,
    KeysReleased,
    SchedulerEvent,
    SlotsChanged,
    TaskFailed,
    TaskFinished,
)
from jupyter_mars.engine.scheduler.instructions import (
    Execute,
    Instruction,
    Interrupt,
    JobFailed,
    JobFinished,
    Release,
)
from jupyter_mars.engine.scheduler.state import SchedulerState
from jupyter_mars.engine.sizeof import sizeof
from jupyter_mars.engine.storage import ChunkStore, heap
from jupyter_mars.engine.storage.admission import physical_memory, process_rss
from jupyter_mars.engine.storage.device import DeviceStore
from jupyter_mars.engine.tracebacks import HIDE

RETRIABLE = (MemoryError, ConnectionError, TimeoutError)
_MEMORY_RECHECK = 0.5
"""Seconds a thread waiting for memory sleeps at most before it looks again."""
_STORE_FIGURES = (
    "memory_bytes",
    "spilled_bytes",
    "disk_bytes",
    "n_memory",
    "n_spilled",
    "spill_reads",
    "spill_writes",
    "spill_errors",
    "drops",
    "recomputes",
    "undrawn",
)
_LIVE = frozenset({"waiting", "ready", "running"})
_job_ids = itertools.count()


class ThreadRuntime:
    """Runs chunk graphs on ``n_threads`` threads of this process.

    ``memory_limit``: bytes the runtime may add to the process's resident memory (see the
    module docstring), spilling chunks to ``spill_dir``; None: no limit, no spilling.
    ``gpu_devices``: the CUDA devices that get a GPU slot each (checked by the caller);
    None: every device CuPy sees, decided at the first job with a GPU task.
    """

    def __init__(
        self,
        n_threads: int,
        n_cpu: int | None = None,
        memory_limit: int | None = None,
        spill_dir: str | None = None,
        gpu_devices: Sequence[int] | None = None,
    ) -> None:
        if n_threads < 1:
            raise ValueError(f"n_threads must be >= 1, got {n_threads}")
        self.n_threads = n_threads
        self.n_cpu = n_cpu or n_threads
        self.gpu_devices = None if gpu_devices is None else list(gpu_devices)
        self.core = SchedulerState(n_slots=n_threads, n_gpu_slots=len(self.gpu_devices or ()))
        self.device_store = DeviceStore()
        """The results of GPU tasks, on their devices."""
        self._budget: MemoryBudget | None = None
        self._own_spill_dir: str | None = None
        """The temporary spill directory made here, removed at close."""
        if memory_limit is None:
            heap.keep_freed_chunks(physical_memory())
            self.store = ChunkStore(sys.maxsize)
        else:
            if spill_dir is None:
                spill_dir = self._own_spill_dir = tempfile.mkdtemp(prefix="jupyter-mars-spill-")
            heap.keep_freed_chunks(memory_limit)  # given back when near the limit
            self.store = ChunkStore(memory_limit, [spill_dir])
            # the baseline without the free memory the heaps keep: a trim near the limit
            # would take the RSS below it, and the chunks held would count for nothing
            heap.trim()
            self._budget = MemoryBudget(memory_limit, process_rss())
        self._pinned: dict[Key, tuple[Key, ...]] = {}
        """Running task -> its inputs, pinned in the store while it runs (limit only)."""
        self._reserved: dict[Key, int] = {}
        """Running task -> the bytes its admission reserved (limit only)."""
        self._spilling = False
        """A thread is spilling for an admission (one at a time)."""
        self._n_running = 0
        self.shapes: dict[Key, tuple[int, ...]] = {}
        self._tasks: dict[Key, tuple[Task, JobHandle]] = {}
        self._jobs: dict[str, JobHandle] = {}
        self._running: dict[str, int] = {}
        """Job id -> how many of the tasks it owns are running on a thread now."""
        self._failing: dict[str, tuple[JobHandle, BaseException]] = {}
        """Failed jobs whose running tasks have not ended yet: a job whose task failed is
        reported only once nothing of it runs, so that the caller's clean-up (a writer's
        temporary files, say) is not raced by a task still at work."""
        self._queue: collections.deque[Key] = collections.deque()
        self._lock = threading.RLock()
        self._in_handle = False
        self._wakeup = threading.Condition(self._lock)
        self._memory_freed = threading.Condition(self._lock)
        """Notified when a task ends or a spill is done: an admission may pass now."""
        self._pending_release: collections.deque[tuple[Key, ...]] = collections.deque()
        self._threads: list[threading.Thread] = []
        self._gpu_queue: collections.deque[Key] = collections.deque()
        """GPU tasks the core started, for the GPU slots."""
        self._gpu_wakeup = threading.Condition(self._lock)
        self._gpu_threads: list[threading.Thread] = []
        self._idle = 0
        self._active = 0
        self._give_back_due = False
        """Whether freed memory may be kept since the last give-back (see ``_rest``)."""
        self._last_busy = 0.0
        """When a task last ended or a result was released (``time.monotonic``)."""
        self.runner = TaskRunner(n_threads, self.n_cpu)
        self._closed = False

    # ---- public API, called from client threads -------------------------------------

    def submit(
        self,
        graph: dict[Key, Task],
        outputs: tuple[Key, ...],
        priorities: dict[Key, int],
    ) -> JobHandle:
        job = JobHandle(f"job-{next(_job_ids)}", len(graph))
        job.operators = OperatorStats(graph)
        dependencies = {k: tuple(t.dependencies) for k, t in graph.items()}
        gpu_keys = frozenset(k for k, t in graph.items() if t.device == GPU)
        self._ensure_threads()
        with self._lock:
            if self._closed:
                raise RuntimeError("the session is closed")
            if gpu_keys and self.gpu_devices is None:
                self._find_gpus()
            event = GraphSubmitted(
                stimulus_id=f"submit-{job.job_id}",
                job_id=job.job_id,
                dependencies=dependencies,
                outputs=outputs,
                priorities=priorities
                if self._budget is None
                else self._held_first(graph, priorities),
                gpu_keys=gpu_keys,
            )
            self._jobs[job.job_id] = job
            self.runner.hold_blas_limit()
            for key, task in graph.items():
                # a task shared with a running job keeps its first owner
                self._tasks.setdefault(key, (task, job))
            self._handle(event)
            self._wake_for_queue()
        return job

    def cancel(self, job: JobHandle) -> None:
        with self._lock:
            self._handle(JobCancelled(stimulus_id=f"cancel-{job.job_id}", job_id=job.job_id))
            self._wake_for_queue()

    def release_keys(self, keys: tuple[Key, ...]) -> None:
        """Drop one hold on each key. Safe to call from a garbage-collector finaliser.

        The lock is re-entrant, so a finaliser that runs while this thread holds it does
        not deadlock; if it runs in the middle of ``_handle``, the release is queued and
        that ``_handle`` call processes it before returning.
        """
        self._pending_release.append(keys)
        with self._lock:
            self._handle()
            self._wake_for_queue()
            self._give_back_due = True
            self._last_busy = time.monotonic()
            if self._idle and not self._active:
                self._wakeup.notify()  # to give the released memory back when idle

    def set_threads(self, n_threads: int) -> None:
        with self._lock:
            self.n_threads = n_threads
            self._handle(SlotsChanged(stimulus_id="set-threads", n_slots=n_threads))
            self._wake_for_queue()
        self._ensure_threads()

    def get(self, key: Key) -> Any:
        if key in self.device_store:
            return self.device_store.get(key)
        return self.store.get(key)

    def memory_info(self) -> dict[str, Any]:
        """The limit, what the runtime holds, and the store's figures: bytes in memory
        and on disk, spill reads and writes."""
        rss = process_rss()
        budget = self._budget
        store = self.store.info()
        return {
            "memory_limit": None if budget is None else budget.limit,
            "rss": rss,
            "held_bytes": None if budget is None else budget.held(rss),
            **{k: store[k] for k in _STORE_FIGURES},
            # GPU chunks, on their devices: apart from the limit and the figures above
            **self.device_store.info(),
        }

    def close(self) -> None:
        with self._lock:
            self._closed = True
            for job in list(self._jobs.values()):
                self._handle(JobCancelled(stimulus_id="close", job_id=job.job_id))
            for job, error in list(self._failing.values()):
                self._end_job(job, error)
            self._failing.clear()
            self._wakeup.notify_all()
            self._gpu_wakeup.notify_all()
            self._memory_freed.notify_all()
        for thread in [*self._threads, *self._gpu_threads]:
            thread.join(timeout=5)
        self.store.close()
        self.device_store.clear()
        if self._budget is not None:
            heap.give_back()  # the spare blocks of its dropped chunks too
        if self._own_spill_dir is not None:
            shutil.rmtree(self._own_spill_dir, ignore_errors=True)
        self.runner.drop_blas_limit()

    # ---- inside the lock ------------------------------------------------------------

    def _handle(self, *events: SchedulerEvent) -> None:
        if self._in_handle:
            # re-entered by a garbage-collector finaliser in this thread; the outer call
            # processes the queued releases before it returns
            if events:
                raise RuntimeError("scheduler events submitted from inside the scheduler")
            return
        self._in_handle = True
        try:
            if events:
                self._apply(self.core.handle(*events))
            while self._pending_release:
                keys = self._pending_release.popleft()
                released = KeysReleased(stimulus_id="released-by-client", keys=keys)
                self._apply(self.core.handle(released))
        finally:
            self._in_handle = False

    def _apply(self, instructions: list[Instruction]) -> None:
        for inst in instructions:
            cls = type(inst)
            if cls is Execute:
                key = inst.key  # type: ignore[attr-defined]
                if self.core.on_gpu(key):
                    self._gpu_queue.append(key)
                    self._gpu_wakeup.notify()
                else:
                    # no notify here: the caller wakes only as many threads as have work
                    self._queue.append(key)
            elif cls is Interrupt:
                key = inst.key  # type: ignore[attr-defined]
                self.runner.interrupt(key)
                if self.core.task_state(key) is None:  # a queued copy is skipped, not run
                    self._tasks.pop(key, None)
            elif cls is Release:
                key = inst.key  # type: ignore[attr-defined]
                if self.device_store.pop(key) is None:
                    self.store.delete(key)
                self.shapes.pop(key, None)
            elif cls is JobFinished:
                self._end_job(self._jobs.pop(inst.job_id, None), None)  # type: ignore[attr-defined]
            elif cls is JobFailed:
                job = self._jobs.pop(inst.job_id, None)  # type: ignore[attr-defined]
                if job is not None:
                    job.failed_key = inst.key  # type: ignore[attr-defined]
                    if inst.key is not None and job.operators is not None:  # type: ignore[attr-defined]
                        inner = failed_key(inst.error, inst.key)  # type: ignore[attr-defined]
                        job.operators.failed_task(inst.key, inner)  # type: ignore[attr-defined]
                    # a cancellation ends at once; its running tasks are interrupted
                    if inst.key is not None and self._running.get(job.job_id):  # type: ignore[attr-defined]
                        self._failing[job.job_id] = (job, inst.error)  # type: ignore[attr-defined]
                    else:
                        self._end_job(job, inst.error)  # type: ignore[attr-defined]
                self._forget_dropped_tasks()

    def _forget_dropped_tasks(self) -> None:
        state = self.core.task_state
        for key in [k for k in self._tasks if state(k) not in _LIVE]:
            del self._tasks[key]

    def _end_job(self, job: JobHandle | None, error: BaseException | None) -> None:
        if job is None:
            return
        job.error = error
        if job.operators is not None:
            job.operators.ended()
        job.done.set()
        if not self._jobs_running():
            self.runner.drop_blas_limit()

    def _jobs_running(self) -> bool:
        return bool(self._jobs) or bool(self._failing)

    def _task_ended(self, job: JobHandle, key: Key) -> None:
        """One of ``job``'s tasks left its thread; a failed job ends with its last one."""
        self._n_running -= 1
        if self._budget is not None:
            self._budget.reserved -= self._reserved.pop(key, 0)
            for dep in self._pinned.pop(key, ()):
                if not self.core.readers_left(dep):  # read by all its readers: spill it first
                    self.store.demote(dep)
                self.store.unpin(dep)
            self._memory_freed.notify_all()
        left = self._running[job.job_id] - 1
        if left:
            self._running[job.job_id] = left
            return
        del self._running[job.job_id]
        failing = self._failing.pop(job.job_id, None)
        if failing is not None:
            self._end_job(*failing)

    # ---- pool threads -------------------------------------------------------------------

    def _ensure_threads(self) -> None:
        with self._lock:
            while len(self._threads) < self.n_threads:
                thread = threading.Thread(
                    target=self._work, name=f"mars-embedded-{len(self._threads)}", daemon=True
                )
                self._threads.append(thread)
                thread.start()
            for device in (self.gpu_devices or ())[len(self._gpu_threads) :]:
                thread = threading.Thread(
                    target=self._work_gpu,
                    args=(device,),
                    name=f"mars-embedded-gpu-{device}",
                    daemon=True,
                )
                self._gpu_threads.append(thread)
                thread.start()

    def _find_gpus(self) -> None:
        """The first job with a GPU task and no devices given: a GPU slot for every device
        CuPy sees (none where no GPU can be used: the core fails the job, saying why)."""
        self.gpu_devices = list(range(device_count()))
        self._handle(
            SlotsChanged("gpus-found", n_slots=self.n_threads, n_gpu_slots=len(self.gpu_devices))
        )
        self._ensure_threads()

    def _work_gpu(self, device: int) -> None:
        """A GPU slot: runs the GPU tasks the core starts, one at a time, on ``device``."""
        __tracebackhide__ = HIDE  # noqa: F841 - read by IPython and pytest
        serve(self)
        setup_error: BaseException | None = None
        try:
            use_device(device)
        except Exception as exc:  # noqa: BLE001 - each task it takes fails with it
            setup_error = exc
        lock = self._lock
        outcome: tuple[Key, JobHandle, Any, TaskTimes] | TaskFailed | None = None
        ran: tuple[JobHandle, Key] | None = None
        while True:
            with lock:
                if ran is not None:
                    self._last_busy = time.monotonic()
                self._settle(outcome, ran)
                outcome, ran = None, None
                while not self._gpu_queue:
                    if self._closed:
                        return
                    self._gpu_wakeup.wait()
                key = self._gpu_queue.popleft()
                entry = self._tasks.get(key)
                if entry is None:  # forgotten by a cancellation after it was queued
                    continue
                task, job = entry
                ran = (job, key)
                data, later, run = self._start(key, task, job)
                operators = job.operators
            outcome = self._run_started(
                key, job, operators, task, data, later, run, setup_error, on_device=True
            )
            del data

    def _rest(self) -> None:
        """Wait for work (lock held). The last thread to go idle after work, once
        ``heap.IDLE_GIVE_BACK`` seconds have passed since a task ended or a result was
        released, gives the memory the heaps keep back, outside the lock."""
        if not self._give_back_due or self._active:
            self._wakeup.wait()
            return
        left = self._last_busy + heap.IDLE_GIVE_BACK - time.monotonic()
        if left > 0:
            self._wakeup.wait(left)
            return  # the caller's loop comes back here while there is still no work
        self._give_back_due = False
        self._lock.release()
        try:
            heap.give_back()
        finally:
            self._lock.acquire()

    def _work(self) -> None:
        __tracebackhide__ = HIDE  # noqa: F841 - read by IPython and pytest
        serve(self)
        lock = self._lock
        outcome: tuple[Key, JobHandle, Any, TaskTimes] | TaskFailed | None = None
        """What the task this thread ran last gave: its result, or its failure."""
        ran: tuple[JobHandle, Key] | None = None
        """The job and key of the task this thread ran last, until that is recorded."""
        spill = 0
        """Bytes to spill, outside the lock, before the task at the queue's front fits."""
        with lock:
            self._active += 1
        while True:
            if spill:
                self._spill(spill)
                spill = 0
            with lock:
                if ran is not None:
                    self._last_busy = time.monotonic()
                self._settle(outcome, ran)
                outcome, ran = None, None
                while not self._queue or self._should_rest():
                    if self._closed:
                        self._active -= 1
                        return
                    self._active -= 1
                    self._idle += 1
                    self._rest()
                    self._idle -= 1
                    self._active += 1
                key = self._queue.popleft()
                self._give_back_due = True
                self._wake_for_queue()
                entry = self._tasks.get(key)
                if entry is None:  # forgotten by a cancellation after it was queued
                    continue
                task, job = entry
                owed = self._undrawn(key, task)
                if owed is not None:  # recorded as its recipe, for its first reader to draw
                    ran = (job, key)
                    _, _, run = self._start(key, task, job)
                    self.runner.end(run)
                    outcome = (key, job, owed, TaskTimes())
                    continue
                if self._budget is not None:
                    spill = self._admit(key, task)
                    if spill:  # no room yet: spill first, or wait for a task to end
                        self._queue.appendleft(key)
                        if spill < 0:
                            spill = 0
                            self._memory_freed.wait(_MEMORY_RECHECK)
                        continue
                ran = (job, key)
                data, later, run = self._start(key, task, job)
                operators = job.operators
            outcome = self._run_started(key, job, operators, task, data, later, run)
            del data

    def _settle(
        self,
        outcome: tuple[Key, JobHandle, Any, TaskTimes] | TaskFailed | None,
        ran: tuple[JobHandle, Key] | None,
    ) -> None:
        """Under the lock: what a slot's last task gave, recorded or reported, and the
        task counted as ended."""
        if isinstance(outcome, TaskFailed):
            self._handle(outcome)
        elif outcome is not None:
            self._record_or_fail(*outcome)
        if ran is not None:
            self._task_ended(*ran)

    def _start(self, key: Key, task: Any, job: JobHandle) -> tuple[dict[Key, Any], list[Key], Any]:
        """Under the lock: a task a slot took counted as running, its inputs at hand (and
        those to read back later), and its run registered, so that an Interrupt applied
        from now on reaches it."""
        self._running[job.job_id] = self._running.get(job.job_id, 0) + 1
        self._n_running += 1
        data, later = self._inputs(key, task)
        return data, later, self.runner.begin(key)

    def _run_started(
        self,
        key: Key,
        job: JobHandle,
        operators: OperatorStats | None,
        task: Any,
        data: dict[Key, Any],
        later: list[Key],
        run: Any,
        setup_error: BaseException | None = None,
        on_device: bool = False,
    ) -> tuple[Key, JobHandle, Any, TaskTimes] | TaskFailed | None:
        """Run a task a slot took, outside the lock: its result to record, its failure,
        or None where a cancellation interrupted it (the core forgot the key: a report
        would be taken for a later run of it). ``later``: inputs pinned in the store, read
        back here; ``setup_error``: why the slot cannot run tasks (a GPU it cannot use);
        ``on_device``: a GPU slot's task, whose inputs are put on its device first."""
        __tracebackhide__ = HIDE  # noqa: F841 - read by IPython and pytest
        if operators is not None:
            operators.started(key)
        try:
            if setup_error is not None:
                raise setup_error
            for dep in later:  # pinned: read back or drawn again here, not under the lock
                try:
                    data[dep] = self.store.get(dep, spill=False)
                except KeyError:
                    if run.interrupted:  # released by a cancellation meanwhile
                        raise TaskInterrupted(f"task {key!r} was interrupted") from None
                    raise
            if on_device:
                data = inputs_on_device(data)
            value, times = self.runner.run(run, task, data)
        except TaskInterrupted:
            if operators is not None:
                operators.stopped(key)
            return None
        except BaseException as exc:  # noqa: BLE001 - reported to the job, not raised here
            if operators is not None:
                operators.stopped(key)
            return TaskFailed(
                stimulus_id=f"task-failed-{key}",
                key=key,
                error=exc,
                retriable=isinstance(exc, RETRIABLE),
            )
        finally:
            del data
            self.runner.end(run)
        return (key, job, value, times)

    def _record_or_fail(self, key: Key, job: JobHandle, value: Any, times: TaskTimes) -> None:
        """``_record``, or, where a result cannot be recorded (its shape or size raising),
        the task's failure with that error: the thread must live on and the job end."""
        try:
            nbytes = sizeof(value)  # an ``Undrawn`` chunk's figures are its own
            shape = getattr(value, "shape", None)
        except Exception as exc:  # noqa: BLE001 - reported to the job
            if job.operators is not None:
                job.operators.stopped(key)
            self._handle(TaskFailed(f"task-failed-{key}", key=key, error=exc, retriable=False))
            return
        self._record(key, job, value, times, nbytes, shape)

    def _record(
        self, key: Key, job: JobHandle, value: Any, times: TaskTimes, nbytes: int, shape: Any
    ) -> None:
        """Store a finished task's result and tell the scheduler core (inside the lock)."""
        if job.operators is not None:
            job.operators.finished(key, times.seconds)
        if type(value) is Undrawn:
            self.store.put_undrawn(key, value.recompute, nbytes)
        elif is_device_array(value):  # device memory: not under the host limit
            self.device_store.put(key, value, nbytes)
        else:
            again = None
            if self._budget is not None:  # a chunk its task draws again is dropped, not spilled
                own = self._tasks.get(key)
                again = None if own is None else recipe(own[0])
            # never spills here, under the lock: the next admission does, outside it
            self.store.put(key, value, nbytes, spill=False, recompute=again)
            if self._budget is not None:
                self._budget.seen_result(nbytes)
        if shape is not None:
            self.shapes[key] = shape
        self._tasks.pop(key, None)
        job.n_done += 1
        self._handle(TaskFinished(stimulus_id="task-finished", key=key, nbytes=nbytes))

    # ---- memory (with a limit) -----------------------------------------------------------

    def _inputs(self, key: Key, task: Task) -> tuple[dict[Key, Any], list[Key]]:
        """The values of ``task``'s inputs in memory (inside the lock), and the inputs
        to read back from disk or draw again before it runs, outside the lock. With a
        limit they are all pinned until the task ends, so that no spill writes what a
        running task holds anyway."""
        store = self.store
        devices = self.device_store
        data: dict[Key, Any] = {}
        deps = []
        for dep in dict.fromkeys(task.dependencies):
            if dep in devices:  # released only once its readers are done: no pin needed
                data[dep] = devices.get(dep)
            else:
                deps.append(dep)
        if self._budget is None:
            data.update((dep, store.get(dep)) for dep in deps)
            return data, []
        for dep in deps:
            store.pin(dep)
        self._pinned[key] = tuple(deps)
        later: list[Key] = []
        for dep in deps:
            found, value = store.peek(dep)
            if found:
                data[dep] = value
            else:
                later.append(dep)
        return data, later

    def _held_first(self, graph: dict[Key, Task], priorities: dict[Key, int]) -> dict[Key, int]:
        """``priorities`` with the tasks that read only chunks held in memory now moved
        ahead of the rest (inside the lock). A pass over a held array larger than the
        limit would otherwise read the chunks on disk first, and each one read back
        would push out of memory a chunk still to be read: the least recently used is
        the next wanted."""
        in_memory = self.store.in_memory
        ahead = len(priorities)
        moved = dict(priorities)
        for key, task in graph.items():
            deps = task.dependencies
            if deps and all(dep not in graph and in_memory(dep) for dep in deps):
                moved[key] = priorities[key] - ahead
        return moved

    def _admit(self, key: Key, task: Task) -> int:
        """Whether ``key`` may start now (inside the lock): 0 when it may (its bytes are
        reserved), else the bytes to spill before it fits, or -1 to wait for a task to
        end."""
        budget = self._budget
        assert budget is not None
        store = self.store
        deps = set(task.dependencies)
        need = budget.largest_result + sum(
            store.nbytes(dep) for dep in deps if dep in store and not store.in_memory(dep)
        )
        # where it would not fit, the memory kept for reuse is given back and measured again
        rss = process_rss(trim_above=budget.roomy_below(need), live=True)
        # the chunks held count in full even where they reuse memory that was resident
        # before the runtime started (freed by earlier work, kept by the allocator)
        rss = max(rss, budget.baseline + store.memory_bytes())
        if not budget.fits(rss, need):
            if not self._spilling and store.reclaimable_bytes() > 0:
                self._spilling = True
                return max(1, budget.excess(rss, need))
            if self._n_running or self._spilling:
                return -1
            # nothing here can free memory: a task alone is the least the runtime can do
        budget.reserved += need
        self._reserved[key] = need
        return 0

    def _undrawn(self, key: Key, task: Task) -> Undrawn | None:
        """``key``'s chunk as its recipe (inside the lock), where there is a memory limit,
        nothing reads the chunk now and the store is full (``ChunkStore.is_full``): drawn,
        it would push out of memory another chunk drawn as cheaply, or be pushed out
        itself, before anyone read it. Its first reader draws it."""
        if self._budget is None or self.core.readers_left(key) or self.core.on_gpu(key):
            return None
        owed = undrawn(task)
        if owed is None or not self.store.is_full(owed.nbytes):
            return None
        return owed

    def _spill(self, nbytes: int) -> None:
        """Spill about ``nbytes`` of the least recently used chunks (outside the lock)."""
        try:
            if self.store.spill_memory(nbytes):
                heap.trim()  # what was spilled goes back to the system
        finally:
            with self._lock:
                self._spilling = False
                self._memory_freed.notify_all()

    # Tasks much shorter than a thread hand-off run faster on one thread than on several
    # contending for the lock and the GIL; longer ones (NumPy releases the GIL) run on all.
    def _parallel(self) -> bool:
        return not self.runner.tiny

    def _should_rest(self) -> bool:
        """Leave the queue to the other active threads while tasks are tiny."""
        return self._active > 1 and not self._parallel()

    def _wake_for_queue(self) -> None:
        wanted = self.n_threads if self._parallel() else 1
        n = min(self._idle, wanted - self._active, len(self._queue))
        if n > 0:
            self._wakeup.notify(n)
