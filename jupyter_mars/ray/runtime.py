"""The Ray runtime: the scheduler core driving chunk tasks as Ray tasks.

It offers the engine's ``Runtime`` protocol (``engine/runtime.py``), so the engine session
plans and runs executions on Ray with the same code as on the embedded runtime and on a
cluster. What differs is where tasks run and where chunks live:

- a submitted stage is coarsened as the cluster's supervisor coarsens it
  (``engine/optimize.py`` ``coarsen``, capped by ``subgraph_cap`` for the Ray cluster's
  cores), so that one Ray task computes many small chunks and the driver's cost per chunk
  stays far below a millisecond;
- each ``Execute`` the core decides becomes ``run_chunk.remote(task, keys, *refs)``
  (``tasks.py``), whose arguments are the ``ObjectRef`` s of the input chunks: Ray
  resolves them, moving chunks between nodes itself;
- a chunk's data stays in Ray's object store; the runtime holds its ``ObjectRef``
  (``object_ref``) until the core releases the key, and dropping the last ref lets Ray
  free it;
- ``Interrupt`` (a cancelled or failed job's running task) becomes ``ray.cancel``, and a
  task that does not stop has its worker killed (``flights.py``).

One driver thread waits on the small metadata refs of the tasks in flight (``ray.wait``)
and feeds what finished or failed to the core. Calls from other threads (``submit``,
``cancel``, ``release_keys``) take the lock, feed their event and submit the tasks the core
starts themselves: a Ray submission is thread-safe and cheap. The core's slots (the tasks
in flight) are ``SLOTS_PER_CPU`` times the cluster's CPUs, so Ray always has the next
task queued on each core while the driver never floods it; the driver checks the
cluster's CPUs now and then, so slots follow nodes that join or leave.

Failures: an exception raised by a chunk function reaches the job as itself (unwrapped
from ``RayTaskError``). A worker or node that dies is Ray's to handle first: its tasks run
again (``max_retries``) and chunks lost with a node are rebuilt from their lineage when
read; what Ray gives up on is reported to the core as retriable.
"""

from __future__ import annotations

import collections
import itertools
import threading
import time
from typing import Any

import ray

from jupyter_mars.engine.devices import GPU
from jupyter_mars.engine.graph import Key, Task, failed_key
from jupyter_mars.engine.opstats import OperatorStats
from jupyter_mars.engine.optimize import coarsen, subgraph_cap
from jupyter_mars.engine.runtime import JobHandle
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
from jupyter_mars.ray.failures import task_error
from jupyter_mars.ray.flights import WAIT_SECONDS, Flight, Flights, outcome, wait
from jupyter_mars.ray.tasks import run_chunk

SLOTS_PER_CPU = 2
"""Tasks in flight per CPU of the Ray cluster: the next one waits in Ray's queue while the
current one runs, so the driver's round trip overlaps with computing."""

CPU_CHECK_SECONDS = 5.0
"""How often the driver asks Ray for the cluster's CPUs (nodes join and leave)."""

_job_ids = itertools.count()


def cluster_cpus() -> int:
    """The CPUs of the Ray cluster this process is connected to (at least 1)."""
    resources: dict[str, float] = ray.cluster_resources()
    return max(1, int(resources.get("CPU", 1)))


