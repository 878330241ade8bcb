"""Scheduler core: a pure state machine that turns events into instructions.

Theory of operation
-------------------
``SchedulerState`` does no IO, starts no threads and never blocks. An IO shell (the
embedded runtime, the cluster supervisor) turns what happens into events
(:mod:`jupyter_mars.engine.scheduler.events`), feeds them to :meth:`SchedulerState.handle`
and carries out the instructions it returns
(:mod:`jupyter_mars.engine.scheduler.instructions`). Every instruction carries the
``stimulus_id`` of the event that caused it.

Keys are global across jobs. Each key the core knows has one ``_Task`` record in one of
the states

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
``_TRANSITIONS`` table; a pair missing from the table is a bug and raises.

State fields of ``SchedulerState``
    ``_tasks: dict[Key, _Task]``
        every known key -> its record.
    ``_jobs: dict[JobId, _Job]``
        live jobs: submitted and neither finished nor failed/cancelled.
    ``_ready: list[tuple[int, int, _Task]]``
        heap of ``(job seq, token, task)`` with ``token = priority * 2**64 + counter``
        (so it orders by priority, then push order, and is unique); entries go stale
        lazily (a task that left ``ready`` or was pushed again has another ``token``), and
        the whole heap is cleared whenever ``_n_ready`` drops to 0.
    ``_n_ready``, ``_n_running``
        number of records in state ``ready`` / ``running``.
    ``_n_slots``
        at most this many tasks are started (``running``) at once.
    ``_max_retries``
        retriable failures of one key that are retried before it errs.
    ``_seq``, ``_token``
        next job sequence number and next heap push counter (monotonic).
    ``_nbytes``
        sum of ``nbytes`` of the records in ``memory``.
    ``_out``, ``_stimulus_id``
        instructions produced by the current ``handle`` call and the event being handled.
    ``_handlers``
        event type -> bound handler method.

Per-task record ``_Task`` (``__slots__``)
    ``deps``         records this task reads (deduplicated); emptied once it is in memory;
    ``waiting_on``   how many of ``deps`` are not in memory (0 when it became ready; a
                     running task counts an input lost while it runs, and waits for it
                     if it is retried);
    ``dependents``   records *not in memory* that read this key (they pin its data); a
                     dict used as an ordered set, so the core is deterministic;
    ``jobs``         live jobs whose submission walk reached this key while it was not in
                     memory (cleared when the key reaches memory);
    ``output_jobs``  live unfinished jobs that have this key as an output (pins its data);
    ``holds``        references owned by the client (one per output entry of each finished
                     job), dropped by ``KeysReleased``; kept when the data is lost, so a
                     record outside ``memory`` is held only while it is recomputed;
    ``seq``/``priority``/``token``  ready-heap ordering; ``retries``; ``nbytes``.

Submission walks back from the job's outputs through ``dependencies`` and stops at keys
the core already knows: a key in memory is reused, a waiting/ready/running key is shared
(the job joins it). Tasks of the graph that the walk does not reach are ignored. The graph
must be acyclic; this is not checked (the tasks of a cycle would wait forever).

A record is *needed* while it has ``jobs``, ``dependents``, ``holds`` or ``output_jobs``
(holds outside ``memory`` only after a loss); an unneeded ``waiting``/
``ready`` record is forgotten at once, an unneeded ``running`` record (an orphan) keeps
running and its result is released when it arrives, and an unneeded memory record is
released.

``KeysLost`` (a worker died with the data): each lost key in memory goes back to
computing with its holds, dependents and output jobs (those jobs miss it again); its deps
come from the event's ``lineage``, which also re-creates the ancestors the core forgot
(known ones are shared, as at submission). Waiting, ready and running dependents count
one more missing input; a ready one goes back to waiting. When a key errs, everything
that needs it through dependents fails with it: the jobs fail, holds on lost results
being recomputed are dropped (they cannot come back) and running dependents are cut from
it and left to finish as orphans. Work per event is proportional to the tasks and edges
it touches: no event scans all tasks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import CancelledError
from heapq import heappop, heappush
from typing import Any, ClassVar

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
from jupyter_mars.engine.scheduler.instructions import (
    Execute,
    Instruction,
    JobFailed,
    JobFinished,
    Release,
)
from jupyter_mars.engine.scheduler.records import (
    _TOKEN_SPAN,
    ERRED,
    FORGOTTEN,
    MEMORY,
    READY,
    RUNNING,
    WAITING,
    _Job,
    _needed,
    _Task,
)
from jupyter_mars.engine.scheduler.validate import check_invariants

__all__ = ["SchedulerState"]

_Transition = Callable[["SchedulerState", _Task], None]


class SchedulerState:
    """The scheduler core. Feed events to :meth:`handle`, carry out what it returns."""

    __slots__ = (
        "_tasks",
        "_jobs",
        "_ready",
        "_n_ready",
        "_n_running",
        "_n_slots",
        "_max_retries",
        "_seq",
        "_token",
        "_nbytes",
        "_out",
        "_stimulus_id",
        "_handlers",
    )

    def __init__(self, n_slots: int, max_retries: int = 3) -> None:
        if n_slots < 0:
            raise ValueError(f"n_slots must be >= 0, got {n_slots}")
        if max_retries < 0:
            raise ValueError(f"max_retries must be >= 0, got {max_retries}")
        self._tasks: dict[Key, _Task] = {}
        self._jobs: dict[JobId, _Job] = {}
        self._ready: list[tuple[int, int, _Task]] = []
        self._n_ready = 0
        self._n_running = 0
        self._n_slots = n_slots
        self._max_retries = max_retries
        self._seq = 0
        self._token = 0
        self._nbytes = 0
        self._out: list[Instruction] = []
        self._stimulus_id = ""
        self._handlers: dict[type[SchedulerEvent], Callable[[Any], None]] = {
            TaskFinished: self._handle_task_finished,
            GraphSubmitted: self._handle_graph_submitted,
            KeysReleased: self._handle_keys_released,
            KeysLost: self._handle_keys_lost,
            TaskFailed: self._handle_task_failed,
            JobCancelled: self._handle_job_cancelled,
            SlotsChanged: self._handle_slots_changed,
        }

    # ------------------------------------------------------------------ entry point

    def handle(self, *events: SchedulerEvent) -> list[Instruction]:
        """Apply ``events`` in order and return the instructions they caused, in order.

        An invalid event (``ValueError``: unknown dependency, duplicate live job id,
        negative slot count) changes nothing; the instructions of the events before it in
        the same call are kept and returned by the next call (``handle()`` collects them).
        """
        handlers = self._handlers
        for event in events:
            handler = handlers.get(type(event))
            if handler is None:
                raise TypeError(f"not a scheduler event: {event!r}")
            self._stimulus_id = event.stimulus_id
            handler(event)
            if self._n_ready:
                if self._n_running < self._n_slots:
                    self._schedule()
            elif self._ready:
                self._ready.clear()  # only stale entries are left
        out = self._out
        self._out = []
        return out

    # ------------------------------------------------------------------ accessors

    def task_state(self, key: Key) -> str | None:
        """State of ``key`` (``"waiting"``, ``"ready"``, ...) or None when forgotten."""
        ts = self._tasks.get(key)
        return None if ts is None else ts.state

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
    def nbytes_in_memory(self) -> int:
        """Sum of the ``nbytes`` reported for the keys in memory."""
        return self._nbytes

    def holds(self, key: Key) -> int:
        """Client holds on ``key`` (0 for unknown keys)."""
        ts = self._tasks.get(key)
        return 0 if ts is None else ts.holds

    def keys_in_memory(self) -> set[Key]:
        """Keys whose data the shell must keep (O(number of known keys))."""
        return {key for key, ts in self._tasks.items() if ts.state == MEMORY}

    def live_jobs(self) -> set[JobId]:
        """Jobs submitted and neither finished nor failed."""
        return set(self._jobs)

    def __repr__(self) -> str:
        return (
            f"<SchedulerState tasks={len(self._tasks)} jobs={len(self._jobs)} "
            f"ready={self._n_ready} running={self._n_running}/{self._n_slots}>"
        )

    # ------------------------------------------------------------------ event handlers

    def _handle_graph_submitted(self, ev: GraphSubmitted) -> None:
        job_id = ev.job_id
        if job_id in self._jobs:
            raise ValueError(f"job {job_id!r} is already live")
        tasks = self._tasks
        graph = ev.dependencies

        # Phase 1, no mutation: walk back from the outputs, stopping at known keys.
        new: dict[Key, tuple[Key, ...]] = {}
        joined: set[_Task] = set()
        stack = list(ev.outputs)
        while stack:
            key = stack.pop()
            if key in new:
                continue
            ts = tasks.get(key)
            if ts is not None:
                if ts.state != MEMORY:
                    joined.add(ts)
                continue
            try:
                deps = graph[key]
            except KeyError:
                raise ValueError(_unknown_key_message(key, ev)) from None
            new[key] = deps
            stack.extend(deps)

        # Phase 2: create and link the records.
        seq = self._seq
        self._seq = seq + 1
        job = _Job(job_id, seq, ev.outputs)
        priorities = ev.priorities
        created: list[_Task] = []
        for key in new:
            ts = _Task(key, seq, priorities.get(key, 0), job)
            tasks[key] = ts
            created.append(ts)
        for ts, dep_keys in zip(created, new.values()):
            self._link(ts, dep_keys)
        for ts in joined:
            ts.jobs.add(job)
        job.tasks = [*created, *joined]

        missing = 0
        for key in ev.outputs:
            ts = tasks[key]
            output_jobs = ts.output_jobs
            if output_jobs is None:
                output_jobs = ts.output_jobs = set()
            elif job in output_jobs:
                continue
            output_jobs.add(job)
            job.out_tasks.append(ts)
            if ts.state != MEMORY:
                missing += 1
        job.missing = missing
        self._jobs[job_id] = job

        for ts in created:
            if ts.waiting_on == 0:
                self._transition(ts, READY)
        if missing == 0:
            self._finish_job(job)

    def _handle_task_finished(self, ev: TaskFinished) -> None:
        ts = self._tasks.get(ev.key)
        if ts is None or ts.state != RUNNING:
            return  # stale report (e.g. a duplicate); nothing to do
        ts.nbytes = ev.nbytes
        self._transition(ts, MEMORY)

    def _handle_task_failed(self, ev: TaskFailed) -> None:
        ts = self._tasks.get(ev.key)
        if ts is None or ts.state != RUNNING:
            return  # stale report
        if not _needed(ts):
            # an orphan: nobody needs it any more, so neither retry nor fail any job
            deps = ts.deps
            self._transition(ts, FORGOTTEN)
            self._forget_unneeded(deps)
            return
        if ev.retriable and ts.retries < self._max_retries:
            ts.retries += 1
            # an input lost while it ran must be recomputed first
            self._transition(ts, WAITING if ts.waiting_on else READY)
            return
        deps = ts.deps
        self._transition(ts, ERRED)

        # Everything that needs the key, directly or through dependents, can never
        # complete: every job that needs it fails.
        failed: set[_Job] = set()
        doomed = [ts]
        seen = {ts}
        for t in doomed:  # grows while iterated: a breadth-first walk
            failed.update(t.jobs)
            if t.output_jobs:
                failed.update(t.output_jobs)
            for d in t.dependents:
                if d not in seen:
                    seen.add(d)
                    doomed.append(d)
        for job in sorted(failed, key=_job_seq):
            self._fail_job(job, ts.key, ev.error)
        self._abandon(doomed, seen)
        self._forget_unneeded(deps)  # data only the erred task read
        self._forget_unneeded(doomed)  # nobody needs them any more: a later job may retry

    def _handle_job_cancelled(self, ev: JobCancelled) -> None:
        job = self._jobs.get(ev.job_id)
        if job is not None:
            self._fail_job(job, None, CancelledError())

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
                    self._forget_unneeded((ts,))

    def _handle_keys_lost(self, ev: KeysLost) -> None:
        tasks = self._tasks
        lineage = ev.lineage

        # Phase 1, no mutation: the lost records still needed, their deps from the
        # lineage, and the forgotten ancestors they need (re-created below).
        lost: list[_Task] = []
        lost_deps: list[tuple[Key, ...]] = []
        seen: set[_Task] = set()
        stack: list[tuple[Key, int, int]] = []  # (key, seq, priority of its reader)
        for key in ev.keys:
            ts = tasks.get(key)
            if ts is None or ts.state != MEMORY or ts in seen:
                continue  # only data in memory can be lost; a running task fails instead
            # In memory means needed (by a hold, a dependent or an output job): a key
            # nobody needs was released already and is unknown here.
            seen.add(ts)
            deps = _lineage_of(key, lineage, ev)
            lost.append(ts)
            lost_deps.append(deps)
            stack.extend((dep, ts.seq, ts.priority) for dep in deps)
        new: dict[Key, tuple[Key, ...]] = {}
        order: dict[Key, tuple[int, int]] = {}
        while stack:
            key, seq, priority = stack.pop()
            if key in tasks or key in new:
                continue  # known: in memory (or lost, just above) or being computed
            deps = _lineage_of(key, lineage, ev)
            new[key] = deps
            order[key] = (seq, priority)
            stack.extend((dep, seq, priority) for dep in deps)

        # Phase 2: the lost records go back to computing, the ancestors are re-created,
        # and both are linked to their deps as at submission.
        for ts in lost:
            self._transition(ts, WAITING)
        created: list[_Task] = []
        for key in new:
            seq, priority = order[key]
            ts = tasks[key] = _Task(key, seq, priority, None)
            created.append(ts)
        records = [*lost, *created]
        for ts, dep_keys in zip(records, [*lost_deps, *new.values()]):
            self._link(ts, dep_keys)
        for ts in records:
            if ts.waiting_on == 0:
                self._transition(ts, READY)

    def _handle_slots_changed(self, ev: SlotsChanged) -> None:
        if ev.n_slots < 0:
            raise ValueError(f"n_slots must be >= 0, got {ev.n_slots}")
        self._n_slots = ev.n_slots

    # ------------------------------------------------------------------ helpers

    def _schedule(self) -> None:
        """Start ready tasks, best first, while slots are free."""
        heap = self._ready
        while self._n_ready and self._n_running < self._n_slots:
            _, token, ts = heappop(heap)
            if ts.token == token and ts.state == READY:
                self._transition(ts, RUNNING)
        if not self._n_ready:
            heap.clear()

    def _finish_job(self, job: _Job) -> None:
        del self._jobs[job.job_id]
        for ts in job.out_tasks:
            assert ts.output_jobs is not None
            ts.output_jobs.discard(job)
        tasks = self._tasks
        for key in job.outputs:
            tasks[key].holds += 1
        self._out.append(JobFinished(self._stimulus_id, job.job_id))

    def _fail_job(self, job: _Job, key: Key | None, error: BaseException) -> None:
        del self._jobs[job.job_id]
        self._out.append(JobFailed(self._stimulus_id, job.job_id, key, error))
        for ts in job.out_tasks:
            assert ts.output_jobs is not None
            ts.output_jobs.discard(job)
        for ts in job.tasks:
            ts.jobs.discard(job)
        self._forget_unneeded(job.tasks)
        self._forget_unneeded(job.out_tasks)

    def _forget_unneeded(self, start: Iterable[_Task]) -> None:
        """Forget the unneeded records among ``start`` and, transitively, their deps."""
        stack = list(start)
        while stack:
            ts = stack.pop()
            state = ts.state
            if state == MEMORY:
                if not ts.holds and not ts.dependents and not ts.output_jobs:
                    self._transition(ts, FORGOTTEN)
            elif state == WAITING or state == READY or state == ERRED:
                if not _needed(ts):
                    stack.extend(ts.deps)
                    self._transition(ts, FORGOTTEN)
            # RUNNING: an orphan is left to finish; FORGOTTEN: a stale reference

    def _push_ready(self, ts: _Task) -> None:
        counter = self._token
        self._token = counter + 1
        # (priority, counter) packed in one int: cheaper heap comparisons, same order
        token = ts.priority * _TOKEN_SPAN + counter
        ts.token = token
        heappush(self._ready, (ts.seq, token, ts))

    def _link(self, ts: _Task, dep_keys: tuple[Key, ...]) -> None:
        """Link a new (or lost) record to its deps, all known, and count the missing."""
        tasks = self._tasks
        n = 0
        deps_list = ts.deps
        for dep_key in dep_keys:
            dts = tasks[dep_key]
            dependents = dts.dependents
            if ts in dependents:  # the same key read twice
                continue
            dependents[ts] = None
            deps_list.append(dts)
            if dts.state != MEMORY:
                n += 1
        ts.waiting_on = n

    def _abandon(self, doomed: list[_Task], seen: set[_Task]) -> None:
        """Cut loose the records that need a key that erred (``doomed``, its dependents).

        Their jobs have failed; holds on them (lost results being recomputed) go, since
        they can never be recomputed. A running one (it read an input that was lost while
        it ran) is cut from those inputs and left to finish as an orphan.
        """
        for t in doomed:
            t.holds = 0
            if t.state == RUNNING:
                keep = []
                for d in t.deps:
                    if d in seen:
                        d.dependents.pop(t, None)
                        t.waiting_on -= 1
                    else:
                        keep.append(d)
                t.deps = keep

    def _unlink_deps(self, ts: _Task) -> None:
        for dts in ts.deps:
            dts.dependents.pop(ts, None)
        ts.deps = []

    # ------------------------------------------------------------------ transitions

    def _transition(self, ts: _Task, finish: str) -> None:
        try:
            func = self._TRANSITIONS[ts.state, finish]
        except KeyError:
            raise AssertionError(
                f"impossible transition {ts.state} -> {finish} for {ts.key!r}"
            ) from None
        func(self, ts)

    def _t_waiting_ready(self, ts: _Task) -> None:
        ts.state = READY
        self._n_ready += 1
        self._push_ready(ts)

    def _t_ready_running(self, ts: _Task) -> None:
        ts.state = RUNNING
        ts.token = None
        self._n_ready -= 1
        self._n_running += 1
        self._out.append(Execute(self._stimulus_id, ts.key))

    def _t_running_ready(self, ts: _Task) -> None:
        """A retry."""
        ts.state = READY
        self._n_running -= 1
        self._n_ready += 1
        self._push_ready(ts)

    def _t_running_waiting(self, ts: _Task) -> None:
        """A retry of a task an input of which was lost while it ran."""
        ts.state = WAITING
        self._n_running -= 1

    def _t_ready_waiting(self, ts: _Task) -> None:
        """An input was lost; its heap entry goes stale."""
        ts.state = WAITING
        ts.token = None
        self._n_ready -= 1

    def _t_memory_waiting(self, ts: _Task) -> None:
        """The data was lost. The caller links the record to its deps again and moves it
        on to ``ready`` if they are all in memory."""
        ts.state = WAITING
        self._nbytes -= ts.nbytes
        ts.nbytes = 0
        output_jobs = ts.output_jobs
        if output_jobs:
            for job in output_jobs:
                job.missing += 1
        for dts in ts.dependents:
            dts.waiting_on += 1
            if dts.state == READY:
                self._transition(dts, WAITING)

    def _t_running_memory(self, ts: _Task) -> None:
        ts.state = MEMORY
        self._n_running -= 1
        self._nbytes += ts.nbytes
        ts.jobs.clear()
        for dts in ts.dependents:
            dts.waiting_on -= 1
            if dts.waiting_on == 0 and dts.state == WAITING:  # not one still running
                self._transition(dts, READY)
        deps = ts.deps
        ts.deps = []
        for dts in deps:
            dependents = dts.dependents
            dependents.pop(ts, None)
            if not dependents and not dts.holds and not dts.output_jobs:
                if dts.state == MEMORY:
                    self._transition(dts, FORGOTTEN)
                else:  # lost while this task ran, and being recomputed
                    self._forget_unneeded((dts,))
        output_jobs = ts.output_jobs
        if output_jobs:
            for job in sorted(output_jobs, key=_job_seq):
                job.missing -= 1
                if job.missing == 0:
                    self._finish_job(job)
        if not ts.holds and not ts.dependents and not ts.output_jobs:
            self._transition(ts, FORGOTTEN)

    def _t_running_erred(self, ts: _Task) -> None:
        ts.state = ERRED
        self._n_running -= 1
        self._unlink_deps(ts)

    def _t_running_forgotten(self, ts: _Task) -> None:
        """An orphan failed: nobody needs it."""
        self._n_running -= 1
        self._unlink_deps(ts)
        self._drop(ts)

    def _t_waiting_forgotten(self, ts: _Task) -> None:
        self._unlink_deps(ts)
        self._drop(ts)

    def _t_ready_forgotten(self, ts: _Task) -> None:
        self._n_ready -= 1
        ts.token = None
        self._unlink_deps(ts)
        self._drop(ts)

    def _t_erred_forgotten(self, ts: _Task) -> None:
        self._drop(ts)

    def _t_memory_forgotten(self, ts: _Task) -> None:
        self._nbytes -= ts.nbytes
        self._out.append(Release(self._stimulus_id, ts.key))
        self._drop(ts)

    def _drop(self, ts: _Task) -> None:
        ts.state = FORGOTTEN
        del self._tasks[ts.key]

    _TRANSITIONS: ClassVar[dict[tuple[str, str], _Transition]] = {
        (WAITING, READY): _t_waiting_ready,
        (WAITING, FORGOTTEN): _t_waiting_forgotten,
        (READY, RUNNING): _t_ready_running,
        (READY, WAITING): _t_ready_waiting,
        (READY, FORGOTTEN): _t_ready_forgotten,
        (RUNNING, MEMORY): _t_running_memory,
        (RUNNING, READY): _t_running_ready,
        (RUNNING, WAITING): _t_running_waiting,
        (RUNNING, ERRED): _t_running_erred,
        (RUNNING, FORGOTTEN): _t_running_forgotten,
        (ERRED, FORGOTTEN): _t_erred_forgotten,
        (MEMORY, WAITING): _t_memory_waiting,
        (MEMORY, FORGOTTEN): _t_memory_forgotten,
    }

    # ------------------------------------------------------------------ invariants

    def validate_state(self) -> None:
        """Check every invariant (O(tasks + edges)); raise AssertionError on a violation."""
        check_invariants(self)


def _job_seq(job: _Job) -> int:
    return job.seq


def _lineage_of(key: Key, lineage: Mapping[Key, tuple[Key, ...]], ev: KeysLost) -> tuple[Key, ...]:
    try:
        return lineage[key]
    except KeyError:
        raise ValueError(
            f"{ev.stimulus_id}: no lineage for {key!r}, which must be recomputed"
        ) from None


def _unknown_key_message(key: Key, ev: GraphSubmitted) -> str:
    readers = [k for k, deps in ev.dependencies.items() if key in deps]
    if readers:
        where = f"read by task {readers[0]!r}"
    else:
        where = "an output"
    return (
        f"job {ev.job_id!r}: unknown key {key!r} ({where}): it is not a task of the "
        "submitted graph, not in memory and not being computed for another job"
    )
