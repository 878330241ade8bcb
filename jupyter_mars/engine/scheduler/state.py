"""Scheduler core: a pure state machine that turns events into instructions.

Theory of operation
-------------------
``SchedulerState`` does no IO, starts no threads and never blocks. An IO shell (the
embedded runtime, the cluster supervisor) turns what happens into events
(:mod:`jupyter_mars.engine.scheduler.events`), feeds them to :meth:`SchedulerState.handle`
and carries out the instructions it returns
(:mod:`jupyter_mars.engine.scheduler.instructions`). Every instruction carries the
``stimulus_id`` of the event that caused it.

Keys are global across jobs. Each key the core knows has one ``TaskRecord`` record
(:mod:`~jupyter_mars.engine.scheduler.records`) in one of the states

``waiting``  some dependency is not in memory yet;
``ready``    every dependency is in memory; queued in the ready heap;
``running``  an ``Execute`` was emitted and no result has come back yet;
``memory``   the result is stored by the shell; ``Release`` is emitted when it is unneeded;
             when the data is lost (``KeysLost``) it goes back to ``waiting``/``ready``;
``erred``    failed for good; transient: it is forgotten in the same event, once every job
             that needed it has failed.

A key that is not in ``_tasks`` is *forgotten* (the pseudo-state ``"forgotten"`` is the
target of the transitions that remove a record). Every state change goes through
``SchedulerState._transition``, which dispatches on the ``(start, finish)`` pair through the
``TRANSITIONS`` table of :mod:`~jupyter_mars.engine.scheduler.transitions`; a pair missing
from the table is a bug and raises.

This module holds the class: its fields, the event dispatch (``_HANDLERS``, event type ->
handler), scheduling and the accessors. The larger handlers are free functions of the core
in modules of their own: ``submit.py`` (``GraphSubmitted``), ``lost.py`` (``KeysLost``),
``failures.py`` (``TaskFailed``, ``JobCancelled``); ``jobs.py`` ends jobs and applies the
release rule; ``validate.py`` checks the invariants. They read and write the fields below
directly: they are part of the core, split out only to keep each module one idea.

State fields of ``SchedulerState``
    ``_tasks: dict[Key, TaskRecord]``
        every known key -> its record.
    ``_jobs: dict[JobId, JobRecord]``
        live jobs: submitted and neither finished nor failed/cancelled.
    ``_ready: list[tuple[int, int, TaskRecord]]``
        heap of the ready CPU tasks, ``(job seq, token, task)`` with
        ``token = priority * 2**64 + counter`` (so it orders by priority, then push order,
        and is unique); entries go stale lazily (a task that left ``ready`` or was pushed
        again has another ``token``), and the heap is cleared whenever its pool has no
        ready task left.
    ``_gpu_ready``
        the same heap for the ready GPU tasks (``TaskRecord.gpu``).
    ``_n_ready``, ``_n_running``
        number of records in state ``ready`` / ``running``, CPU and GPU.
    ``_n_gpu_ready``, ``_n_gpu_running``
        the GPU records among them.
    ``_n_slots``, ``_n_gpu_slots``
        at most this many CPU / GPU tasks are started (``running``) at once. While there are
        CPU slots and no GPU slot (``lacks_gpu``), a job that needs a GPU task fails at once
        (``gpu.py``).
    ``_max_retries``
        retriable failures of one key that are retried before it errs.
    ``_seq``, ``_token``
        next job sequence number and next heap push counter (monotonic).
    ``_nbytes``
        sum of ``nbytes`` of the records in ``memory``.
    ``_out``, ``_stimulus_id``
        instructions produced by the current ``handle`` call and the event being handled.

A record is *needed* while it has ``jobs``, ``dependents``, ``holds`` or ``output_jobs``
(holds outside ``memory`` only after a loss); an unneeded ``waiting``/``ready`` record is
forgotten at once, an unneeded ``running`` record is forgotten with an ``Interrupt`` (its
slot is free at once; its late report is stale), and an unneeded memory record is released.
Work per event is proportional to the tasks and edges it touches: no event scans all tasks.
"""

from __future__ import annotations

from collections.abc import Callable
from heapq import heappop
from typing import Any, Final

from jupyter_mars.engine.scheduler.events import (
    GraphSubmitted,
    JobCancelled,
    JobId,
    Key,
    KeysLost,
    KeysReleased,
    SchedulerEvent,
    SlotsChanged,
    TaskFailed,
    TaskFinished,
)
from jupyter_mars.engine.scheduler.failures import handle_job_cancelled, handle_task_failed
from jupyter_mars.engine.scheduler.gpu import fail_jobs_without_gpu
from jupyter_mars.engine.scheduler.instructions import Instruction
from jupyter_mars.engine.scheduler.jobs import forget_unneeded
from jupyter_mars.engine.scheduler.lost import handle_keys_lost
from jupyter_mars.engine.scheduler.records import (
    FORGOTTEN,
    MEMORY,
    READY,
    RUNNING,
    JobRecord,
    TaskRecord,
)
from jupyter_mars.engine.scheduler.submit import handle_graph_submitted
from jupyter_mars.engine.scheduler.transitions import TRANSITIONS
from jupyter_mars.engine.scheduler.validate import check_invariants