class RayRuntime:
    """Runs chunk graphs as Ray tasks on the Ray cluster this process is connected to
    (see the module docstring). ``max_retries``: the core's retries of a task that failed
    for a retriable reason, after Ray's own."""

    def __init__(self, max_retries: int = 2) -> None:
        if not ray.is_initialized():
            raise RuntimeError("Ray is not initialised: call ray.init() or new_ray_session()")
        self._n_cpu = cluster_cpus()
        self.core = SchedulerState(n_slots=self._n_cpu * SLOTS_PER_CPU, max_retries=max_retries)
        self.shapes: dict[Key, tuple[int, ...]] = {}
        self._refs: dict[Key, ray.ObjectRef[Any]] = {}
        """Chunks in memory -> the ref of their data in Ray's object store."""
        self._sizes: dict[Key, int] = {}
        self._tasks: dict[Key, Task] = {}
        """Coarse tasks the core may still start (dropped when they finish or are forgotten)."""
        self._weights: dict[Key, int] = {}
        """Coarse task -> how many chunk tasks of its stage it stands for."""
        self._jobs: dict[str, JobHandle] = {}
        self._job_keys: dict[str, tuple[Key, ...]] = {}
        self._flights = Flights()
        """The Ray tasks in flight, and the interrupted ones that may still run."""
        self._adopted: dict[Key, tuple[ray.ObjectRef[Any], tuple[int, ...] | None, int]] = {}
        """Keys given by ``adopt`` and not yet in memory: ref, shape and bytes."""
        self._later: list[SchedulerEvent] = []
        """Events found while applying instructions, handled once they are applied."""
        self._lock = threading.RLock()
        self._wakeup = threading.Condition(self._lock)
        self._in_handle = False
        self._pending_release: collections.deque[tuple[Key, ...]] = collections.deque()
        self._closed = False
        self._driver = threading.Thread(target=self._drive, name="mars-ray-driver", daemon=True)
        self._driver.start()

    @property
    def n_cpu(self) -> int:
        """The Ray cluster's CPUs, as last checked."""
        return self._n_cpu

    # ---- the Runtime protocol, from any thread ----------------------------------------

    def submit(
        self, graph: dict[Key, Task], outputs: tuple[Key, ...], priorities: dict[Key, int]
    ) -> JobHandle:
        job = JobHandle(f"job-{next(_job_ids)}", len(graph))
        with self._lock:
            if self._closed:
                raise RuntimeError("the session is closed")
            # a key the core knows (another job's) stays a task of its own: others read it
            known = {k for k in graph if self.core.task_state(k) is not None}
            cap = subgraph_cap(len(graph), self._n_cpu)
            coarse, weights = coarsen(graph, {*outputs, *known}, cap)
            job.operators = OperatorStats(coarse)
            self._jobs[job.job_id] = job
            self._job_keys[job.job_id] = tuple(coarse)
            for key, task in coarse.items():
                if key not in known:
                    self._tasks.setdefault(key, task)
                    self._weights.setdefault(key, weights[key])
            event = GraphSubmitted(
                stimulus_id=f"submit-{job.job_id}",
                job_id=job.job_id,
                dependencies={k: tuple(t.dependencies) for k, t in coarse.items()},
                outputs=outputs,
                priorities={k: priorities[k] for k in coarse if k in priorities},
                gpu_keys=frozenset(k for k, t in coarse.items() if t.device == GPU),
            )
            try:
                self._handle(event)
            except ValueError as exc:  # it reads a chunk released meanwhile, say
                self._end_job(job.job_id, None, exc)
        return job

    def cancel(self, job: JobHandle) -> None:
        with self._lock:
            if job.job_id in self._jobs:
                self._handle(JobCancelled(stimulus_id=f"cancel-{job.job_id}", job_id=job.job_id))

    def release_keys(self, keys: tuple[Key, ...]) -> None:
        """Drop one hold on each key. Safe to call from a garbage-collector finaliser: a
        release that comes while this thread is inside the core is handled when it
        leaves."""
        self._pending_release.append(keys)
        with self._lock:
            if not self._closed:
                self._handle()

    def get(self, key: Key) -> Any:
        """The data of chunk ``key``, fetched from Ray's object store (rebuilt from its
        lineage first if it was lost with a node)."""
        return ray.get(self.object_ref(key))

    def object_ref(self, key: Key) -> ray.ObjectRef[Any]:
        """The ref of the data of chunk ``key``, held in memory; ``KeyError`` if it is not."""
        with self._lock:
            return self._refs[key]

    def adopt(
        self, key: Key, ref: ray.ObjectRef[Any], shape: tuple[int, ...] | None, nbytes: int = 0
    ) -> None:
        """Hold ``ref`` as the data of chunk ``key``, as if a task had computed it: graphs
        read it as any held chunk, without a copy. The hold is the caller's, dropped with
        ``release_keys((key,))``. ``KeyError`` if the runtime knows ``key`` already."""
        with self._lock:
            if self._closed:
                raise RuntimeError("the session is closed")
            if self.core.task_state(key) is not None or key in self._adopted:
                raise KeyError(f"chunk {key!r} is held already")
            self._adopted[key] = (ref, shape, nbytes)
            job_id = f"adopt-{next(_job_ids)}"
            event = GraphSubmitted(
                stimulus_id=job_id, job_id=job_id, dependencies={key: ()}, outputs=(key,)
            )
            self._handle(event)  # its Execute is met at once (``_apply``)

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            for job_id in list(self._jobs):
                self._handle(JobCancelled(stimulus_id="close", job_id=job_id))
            self._closed = True
            self._flights.kill_stopping()  # no driver to wait for them now
            self._refs.clear()
            self._adopted.clear()
            self._tasks.clear()
            self._wakeup.notify_all()
        self._driver.join(timeout=5)

    def counts(self) -> dict[str, int]:
        """Chunks held in Ray's object store (and their bytes) and tasks in flight."""
        with self._lock:
            return {
                "held": len(self._refs),
                "held_bytes": sum(self._sizes.values()),
                "in_flight": len(self._flights.running),
            }

    # ---- inside the lock ------------------------------------------------------------

    def _handle(self, *events: SchedulerEvent) -> None:
        if self._in_handle:
            # re-entered by a garbage-collector finaliser in this thread; the outer call
            # handles the queued releases before it returns
            if events:
                raise RuntimeError("scheduler events submitted from inside the scheduler")
            return
        self._in_handle = True
        try:
            queue = list(events)
            while queue or self._pending_release:
                if queue:
                    self._apply(self.core.handle(*queue))
                    queue = self._later
                    self._later = []
                    continue
                keys = self._pending_release.popleft()
                self._apply(self.core.handle(KeysReleased("released-by-client", keys=keys)))
                queue, self._later = self._later, []
        finally:
            self._in_handle = False

    def _apply(self, instructions: list[Instruction]) -> None:
        for inst in instructions:
            if isinstance(inst, Execute):
                self._execute(inst.key)
            elif isinstance(inst, Interrupt):
                self._interrupt(inst.key)
            elif isinstance(inst, Release):
                self._refs.pop(inst.key, None)
                self._sizes.pop(inst.key, None)
                self.shapes.pop(inst.key, None)
                self._forget_if_gone(inst.key)
            elif isinstance(inst, JobFinished):
                self._end_job(inst.job_id, None, None)
            elif isinstance(inst, JobFailed):
                self._end_job(inst.job_id, inst.key, inst.error)

    def _execute(self, key: Key) -> None:
        adopted = self._adopted.pop(key, None)
        if adopted is not None:
            ref, shape, nbytes = adopted
            self._refs[key] = ref
            if shape is not None:
                self.shapes[key] = shape
            self._later.append(TaskFinished(stimulus_id="adopted", key=key, nbytes=nbytes))
            return
        task = self._tasks[key]
        keys = tuple(task.dependencies)
        try:
            refs = [self._refs[dep] for dep in keys]
            value, meta = run_chunk.remote(task, keys, *refs)
        except BaseException as exc:  # noqa: BLE001 - e.g. a task Ray cannot pickle
            self._later.append(TaskFailed(f"submit-failed-{key}", key, exc, retriable=False))
            return
        self._flights.start(key, value, meta)
        self._operators_of(key, "started")
        self._wakeup.notify()

    def _interrupt(self, key: Key) -> None:
        if self._flights.interrupt(key):
            self._operators_of(key, "stopped")
            self._wakeup.notify()  # the driver watches it until it stops
        self._forget_if_gone(key)

    def _forget_if_gone(self, key: Key) -> None:
        if self.core.task_state(key) is None:
            self._tasks.pop(key, None)
            self._weights.pop(key, None)

    def _end_job(self, job_id: str, key: Key | None, error: BaseException | None) -> None:
        for k in self._job_keys.pop(job_id, ()):
            self._forget_if_gone(k)
        job = self._jobs.pop(job_id, None)
        if job is None:
            return
        job.failed_key = key
        job.error = error
        if job.operators is not None:
            if key is not None:
                job.operators.failed_task(key, failed_key(error, key) if error else None)
            job.operators.ended()
        job.done.set()

    def _owner(self, key: Key) -> JobHandle | None:
        job_id = self.core.owner(key)
        return None if job_id is None else self._jobs.get(job_id)

    def _operators_of(self, key: Key, change: str) -> None:
        owner = self._owner(key)
        if owner is not None and owner.operators is not None:
            getattr(owner.operators, change)(key)

    def _finished(self, flight: Flight, meta: dict[str, Any]) -> TaskFinished:
        key = flight.key
        self._refs[key] = flight.value
        nbytes = int(meta["nbytes"])
        self._sizes[key] = nbytes
        if meta["shape"] is not None:
            self.shapes[key] = meta["shape"]
        owner = self._owner(key)  # asked before the core learns the key is in memory
        if owner is not None:
            owner.n_done += self._weights.get(key, 1)
            if owner.operators is not None:
                owner.operators.finished(key, meta["seconds"])
        self._tasks.pop(key, None)
        return TaskFinished(stimulus_id="task-finished", key=key, nbytes=nbytes)

    # ---- the driver thread ----------------------------------------------------------

    def _drive(self) -> None:
        checked = 0.0
        clock = threading.Event()  # only its wait: a sleep that close() need not break
        while True:
            with self._lock:
                while not self._flights.busy() and not self._closed:
                    self._wakeup.wait(CPU_CHECK_SECONDS)
                    checked = self._check_cpus(checked)
                if self._closed:
                    return
            # one step in a method of its own: its locals, refs among them, go when it
            # returns, and a chunk released meanwhile is not kept alive by this thread
            if not self._step():
                clock.wait(WAIT_SECONDS)
            with self._lock:
                checked = self._check_cpus(checked)

    def _step(self) -> bool:
        """Wait a moment for tasks in flight and report those that ended; False where
        Ray could not be asked (disconnected: ``close()`` follows)."""
        with self._lock:
            waiting = self._flights.waiting()
        try:
            ready = wait(waiting)
        except Exception:  # noqa: BLE001 - reported by the caller
            return False
        with self._lock:
            self._flights.settle_stopping(ready)
            ready = [meta for meta in ready if meta in self._flights.by_meta]
        outcomes = [(meta, outcome(meta)) for meta in ready]
        with self._lock:
            events: list[SchedulerEvent] = []
            for meta, result in outcomes:
                flight = self._flights.land(meta)
                if flight is None:
                    continue  # interrupted meanwhile: nobody wants it
                if isinstance(result, BaseException):
                    self._operators_of(flight.key, "stopped")
                    error, retriable = task_error(result)
                    events.append(
                        TaskFailed(f"task-failed-{flight.key}", flight.key, error, retriable)
                    )
                else:
                    events.append(self._finished(flight, result))
            if events and not self._closed:
                self._handle(*events)
        return True

    def _check_cpus(self, checked: float) -> float:
        """Every ``CPU_CHECK_SECONDS``: the slots follow the cluster's CPUs."""
        now = time.monotonic()
        if now - checked < CPU_CHECK_SECONDS or self._closed:
            return checked
        try:
            n_cpu = cluster_cpus()
        except Exception:  # noqa: BLE001 - Ray disconnected: close() follows
            return now
        if n_cpu != self._n_cpu:
            self._n_cpu = n_cpu
            self._handle(SlotsChanged("ray-cpus-changed", n_slots=n_cpu * SLOTS_PER_CPU))
        return now
