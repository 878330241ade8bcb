"""The supervisor's runtime: the scheduler core driving tasks on worker processes.

It offers the interface of the embedded ``ThreadRuntime`` (``submit``, ``cancel``,
``release_keys``, ``get``, ``shapes``), so the engine session plans and runs executions on
a cluster with the same code. Every call from another thread is handed to the asyncio
loop, which alone touches the scheduler core, the worker table and the chunk metadata:
no locks.

Each ``Execute`` decision is placed on the worker with a free slot that holds most of the
task's input bytes (``placement.py``) and sent as an ``execute`` RPC; a GPU task
(``Task.device == "gpu"``) only on a worker with a free GPU slot (``--cuda-devices``: one
per device), counted apart from its CPU slots, and the core knows the cluster's GPU slots
(``SlotsChanged``), so a job with a GPU task fails at once where workers have joined and
none has one. The reply carries the result's size and shape, which become chunk metadata.
An ``Interrupt`` (the task's job was cancelled or failed) frees its slot here at once and
sends ``cancel`` to its worker, which stops it and keeps none of its results; the reply of
the stopped call is ignored.

Lost workers (``losses.py``): a worker that dies or goes silent is removed; the chunks it
held are recomputed from the lineage (``lineage.py``) when anyone still needs them, and
the tasks it ran are retried elsewhere. A fetch of a lost chunk waits for its
recomputation. Every ``Release`` the core emits, and every job that ends, lets the lineage
drop the tasks nobody can need any more.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import logging
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from jupyter_mars.cluster.supervisor import losses
from jupyter_mars.cluster.supervisor.lineage import Lineage
from jupyter_mars.cluster.supervisor.losses import PROBE_TIMEOUT, NoWorkersError, WorkerLost
from jupyter_mars.cluster.supervisor.placement import WorkerSlots, choose_worker
from jupyter_mars.cluster.supervisor.planning import PlannedJob, held_cap, plan_job
from jupyter_mars.cluster.wire.errors import InputLost
from jupyter_mars.engine.devices import GPU
from jupyter_mars.engine.executors.threads import RETRIABLE
from jupyter_mars.engine.graph import Key, Task, failed_key
from jupyter_mars.engine.runtime import JobHandle
from jupyter_mars.engine.scheduler.events import (
    GraphSubmitted,
    JobCancelled,
    KeysLost,
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

__all__ = ["PROBE_TIMEOUT", "ClusterRuntime", "Lineage", "WorkerConnection", "WorkerLost"]

logger = logging.getLogger(__name__)
_job_ids = itertools.count()
_COMPUTING = frozenset({"waiting", "ready", "running"})


NO_WORKERS_TIMEOUT = 60.0
"""Seconds jobs wait for a worker to join a cluster that has none, before they fail."""

TASKS_IN_FLIGHT_PER_CORE = 2
"""Tasks sent to a worker per core: the next one waits in the worker's queue while the
current one runs, so the round trip to the supervisor overlaps with computing."""


class WorkerConnection(WorkerSlots):
    """A registered worker: its slots, its RPC client and its last reported figures."""

    def __init__(self, address: str, n_cpu: int, client: Any, order: int, n_gpu: int = 0) -> None:
        super().__init__(address=address, n_slots=n_cpu * TASKS_IN_FLIGHT_PER_CORE, order=order)
        self.n_cpu = n_cpu
        """Cores the worker runs tasks on (``--n-cpu``)."""
        self.n_gpu = n_gpu
        """CUDA devices the worker runs GPU tasks on (``--cuda-devices``)."""
        self.gpu = WorkerSlots(address, n_gpu * TASKS_IN_FLIGHT_PER_CORE, order=order)
        """Its GPU slots, placed on apart from the CPU ones."""
        self.gpu_tasks: set[Key] = set()
        """Keys in ``tasks`` that hold a GPU slot."""
        self.client = client
        self.instance = ""
        """The worker process's own id: another one on the same address is another worker."""
        self.resources: dict[str, Any] = {}
        self.last_seen = 0.0
        self.tasks: dict[Key, int] = {}
        """Key -> the attempt whose ``execute`` call to it is in flight (emptied when it is
        given up; a key leaves it when interrupted, and may come back as a later attempt)."""
        self.keys: set[Key] = set()
        """Chunks it holds, as far as the core is concerned."""


