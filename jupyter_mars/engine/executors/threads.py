"""The embedded runtime: the scheduler core driven by a pool of threads in this process.

There is no dispatcher thread. A pool thread that finishes a task takes the lock, feeds
the outcome to the scheduler core, carries out the instructions it gets back (queue tasks
to run, drop released data, finish jobs), picks the next queued task and runs it outside
the lock. Chunk data lives in ``store`` as plain objects; no copy, no serialisation.

Tasks run through the ``TaskRunner`` a worker uses too (``runner.py``): it decides whether
tasks are tiny enough for one thread, limits BLAS and OpenMP pools to
``max(1, n_cpu // threads)`` threads each while any job runs (so busy cores never exceed
``n_cpu``), and stops the tasks the scheduler core interrupts (a cancelled or failed job's),
whose threads then take the next queued task.
"""

from __future__ import annotations

import collections
import itertools
import threading
from typing import Any

from jupyter_mars.engine.executors.runner import TaskInterrupted, TaskRunner
from jupyter_mars.engine.graph import Key, Task, TaskTimes, failed_key
from jupyter_mars.engine.opstats import OperatorStats
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
from jupyter_mars.engine.tracebacks import HIDE

RETRIABLE = (MemoryError, ConnectionError, TimeoutError)
_LIVE = frozenset({"waiting", "ready", "running"})
_job_ids = itertools.count()


class JobHandle:
    """One submitted graph: counts its tasks and signals when it ends."""

    def __init__(self, job_id: str, n_tasks: int) -> None:
        self.job_id = job_id
        self.n_tasks = n_tasks
        self.n_done = 0
        self.error: BaseException | None = None
        self.failed_key: Key | None = None
        self.done = threading.Event()
        self.operators: OperatorStats | None = None
        """Chunks done, running and time spent per operator, when the runtime keeps them."""

    def wait(self, timeout: float | None = None) -> bool:
        return self.done.wait(timeout)


class ThreadRuntime:
    """Runs chunk graphs on ``n_threads`` threads of this process."""

    def __init__(self, n_threads: int, n_cpu: int | None = None) -> None:
        if n_threads < 1:
            raise ValueError(f"n_threads must be >= 1, got {n_threads}")
        self.n_threads = n_threads
        self.n_cpu = n_cpu or n_threads
        self.core = SchedulerState(n_slots=n_threads)
        self.store: dict[Key, Any] = {}
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
        self._pending_release: collections.deque[tuple[Key, ...]] = collections.deque()
        self._threads: list[threading.Thread] = []
        self._idle = 0
        self._active = 0
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
        event = GraphSubmitted(
            stimulus_id=f"submit-{job.job_id}",
            job_id=job.job_id,
            dependencies={k: tuple(t.dependencies) for k, t in graph.items()},
            outputs=outputs,
            priorities=priorities,
        )
        self._ensure_threads()
        with self._lock:
            if self._closed:
                raise RuntimeError("the session is closed")
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

    def set_threads(self, n_threads: int) -> None:
        with self._lock:
            self.n_threads = n_threads
            self._handle(SlotsChanged(stimulus_id="set-threads", n_slots=n_threads))
            self._wake_for_queue()
        self._ensure_threads()

    def get(self, key: Key) -> Any:
        return self.store[key]

    def close(self) -> None:
        with self._lock:
            self._closed = True
            for job in list(self._jobs.values()):
                self._handle(JobCancelled(stimulus_id="close", job_id=job.job_id))
            for job, error in list(self._failing.values()):
                self._end_job(job, error)
            self._failing.clear()
            self._wakeup.notify_all()
        for thread in self._threads:
            thread.join(timeout=5)
        self.store.clear()
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
                # no notify here: the caller wakes only as many threads as have work
                self._queue.append(inst.key)  # type: ignore[attr-defined]
            elif cls is Interrupt:
                key = inst.key  # type: ignore[attr-defined]
                self.runner.interrupt(key)
                if self.core.task_state(key) is None:  # a queued copy is skipped, not run
                    self._tasks.pop(key, None)
            elif cls is Release:
                key = inst.key  # type: ignore[attr-defined]
                self.store.pop(key, None)
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

    def _task_ended(self, job: JobHandle) -> None:
        """One of ``job``'s tasks left its thread; a failed job ends with its last one."""
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

    def _work(self) -> None:
        __tracebackhide__ = HIDE  # noqa: F841 - read by IPython and pytest
        lock = self._lock
        done: tuple[Key, JobHandle, Any, TaskTimes] | None = None
        failed: SchedulerEvent | None = None
        ran: JobHandle | None = None
        """The job whose task this thread ran last, until that is recorded."""
        with lock:
            self._active += 1
        while True:
            with lock:
                if done is not None:
                    self._record_or_fail(*done)
                    done = None
                elif failed is not None:
                    self._handle(failed)
                    failed = None
                if ran is not None:
                    self._task_ended(ran)
                    ran = None
                while not self._queue or self._should_rest():
                    if self._closed:
                        self._active -= 1
                        return
                    self._active -= 1
                    self._idle += 1
                    self._wakeup.wait()
                    self._idle -= 1
                    self._active += 1
                key = self._queue.popleft()
                self._wake_for_queue()
                entry = self._tasks.get(key)
                if entry is None:  # forgotten by a cancellation after it was queued
                    continue
                task, job = entry
                self._running[job.job_id] = self._running.get(job.job_id, 0) + 1
                ran = job
                store = self.store
                data = {dep: store[dep] for dep in task.dependencies}
                operators = job.operators
                # registered inside the lock: an Interrupt applied from now on reaches it
                run = self.runner.begin(key)
            if operators is not None:
                operators.started(key)
            try:
                value, times = self.runner.run(run, task, data)
            except TaskInterrupted:
                # the core forgot the key: a report would be taken for a later run of it
                if operators is not None:
                    operators.stopped(key)
                continue
            except BaseException as exc:  # noqa: BLE001 - reported to the job, not raised here
                if operators is not None:
                    operators.stopped(key)
                failed = TaskFailed(
                    stimulus_id=f"task-failed-{key}",
                    key=key,
                    error=exc,
                    retriable=isinstance(exc, RETRIABLE),
                )
                continue
            finally:
                del data
                self.runner.end(run)
            done = (key, job, value, times)
            del value

    def _record_or_fail(self, key: Key, job: JobHandle, value: Any, times: TaskTimes) -> None:
        """``_record``, or, where a result cannot be recorded (its shape or size raising),
        the task's failure with that error: the thread must live on and the job end."""
        try:
            nbytes = sizeof(value)
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
        self.store[key] = value
        if shape is not None:
            self.shapes[key] = shape
        self._tasks.pop(key, None)
        job.n_done += 1
        self._handle(TaskFinished(stimulus_id="task-finished", key=key, nbytes=nbytes))

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
