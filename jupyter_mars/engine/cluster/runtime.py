"""The supervisor's runtime: the scheduler core driving tasks on worker processes.

It offers the interface of the embedded ``ThreadRuntime`` (``submit``, ``cancel``,
``release_keys``, ``get``, ``shapes``), so the engine session plans and runs executions on
a cluster with the same code. Every call from another thread is handed to the asyncio
loop, which alone touches the scheduler core, the worker table and the chunk metadata:
no locks.

Each ``Execute`` decision is placed on the worker with a free slot that holds most of the
task's input bytes (``placement.py``) and sent as an ``execute`` RPC; the reply carries the
result's size and shape, which become chunk metadata. A worker that cannot be reached is
removed; its running task is retried elsewhere.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import logging
from collections.abc import Callable
from typing import Any

from jupyter_mars.engine.cluster.placement import WorkerSlots, choose_worker
from jupyter_mars.engine.executors.threads import RETRIABLE, JobHandle
from jupyter_mars.engine.graph import Key, Task
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
    JobFailed,
    JobFinished,
    Release,
)
from jupyter_mars.engine.scheduler.state import SchedulerState

logger = logging.getLogger(__name__)
_job_ids = itertools.count()


class WorkerLost(ConnectionError):
    """The worker holding or computing a chunk went away."""


class WorkerConnection(WorkerSlots):
    """A registered worker: its slots, its RPC client and its last reported figures."""

    def __init__(self, address: str, n_slots: int, client: Any, order: int) -> None:
        super().__init__(address=address, n_slots=n_slots, order=order)
        self.client = client
        self.resources: dict[str, Any] = {}
        self.last_seen = 0.0


class ClusterRuntime:
    def __init__(self, loop: asyncio.AbstractEventLoop, max_retries: int = 3) -> None:
        self.loop = loop
        self.core = SchedulerState(n_slots=0, max_retries=max_retries)
        self.shapes: dict[Key, tuple[int, ...]] = {}
        self.locations: dict[Key, str] = {}
        self.sizes: dict[Key, int] = {}
        self.workers: dict[str, WorkerConnection] = {}
        self._tasks: dict[Key, tuple[Task, JobHandle]] = {}
        self._jobs: dict[str, JobHandle] = {}
        self._pending: collections.deque[Key] = collections.deque()
        self._order = itertools.count()
        self._background: set[asyncio.Future[Any]] = set()
        self.on_change: Callable[[], None] | None = None

    # ---- thread-safe interface used by the engine session -----------------------------

    def submit(
        self, graph: dict[Key, Task], outputs: tuple[Key, ...], priorities: dict[Key, int]
    ) -> JobHandle:
        job = JobHandle(f"job-{next(_job_ids)}", len(graph))
        self.loop.call_soon_threadsafe(self._submit, job, graph, outputs, priorities)
        return job

    def cancel(self, job: JobHandle) -> None:
        event = JobCancelled(stimulus_id=f"cancel-{job.job_id}", job_id=job.job_id)
        self.loop.call_soon_threadsafe(self._handle, event)

    def release_keys(self, keys: tuple[Key, ...]) -> None:
        event = KeysReleased(stimulus_id="released-by-client", keys=keys)
        if self.loop.is_closed():
            return
        self.loop.call_soon_threadsafe(self._handle, event)

    def get(self, key: Key) -> Any:
        """The data of ``key`` (from another thread than the loop's)."""
        return asyncio.run_coroutine_threadsafe(self.fetch(key), self.loop).result()

    async def fetch(self, key: Key) -> Any:
        address = self.locations.get(key)
        worker = self.workers.get(address) if address is not None else None
        if worker is None:
            raise WorkerLost(f"chunk {key!r} is not held by any live worker")
        data = await worker.client.call("get_data", keys=[key])
        return data[key]

    def close(self) -> None:
        for job in list(self._jobs.values()):
            self._handle(JobCancelled(stimulus_id="close", job_id=job.job_id))

    # ---- workers ----------------------------------------------------------------------

    def add_worker(self, address: str, n_slots: int, client: Any) -> WorkerConnection:
        worker = WorkerConnection(address, n_slots, client, next(self._order))
        self.workers[address] = worker
        self._slots_changed(f"worker-joined-{address}")
        return worker

    def remove_worker(self, address: str) -> None:
        worker = self.workers.pop(address, None)
        if worker is None:
            return
        logger.warning("worker %s is gone", address)
        for key in [k for k, where in self.locations.items() if where == address]:
            del self.locations[key]
        self._slots_changed(f"worker-lost-{address}")
        task = asyncio.ensure_future(worker.client.close())
        self._keep(task)

    def _slots_changed(self, stimulus_id: str) -> None:
        total = sum(w.n_slots for w in self.workers.values())
        self._handle(SlotsChanged(stimulus_id=stimulus_id, n_slots=total))
        self._dispatch_pending()

    # ---- on the loop ------------------------------------------------------------------

    def _submit(
        self,
        job: JobHandle,
        graph: dict[Key, Task],
        outputs: tuple[Key, ...],
        priorities: dict[Key, int],
    ) -> None:
        self._jobs[job.job_id] = job
        for key, task in graph.items():
            self._tasks.setdefault(key, (task, job))
        self._handle(
            GraphSubmitted(
                stimulus_id=f"submit-{job.job_id}",
                job_id=job.job_id,
                dependencies={k: tuple(t.dependencies) for k, t in graph.items()},
                outputs=outputs,
                priorities=priorities,
            )
        )

    def _handle(self, *events: SchedulerEvent) -> None:
        try:
            instructions = self.core.handle(*events)
        except (ValueError, TypeError):
            logger.exception("scheduler rejected events %s", events)
            return
        self._apply(instructions)

    def _apply(self, instructions: list[Instruction]) -> None:
        deletes: dict[str, list[Key]] = {}
        for inst in instructions:
            if isinstance(inst, Execute):
                self._dispatch(inst.key)
            elif isinstance(inst, Release):
                where = self.locations.pop(inst.key, None)
                self.sizes.pop(inst.key, None)
                self.shapes.pop(inst.key, None)
                if where is not None:
                    deletes.setdefault(where, []).append(inst.key)
            elif isinstance(inst, JobFinished):
                self._end_job(inst.job_id, None, None)
            elif isinstance(inst, JobFailed):
                self._end_job(inst.job_id, inst.key, inst.error)
        for address, keys in deletes.items():
            worker = self.workers.get(address)
            if worker is not None:
                self._keep(asyncio.ensure_future(self._delete(worker, keys)))
        if self.on_change is not None:
            self.on_change()

    def _end_job(self, job_id: str, key: Key | None, error: BaseException | None) -> None:
        job = self._jobs.pop(job_id, None)
        if job is None:
            return
        job.failed_key = key
        job.error = error
        job.done.set()
        if error is not None:
            live = {"waiting", "ready", "running"}
            for k in [k for k in self._tasks if self.core.task_state(k) not in live]:
                del self._tasks[k]

    def _dispatch(self, key: Key) -> None:
        entry = self._tasks.get(key)
        if entry is None:
            return
        task = entry[0]
        worker = choose_worker(task.dependencies, self.workers.values(), self.locations, self.sizes)
        if worker is None:
            self._pending.append(key)
            return
        worker.running += 1
        self._keep(asyncio.ensure_future(self._run_on(worker, key)))

    def _dispatch_pending(self) -> None:
        for _ in range(len(self._pending)):
            if not any(w.free > 0 for w in self.workers.values()):
                return
            self._dispatch(self._pending.popleft())

    async def _run_on(self, worker: WorkerConnection, key: Key) -> None:
        entry = self._tasks.get(key)
        if entry is None:
            worker.running -= 1
            return
        task, job = entry
        locations = {d: self.locations.get(d) for d in task.dependencies}
        event: SchedulerEvent
        try:
            reply = await worker.client.call("execute", key=key, task=task, locations=locations)
        except ConnectionError as exc:
            event = TaskFailed(
                stimulus_id=f"worker-lost-{worker.address}", key=key, error=exc, retriable=True
            )
            if not isinstance(exc, WorkerLost) and worker.address in self.workers:
                worker.running -= 1
                self.remove_worker(worker.address)
                self._handle(event)
                return
        except Exception as exc:  # noqa: BLE001 - a task error, reported to its job
            event = TaskFailed(
                stimulus_id=f"task-failed-{key}",
                key=key,
                error=exc,
                retriable=isinstance(exc, RETRIABLE),
            )
        else:
            self.locations[key] = worker.address
            self.sizes[key] = int(reply["nbytes"])
            if reply.get("shape") is not None:
                self.shapes[key] = tuple(reply["shape"])
            self._tasks.pop(key, None)
            job.n_done += 1
            event = TaskFinished(stimulus_id="task-finished", key=key, nbytes=self.sizes[key])
        worker.running -= 1
        self._handle(event)
        self._dispatch_pending()

    async def _delete(self, worker: WorkerConnection, keys: list[Key]) -> None:
        try:
            await worker.client.call("delete_data", keys=keys)
        except ConnectionError:
            pass  # the worker is gone, and its data with it

    def _keep(self, task: asyncio.Future[Any]) -> None:
        """Hold a reference to a background task until it ends (asyncio keeps weak ones)."""
        self._background.add(task)
        task.add_done_callback(self._background.discard)