class ClusterRuntime:
    """The scheduler core's IO shell on the supervisor (see the module docstring).

    ``submit``, ``cancel``, ``release_keys`` and ``get`` may be called from any thread;
    everything else runs on ``loop``.
    """

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        max_retries: int = 2,
        probe_timeout: float = PROBE_TIMEOUT,
        no_workers_timeout: float = NO_WORKERS_TIMEOUT,
    ) -> None:
        self.loop = loop
        self.probe_timeout = probe_timeout
        self.no_workers_timeout = no_workers_timeout
        self._no_workers: asyncio.TimerHandle | None = None
        """Fails the jobs if no worker joins before it fires; set while there is none."""
        self.core = SchedulerState(n_slots=0, max_retries=max_retries)
        self.shapes: dict[Key, tuple[int, ...]] = {}
        self.locations: dict[Key, str] = {}
        self.sizes: dict[Key, int] = {}
        self.replicas: dict[Key, set[str]] = {}
        """Key -> workers that keep a copy of it (fetched for a task), besides its holder."""
        self.workers: dict[str, WorkerConnection] = {}
        self.lineage = Lineage()
        self._weights: dict[Key, int] = {}
        """Key -> how many chunk tasks its subgraph stands for (the job whose progress
        counts it is the core's ``owner``); dropped with its lineage."""
        self._jobs: dict[str, JobHandle] = {}
        self._job_keys: dict[str, tuple[Key, ...]] = {}
        """Live job -> the keys of its graph, checked for pruning when it ends."""
        self._recomputing: set[Key] = set()
        """Keys reported lost and not back in memory yet."""
        self._waiters: dict[Key, list[asyncio.Future[None]]] = {}
        """Key -> fetches waiting for it to be recomputed."""
        self._pending: collections.deque[Key] = collections.deque()
        self._task_seconds: float | None = None
        """Moving average of the seconds tasks take on workers (placement weighs moving
        inputs against waiting for their holder with it)."""
        self._followers: dict[Key, Key] = {}
        self._spread_of: dict[Key, collections.Counter[str]] = {}
        """An output of a live job that reads nothing -> how many of that job's such
        outputs each worker took (``placement.spread_out``)."""
        """Key -> the task sent along with it, run right after it on the same worker."""
        self._prefinished: dict[Key, tuple[WorkerConnection, dict[str, Any]]] = {}
        """Followers that ran before the core asked for them: where, and their figures."""
        self._order = itertools.count()
        self._attempts = itertools.count()
        self._background: set[asyncio.Future[Any]] = set()
        self._planner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mars-planning")
        """Coarsens submitted graphs away from the loop, one at a time (``planning.py``)."""
        self._planning: dict[str, tuple[JobHandle, Iterable[Key]]] = {}
        """Job being planned -> it and the keys of its graph."""
        self._cancelled_while_planning: set[str] = set()
        self._closed = False
        self.on_change: Callable[[], None] | None = None

    # ---- thread-safe interface used by the engine session -----------------------------

    def submit(
        self, graph: dict[Key, Task], outputs: tuple[Key, ...], priorities: dict[Key, int]
    ) -> JobHandle:
        job = JobHandle(f"job-{next(_job_ids)}", len(graph))
        self.loop.call_soon_threadsafe(self._plan, job, graph, outputs, priorities)
        return job

    def cancel(self, job: JobHandle) -> None:
        self.loop.call_soon_threadsafe(self._cancel, job.job_id)

    def release_keys(self, keys: tuple[Key, ...]) -> None:
        event = KeysReleased(stimulus_id="released-by-client", keys=keys)
        if self.loop.is_closed():
            return
        self.loop.call_soon_threadsafe(self._handle, event)

    def get(self, key: Key) -> Any:
        """The data of ``key`` (from another thread than the loop's)."""
        return asyncio.run_coroutine_threadsafe(self.fetch(key), self.loop).result()

    async def fetch(self, key: Key) -> Any:
        """The data of ``key``; a chunk lost with its worker is waited for (recomputed)."""
        while True:
            address = self.locations.get(key)
            worker = self.workers.get(address) if address is not None else None
            if worker is not None:
                try:
                    data = await worker.client.call("get_data", keys=[key])
                except ConnectionError:
                    if await losses.alive(self, worker):
                        raise
                    losses.give_up(self, worker)  # lost: its chunks are recomputed
                    continue
                except KeyError:
                    if self.locations.get(key) != address:
                        continue  # moved or recomputed meanwhile: read it where it is now
                    raise
                return data[key]
            if self.core.task_state(key) not in _COMPUTING:
                raise WorkerLost(f"chunk {key!r} was lost with its worker and is not recomputed")
            waiter = self.loop.create_future()
            self._waiters.setdefault(key, []).append(waiter)
            self._wait_for_workers()
            await waiter

    def close(self) -> None:
        if self._no_workers is not None:
            self._no_workers.cancel()
            self._no_workers = None
        for job in list(self._jobs.values()):
            self._handle(JobCancelled(stimulus_id="close", job_id=job.job_id))
        self._closed = True
        self._planner.shutdown(wait=False, cancel_futures=True)
        for job, _ in list(self._planning.values()):  # its planning may never report back
            self._end_planned(job, RuntimeError("the cluster runtime is closed"))
        for waiters in self._waiters.values():
            for waiter in waiters:
                if not waiter.done():
                    waiter.set_exception(RuntimeError("the cluster runtime is closed"))
        self._waiters.clear()

    @property
    def n_cpu(self) -> int:
        """The workers' cores together (read from any thread: ``list`` copies the table
        in one step)."""
        return sum(w.n_cpu for w in list(self.workers.values()))

    # ---- workers ----------------------------------------------------------------------

    def add_worker(self, address: str, n_cpu: int, client: Any, n_gpu: int = 0) -> WorkerConnection:
        worker = WorkerConnection(address, n_cpu, client, next(self._order), n_gpu)
        self.workers[address] = worker
        if self._no_workers is not None:
            self._no_workers.cancel()
            self._no_workers = None
        self._slots_changed(f"worker-joined-{address}")
        return worker

    def remove_worker(self, address: str) -> None:
        """Forget a worker (gone, or silent too long): recompute what it held and ran."""
        worker = self.workers.pop(address, None)
        if worker is None:
            return
        logger.warning("worker %s is gone", address)
        stimulus_id = f"worker-lost-{address}"
        lost, running = losses.take_out(worker, self.locations, self.sizes)
        self._handle(self._slots_event(stimulus_id))
        if lost:
            lineage = self.lineage.of(lost, self._forgotten)
            self._recomputing.update(lost)
            self._handle(KeysLost(stimulus_id=stimulus_id, keys=tuple(lost), lineage=lineage))
        for key in running:
            self._operators_of(key, "stopped")
        if running:
            self._handle(*(losses.death_of(self.core, key, stimulus_id) for key in running))
        self._dispatch_pending()
        self._keep(asyncio.ensure_future(worker.client.close()))
        self._wait_for_workers()

    def _wait_for_workers(self) -> None:
        """With work to do and no worker, give one ``no_workers_timeout`` seconds to join;
        else the jobs fail saying why, instead of waiting for ever."""
        if self.workers or self._no_workers is not None or self._closed:
            return
        if not self._jobs and not self._waiters:
            return
        logger.warning(
            "no workers: %d jobs wait up to %g s for one to join",
            len(self._jobs),
            self.no_workers_timeout,
        )
        self._no_workers = self.loop.call_later(self.no_workers_timeout, self._no_worker_came)

    def _no_worker_came(self) -> None:
        self._no_workers = None
        if self.workers:
            return

        def error() -> NoWorkersError:
            return NoWorkersError(
                f"the cluster has no workers: none joined within {self.no_workers_timeout:g} s."
                " Start workers with 'mars-worker -s <supervisor address>' (or scale the"
                " cluster up) and run it again"
            )

        logger.error(
            "no workers joined within %g s: failing %d jobs",
            self.no_workers_timeout,
            len(self._jobs),
        )
        for job in list(self._jobs.values()):
            self._handle(JobCancelled(stimulus_id="no-workers", job_id=job.job_id, error=error()))
        for waiters in self._waiters.values():  # fetches of chunks to recompute
            for waiter in waiters:
                if not waiter.done():
                    waiter.set_exception(error())
        self._waiters.clear()

    def _slots_event(self, stimulus_id: str) -> SlotsChanged:
        workers = self.workers.values()
        return SlotsChanged(
            stimulus_id=stimulus_id,
            n_slots=sum(w.n_slots for w in workers),
            n_gpu_slots=sum(w.gpu.n_slots for w in workers),
        )

    def _slots_changed(self, stimulus_id: str) -> None:
        self._handle(self._slots_event(stimulus_id))
        self._dispatch_pending()

    def _free_slot(self, worker: WorkerConnection, key: Key) -> None:
        """The slot, CPU or GPU, that ``key`` held on ``worker`` serves the next task."""
        if key in worker.gpu_tasks:
            worker.gpu_tasks.discard(key)
            worker.gpu.running -= 1
        else:
            worker.running -= 1

    # ---- on the loop ------------------------------------------------------------------

    def _forgotten(self, key: Key) -> bool:
        return self.core.task_state(key) is None

    def _plan(
        self,
        job: JobHandle,
        graph: dict[Key, Task],
        outputs: tuple[Key, ...],
        priorities: dict[Key, int],
    ) -> None:
        """Start coarsening ``graph`` on the planning thread; ``_submit`` takes it on."""
        if self._closed:
            self._end_planned(job, RuntimeError("the cluster runtime is closed"))
            return
        # A key the core knows already (another job's), or that a job planned meanwhile
        # may keep as a task, stays a task of its own, since other tasks may read it.
        planning = [keys for _, keys in self._planning.values()]
        known = frozenset(
            k
            for k in graph
            if self.core.task_state(k) is not None or any(k in keys for keys in planning)
        )
        n_cores = sum(w.n_cpu for w in self.workers.values())
        self._planning[job.job_id] = (job, graph.keys())
        locations, sizes = self.locations, self.sizes

        def locate(key: Key) -> tuple[str, int] | None:
            # called from the planning thread: a chunk that moves meanwhile costs a fetch
            where = locations.get(key)
            return None if where is None else (where, sizes.get(key, 0))

        caches = [w.resources.get("store", {}).get("cache_bytes") for w in self.workers.values()]
        planned = self.loop.run_in_executor(
            self._planner, plan_job, graph, outputs, known, n_cores, locate, held_cap(caches)
        )
        planned.add_done_callback(lambda done: self._submit(job, done, outputs, priorities))

    def _end_planned(self, job: JobHandle, error: BaseException) -> None:
        """End a job the core never saw with ``error``."""
        self._planning.pop(job.job_id, None)
        self._cancelled_while_planning.discard(job.job_id)
        self._jobs[job.job_id] = job
        self._apply([JobFailed(f"unplanned-{job.job_id}", job.job_id, None, error)], ())

    def _cancel(self, job_id: str) -> None:
        if job_id in self._planning:
            self._cancelled_while_planning.add(job_id)
            return
        self._handle(JobCancelled(stimulus_id=f"cancel-{job_id}", job_id=job_id))

    def _submit(
        self,
        job: JobHandle,
        planned: asyncio.Future[PlannedJob],
        outputs: tuple[Key, ...],
        priorities: dict[Key, int],
    ) -> None:
        if self._planning.pop(job.job_id, None) is None:
            return  # ended meanwhile (the runtime closed)
        cancelled = job.job_id in self._cancelled_while_planning
        self._cancelled_while_planning.discard(job.job_id)
        failure: BaseException | None = (
            RuntimeError("the cluster runtime is closed")
            if self._closed or planned.cancelled()
            else planned.exception()
        )
        if failure is not None:  # a graph that cannot be planned fails its job only
            self._end_planned(job, failure)
            return
        self._jobs[job.job_id] = job
        stimulus_id = f"submit-{job.job_id}"
        plan = planned.result()
        graph = plan.graph
        job.operators = plan.operators
        self._followers.update(plan.followers)
        self._job_keys[job.job_id] = tuple(graph)
        spread: collections.Counter[str] = collections.Counter()
        for key in outputs:
            task = graph.get(key)
            if task is not None and not task.dependencies:
                self._spread_of[key] = spread
        for key, task in graph.items():
            self.lineage.add(task)
            self._weights.setdefault(key, plan.weights[key])
        event = GraphSubmitted(
            stimulus_id=stimulus_id,
            job_id=job.job_id,
            dependencies={k: tuple(t.dependencies) for k, t in graph.items()},
            outputs=outputs,
            priorities={k: priorities[k] for k in graph if k in priorities},
            gpu_keys=frozenset(k for k, t in graph.items() if t.device == GPU),
        )
        try:
            instructions = self.core.handle(event)
        except ValueError as exc:  # e.g. it reads a result that was lost for good
            self._apply([JobFailed(event.stimulus_id, job.job_id, None, exc)], ())
            return
        self._apply(instructions, (event,))
        if cancelled:
            self._handle(JobCancelled(stimulus_id=f"cancel-{job.job_id}", job_id=job.job_id))
        self._wait_for_workers()

    def _handle(self, *events: SchedulerEvent) -> None:
        try:
            instructions = self.core.handle(*events)
        except (ValueError, TypeError):
            logger.exception("scheduler rejected events %s", events)
            return
        self._apply(instructions, events)

    def _apply(self, instructions: list[Instruction], events: Iterable[SchedulerEvent]) -> None:
        deletes: dict[str, list[Key]] = {}
        cancels: dict[str, list[Key]] = {}
        maybe_forgotten: list[Key] = []
        failures = False
        for inst in instructions:
            if isinstance(inst, Execute):
                self._dispatch(inst.key)
            elif isinstance(inst, Interrupt):
                worker = self._running_on(inst.key)
                if worker is not None:
                    # its slot serves the next task now; the call's reply will be ignored
                    del worker.tasks[inst.key]
                    self._free_slot(worker, inst.key)
                    self._operators_of(inst.key, "stopped")
                    cancels.setdefault(worker.address, []).append(inst.key)
                maybe_forgotten.append(inst.key)
            elif isinstance(inst, Release):
                key = inst.key
                where = self.locations.pop(key, None)
                self.sizes.pop(key, None)
                self.shapes.pop(key, None)
                maybe_forgotten.append(key)
                worker = self.workers.get(where) if where is not None else None
                if worker is not None:
                    worker.keys.discard(key)
                    deletes.setdefault(worker.address, []).append(key)
                for address in self.replicas.pop(key, ()):
                    if address in self.workers:
                        deletes.setdefault(address, []).append(key)
            elif isinstance(inst, JobFinished):
                maybe_forgotten.extend(self._end_job(inst.job_id, None, None))
            elif isinstance(inst, JobFailed):
                maybe_forgotten.extend(self._end_job(inst.job_id, inst.key, inst.error))
                failures = True
        for event in events:
            if isinstance(event, TaskFailed):
                maybe_forgotten.append(event.key)
                failures = True
            elif isinstance(event, KeysReleased):
                maybe_forgotten.extend(event.keys)
        if failures and self._recomputing:
            # a failure may drop lost results being recomputed, unseen from here
            gone = [k for k in self._recomputing if self._forgotten(k)]
            self._recomputing.difference_update(gone)
            maybe_forgotten.extend(gone)
        for key in self.lineage.prune(maybe_forgotten, self._forgotten):
            self._recomputing.discard(key)
            self._weights.pop(key, None)
        for address, keys in deletes.items():
            self._keep(asyncio.ensure_future(self._delete(self.workers[address], keys)))
        for address, keys in cancels.items():
            self._keep(asyncio.ensure_future(self._interrupt(self.workers[address], keys)))
        if cancels:
            self._dispatch_pending()
        if self._waiters:
            self._wake_waiters()
        if self.on_change is not None:
            self.on_change()

    def _wake_waiters(self) -> None:
        """Resume fetches whose chunk is back in memory, or will never be."""
        for key in [k for k in self._waiters if self.core.task_state(k) not in _COMPUTING]:
            for waiter in self._waiters.pop(key):
                if not waiter.done():
                    waiter.set_result(None)

    def _end_job(
        self, job_id: str, key: Key | None, error: BaseException | None
    ) -> tuple[Key, ...]:
        """Signal the job's end; return its graph's keys, which the core may have forgotten."""
        keys = self._job_keys.pop(job_id, ())
        for k in keys:
            self._followers.pop(k, None)
            self._spread_of.pop(k, None)
            ran = self._prefinished.pop(k, None)
            if ran is not None:  # a follower's result nobody asked for (the job was cancelled)
                self._discard_follower(ran[0], k)
        job = self._jobs.pop(job_id, None)
        if job is None:
            return keys
        job.failed_key = key
        job.error = error
        if job.operators is not None:
            if key is not None:
                job.operators.failed_task(key, failed_key(error, key) if error else None)
            job.operators.ended()
        job.done.set()
        return keys

    def _dispatch(self, key: Key) -> None:
        task = self.lineage.tasks.get(key)
        if task is None or self._closed:
            return
        ran = self._prefinished.pop(key, None)
        if ran is not None and self.workers.get(ran[0].address) is ran[0]:
            # it ran as a follower already: its result is there. Reported from the loop,
            # not from inside the core's current decision.
            self.loop.call_soon(self._follower_done, ran[0], key, ran[1])
            return
        on_gpu = task.device == GPU
        pools = [w.gpu for w in self.workers.values()] if on_gpu else self.workers.values()
        spread = self._spread_of.get(key)
        chosen = choose_worker(
            task.dependencies,
            pools,
            self.locations,
            self.sizes,
            self.replicas,
            self._task_seconds,
            spread,
        )
        if chosen is None:
            self._pending.append(key)
            return
        if spread is not None:
            spread[chosen.address] += 1
        worker = self.workers[chosen.address]
        chosen.running += 1
        if on_gpu:
            worker.gpu_tasks.add(key)
        attempt = worker.tasks[key] = next(self._attempts)
        self._operators_of(key, "started")
        self._keep(asyncio.ensure_future(self._run_on(worker, key, task, attempt)))

    def _running_on(self, key: Key) -> WorkerConnection | None:
        """The worker an ``execute`` call of ``key`` is in flight to, if any."""
        for worker in self.workers.values():
            if key in worker.tasks:
                return worker
        return None

    def _operators_of(self, key: Key, change: str) -> None:
        """Tell the per-operator figures of the job that owns ``key`` it ``started`` or
        ``stopped`` (given up, to be retried)."""
        owner = self._owner(key)
        if owner is not None and owner.operators is not None:
            getattr(owner.operators, change)(key)

    def _owner(self, key: Key) -> JobHandle | None:
        job_id = self.core.owner(key)
        return None if job_id is None else self._jobs.get(job_id)

    def _dispatch_pending(self) -> None:
        for _ in range(len(self._pending)):
            if not any(w.free > 0 or w.gpu.free > 0 for w in self.workers.values()):
                return
            self._dispatch(self._pending.popleft())

    def _follower_done(self, worker: WorkerConnection, key: Key, reply: dict[str, Any]) -> None:
        if self.workers.get(worker.address) is not worker:
            self._dispatch(key)  # lost with its worker: run it again
            return
        self._handle(self._finished(worker, key, reply))
        self._dispatch_pending()

    def _follower_of(self, key: Key) -> tuple[Key, Task] | None:
        follower = self._followers.get(key)
        if follower is None or self.core.task_state(follower) != "waiting":
            return None
        task = self.lineage.tasks.get(follower)
        return None if task is None else (follower, task)

    async def _run_on(self, worker: WorkerConnection, key: Key, task: Task, attempt: int) -> None:
        """Run ``key`` on ``worker`` and report the outcome, unless this ``attempt`` was
        given up (the worker lost) or interrupted meanwhile."""
        locations = {d: self.locations.get(d) for d in task.dependencies}
        event: SchedulerEvent
        then = self._follower_of(key)
        try:
            if None in locations.values():
                # an input was lost between the decision and now: retry once it is back
                raise InputLost(f"an input of task {key!r} was lost with its worker")
            # no task of a live job reads it (yet): a chunk held for later
            unread = then is None and self.core.readers_left(key) == 0
            reply = await worker.client.call(
                "execute", key=key, task=task, locations=locations, then=then, unread=unread
            )
        except ConnectionError as exc:
            if worker.tasks.get(key) != attempt:
                return  # the worker was given up meanwhile, and the task retried
            if not await losses.alive(self, worker):
                losses.give_up(self, worker)  # fails the task, among the worker's others
                return
            # The worker lives: a peer holding an input died under it. Find which, so that
            # the retry waits for the input to be recomputed.
            await losses.check_holders(self, worker, locations.values())
            if worker.tasks.get(key) != attempt:
                return
            event = TaskFailed(stimulus_id=f"input-lost-{key}", key=key, error=exc, retriable=True)
        except Exception as exc:  # noqa: BLE001 - a task error, reported to its job
            if worker.tasks.get(key) != attempt:
                return  # e.g. the worker's report that it stopped the task
            event = TaskFailed(
                stimulus_id=f"task-failed-{key}",
                key=key,
                error=exc,
                retriable=isinstance(exc, RETRIABLE),
            )
        else:
            alive = self.workers.get(worker.address) is worker
            if alive:
                for copied in reply.get("replicas", ()):
                    if copied in self.locations:  # else released meanwhile, and deleted there
                        self.replicas.setdefault(copied, set()).add(worker.address)
            if worker.tasks.get(key) != attempt:
                # given up for dead meanwhile: the result is not trusted; or interrupted
                # as it finished: the worker dropped the result, maybe not the follower's
                if alive and then is not None and reply.get("then") is not None:
                    self._discard_follower(worker, then[0])
                return
            if then is not None and reply.get("then") is not None:
                self._ran_ahead(worker, then[0], reply["then"])
            event = self._finished(worker, key, reply)
        del worker.tasks[key]
        self._free_slot(worker, key)
        if isinstance(event, TaskFailed):
            self._operators_of(key, "stopped")
        self._handle(event)
        self._dispatch_pending()

    def _ran_ahead(self, worker: WorkerConnection, key: Key, reply: dict[str, Any]) -> None:
        """A follower ran: keep its figures for when the core asks for it, if it will."""
        if self.core.task_state(key) == "waiting":
            self._prefinished[key] = (worker, reply)
        else:  # its job ended meanwhile
            self._discard_follower(worker, key)

    def _discard_follower(self, worker: WorkerConnection, key: Key) -> None:
        """Delete a follower's result from ``worker`` unless it is the chunk's record."""
        if self.locations.get(key) != worker.address:
            self._keep(asyncio.ensure_future(self._delete(worker, [key])))

    def _finished(self, worker: WorkerConnection, key: Key, reply: dict[str, Any]) -> TaskFinished:
        """Record that ``worker`` holds the result of ``key``, as ``reply`` describes it."""
        self.locations[key] = worker.address
        worker.keys.add(key)
        self.sizes[key] = int(reply["nbytes"])
        seconds = sum((reply.get("seconds") or {}).values())
        self._task_seconds = (
            seconds if self._task_seconds is None else 0.8 * self._task_seconds + 0.2 * seconds
        )
        if reply.get("shape") is not None:
            self.shapes[key] = tuple(reply["shape"])
        self._recomputing.discard(key)
        owner = self._owner(key)  # asked before the core learns the key is in memory
        if owner is not None:
            owner.n_done += self._weights.get(key, 1)
            if owner.operators is not None:
                owner.operators.finished(key, reply.get("seconds") or {})
        return TaskFinished(stimulus_id="task-finished", key=key, nbytes=self.sizes[key])

    async def _interrupt(self, worker: WorkerConnection, keys: list[Key]) -> None:
        try:
            await worker.client.call("cancel", keys=keys)
        except ConnectionError:
            pass  # the worker is gone, and its tasks with it

    async def _delete(self, worker: WorkerConnection, keys: list[Key]) -> None:
        try:
            await worker.client.call("delete_data", keys=keys)
        except ConnectionError:
            pass  # the worker is gone, and its data with it

    def _keep(self, task: asyncio.Future[Any]) -> None:
        """Hold a reference to a background task until it ends (asyncio keeps weak ones)."""
        self._background.add(task)
        task.add_done_callback(self._background.discard)