__all__ = ["SchedulerState"]

_Handler = Callable[["SchedulerState", Any], None]


class SchedulerState:
    """The scheduler core. Feed events to :meth:`handle`, carry out what it returns."""

    __slots__ = (
        "_tasks",
        "_jobs",
        "_ready",
        "_gpu_ready",
        "_n_ready",
        "_n_running",
        "_n_gpu_ready",
        "_n_gpu_running",
        "_n_slots",
        "_n_gpu_slots",
        "_max_retries",
        "_seq",
        "_token",
        "_nbytes",
        "_out",
        "_stimulus_id",
    )

    def __init__(self, n_slots: int, max_retries: int = 3, n_gpu_slots: int = 0) -> None:
        if n_slots < 0:
            raise ValueError(f"n_slots must be >= 0, got {n_slots}")
        if n_gpu_slots < 0:
            raise ValueError(f"n_gpu_slots must be >= 0, got {n_gpu_slots}")
        if max_retries < 0:
            raise ValueError(f"max_retries must be >= 0, got {max_retries}")
        self._tasks: dict[Key, TaskRecord] = {}
        self._jobs: dict[JobId, JobRecord] = {}
        self._ready: list[tuple[int, int, TaskRecord]] = []
        self._gpu_ready: list[tuple[int, int, TaskRecord]] = []
        self._n_ready = 0
        self._n_running = 0
        self._n_gpu_ready = 0
        self._n_gpu_running = 0
        self._n_slots = n_slots
        self._n_gpu_slots = n_gpu_slots
        self._max_retries = max_retries
        self._seq = 0
        self._token = 0
        self._nbytes = 0
        self._out: list[Instruction] = []
        self._stimulus_id = ""

    # ------------------------------------------------------------------ entry point

    def handle(self, *events: SchedulerEvent) -> list[Instruction]:
        """Apply ``events`` in order and return the instructions they caused, in order.

        An invalid event (``ValueError``: unknown dependency, duplicate live job id,
        negative slot count) changes nothing; the instructions of the events before it in
        the same call are kept and returned by the next call (``handle()`` collects them).
        """
        handlers = _HANDLERS
        for event in events:
            handler = handlers.get(type(event))
            if handler is None:
                raise TypeError(f"not a scheduler event: {event!r}")
            self._stimulus_id = event.stimulus_id
            handler(self, event)
            if self._n_ready:
                self._schedule()
            elif self._ready or self._gpu_ready:
                self._ready.clear()  # only stale entries are left
                self._gpu_ready.clear()
        out = self._out
        self._out = []
        return out

    # ------------------------------------------------------------------ accessors

    def task_state(self, key: Key) -> str | None:
        """State of ``key`` (``"waiting"``, ``"ready"``, ...) or None when forgotten."""
        ts = self._tasks.get(key)
        return None if ts is None else ts.state

    def attempts(self, key: Key) -> int:
        """Runs of ``key`` its record has seen: one, plus one per retried machine fault;
        0 when forgotten."""
        ts = self._tasks.get(key)
        return 0 if ts is None else ts.retries + 1

    def owner(self, key: Key) -> JobId | None:
        """The job whose progress a run of ``key`` counts toward: the earliest live job
        that reached it while it was not in memory; None when no live job waits for it."""
        ts = self._tasks.get(key)
        if ts is None or not ts.jobs:
            return None
        return min(ts.jobs, key=lambda job: job.seq).job_id

    def retries_left(self, key: Key) -> int:
        """Machine faults of ``key`` the core still retries (``max_retries`` a record);
        at 0 the next one errs it."""
        ts = self._tasks.get(key)
        return 0 if ts is None else max(self._max_retries - ts.retries, 0)

    @property
    def n_running(self) -> int:
        return self._n_running

    @property
    def n_ready(self) -> int:
        return self._n_ready

    @property
    def n_slots(self) -> int:
        return self._n_slots

    @property
    def n_gpu_slots(self) -> int:
        return self._n_gpu_slots

    @property
    def n_gpu_running(self) -> int:
        """GPU tasks running (counted in ``n_running`` too)."""
        return self._n_gpu_running

    @property
    def lacks_gpu(self) -> bool:
        """Whether GPU tasks can never run here: there are CPU slots and no GPU slot. With
        no slot at all (a cluster before its first worker), they wait as CPU tasks do."""
        return not self._n_gpu_slots and self._n_slots > 0

    def on_gpu(self, key: Key) -> bool:
        """Whether ``key`` runs on a GPU slot (False when forgotten)."""
        ts = self._tasks.get(key)
        return ts is not None and ts.gpu

    @property
    def nbytes_in_memory(self) -> int:
        """Sum of the ``nbytes`` reported for the keys in memory."""
        return self._nbytes

    def holds(self, key: Key) -> int:
        """Client holds on ``key`` (0 for unknown keys)."""
        ts = self._tasks.get(key)
        return 0 if ts is None else ts.holds

    def readers_left(self, key: Key) -> int:
        """Tasks of live jobs that read ``key`` and have not finished yet (0 for unknown
        keys)."""
        ts = self._tasks.get(key)
        return 0 if ts is None else len(ts.dependents)

    def keys_in_memory(self) -> set[Key]:
        """Keys whose data the shell must keep (O(number of known keys))."""
        return {key for key, ts in self._tasks.items() if ts.state == MEMORY}

    def live_jobs(self) -> set[JobId]:
        """Jobs submitted and neither finished nor failed."""
        return set(self._jobs)

    def __repr__(self) -> str:
        return (
            f"<SchedulerState tasks={len(self._tasks)} jobs={len(self._jobs)} "
            f"ready={self._n_ready} running={self._n_running}/{self._n_slots} "
            f"gpu={self._n_gpu_running}/{self._n_gpu_slots}>"
        )

    # ------------------------------------------------------------------ event handlers
    # The small ones; the others are in submit.py, lost.py and failures.py.

    def _handle_task_finished(self, ev: TaskFinished) -> None:
        ts = self._tasks.get(ev.key)
        if ts is None or ts.state != RUNNING:
            return  # stale report (e.g. a duplicate); nothing to do
        ts.nbytes = ev.nbytes
        self._transition(ts, MEMORY)

    def _handle_keys_released(self, ev: KeysReleased) -> None:
        tasks = self._tasks
        for key in ev.keys:
            ts = tasks.get(key)
            if ts is None or ts.holds == 0:
                continue  # no hold: ignored (the client may race with a failed job)
            ts.holds -= 1
            if ts.holds == 0 and not ts.dependents and not ts.output_jobs:
                if ts.state == MEMORY:
                    self._transition(ts, FORGOTTEN)
                else:  # a lost result being recomputed for nobody else
                    forget_unneeded(self, (ts,))

    def _handle_slots_changed(self, ev: SlotsChanged) -> None:
        if ev.n_slots < 0:
            raise ValueError(f"n_slots must be >= 0, got {ev.n_slots}")
        n_gpu = ev.n_gpu_slots
        if n_gpu is not None and n_gpu < 0:
            raise ValueError(f"n_gpu_slots must be >= 0, got {n_gpu}")
        could_run = not self.lacks_gpu
        self._n_slots = ev.n_slots
        if n_gpu is not None:
            self._n_gpu_slots = n_gpu
        if could_run and self.lacks_gpu:
            # O(tasks), but only when GPU tasks can no longer run: their jobs fail
            fail_jobs_without_gpu(self, [ts for ts in self._tasks.values() if ts.gpu])

    # ------------------------------------------------------------------ helpers

    def _schedule(self) -> None:
        """Start ready tasks, best first, while slots of their kind are free."""
        heap = self._ready
        while (
            self._n_ready > self._n_gpu_ready
            and self._n_running - self._n_gpu_running < self._n_slots
        ):
            _, token, ts = heappop(heap)
            if ts.token == token and ts.state == READY:
                self._transition(ts, RUNNING)
        if self._n_ready == self._n_gpu_ready:
            heap.clear()
        heap = self._gpu_ready
        while self._n_gpu_ready and self._n_gpu_running < self._n_gpu_slots:
            _, token, ts = heappop(heap)
            if ts.token == token and ts.state == READY:
                self._transition(ts, RUNNING)
        if not self._n_gpu_ready:
            heap.clear()

    # ------------------------------------------------------------------ transitions

    def _transition(self, ts: TaskRecord, finish: str) -> None:
        """Move ``ts`` to ``finish`` through the transition table (the only way to)."""
        try:
            func = TRANSITIONS[ts.state, finish]
        except KeyError:
            raise AssertionError(
                f"impossible transition {ts.state} -> {finish} for {ts.key!r}"
            ) from None
        func(self, ts)

    # ------------------------------------------------------------------ invariants

    def validate_state(self) -> None:
        """Check every invariant (O(tasks + edges)); raise AssertionError on a violation."""
        check_invariants(self)


_HANDLERS: Final[dict[type[SchedulerEvent], _Handler]] = {
    TaskFinished: SchedulerState._handle_task_finished,
    GraphSubmitted: handle_graph_submitted,
    KeysReleased: SchedulerState._handle_keys_released,
    KeysLost: handle_keys_lost,
    TaskFailed: handle_task_failed,
    JobCancelled: handle_job_cancelled,
    SlotsChanged: SchedulerState._handle_slots_changed,
}
"""Event type -> handler, called with the core and the event."""
