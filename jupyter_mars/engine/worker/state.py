"""Worker core: a pure state machine that turns events into instructions.

Theory of operation
-------------------
``WorkerState`` does no IO, starts no threads and never blocks. The worker process's IO
shell (``cluster/worker/server.py``) turns RPCs and the completions of its work into events
(:mod:`jupyter_mars.engine.worker.events`), feeds them to :meth:`WorkerState.handle` and
carries out the instructions it returns (:mod:`jupyter_mars.engine.worker.instructions`):
fetch from a peer, run on a slot, store, forget, interrupt, reply. Every instruction
carries the ``stimulus_id`` of the event that caused it.

Each task here (one ``execute`` call, numbered by its ``attempt``) has one ``WorkerTask`` record
(:mod:`~jupyter_mars.engine.worker.records`), filed under its key, in one of the states

``waiting``    not admitted yet: memory is short (``memory.py``); it fetches nothing;
``fetching``   some inputs are on their way from peers;
``ready``      every input is here; queued for a slot, first come first served;
``running``    ``Run`` emitted: it holds one of ``n_slots`` slots;
``following``  its result is stored and its follower runs in the same slot.

A record ends in a pseudo-state, replying to its call as it goes: ``done`` (result
stored, figures replied), ``erred`` (the task raised, or an input could not be had) or
``cancelled`` (the supervisor cancelled it, or a later attempt of the key replaced it).
Every state change goes through ``WorkerState._transition`` and the ``TRANSITIONS`` table of
:mod:`~jupyter_mars.engine.worker.transitions`. A report whose attempt is not the current
record's is stale and ignored: a cancelled run's late result is never stored.

The event handlers are the methods ``_handle_*`` below; ``validate.py`` checks the
invariants.

State fields of ``WorkerState``
    ``_tasks: dict[Key, WorkerTask]``
        every task here -> its record.
    ``_waiting: dict[WorkerTask, None]``
        the ``waiting`` records in arrival order (an ordered set); admitted in that order
        as memory allows.
    ``_reserved``
        bytes of inputs of the admitted records (``nbytes``), counted against the soft
        limit: tasks admitted together must all fit, not each one alone.
    ``_memory: MemoryState``
        the last memory sample and the memory decisions under way (``memory.py``).
    ``_ready: dict[WorkerTask, None]``
        the ``ready`` records in arrival order (an ordered set).
    ``_n_running``, ``_n_slots``
        records ``running`` or ``following``; at most ``n_slots`` of them.
    ``_fetches: dict[Key, str]``
        inputs being fetched now -> the peer asked: each is fetched once, whichever and
        however many records need it.
    ``_waiters: dict[Key, dict[WorkerTask, None]]``
        input being fetched -> the ``fetching`` records waiting for it (no empty entry).
    ``_epoch``
        bumped by a reset: records of an earlier epoch report their results, unstored.
    ``_out``, ``_stimulus_id``
        instructions produced by the current ``handle`` call and the event being handled.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Final

from jupyter_mars.engine.recipes import Undrawn
from jupyter_mars.engine.worker.events import (
    CancelRequested,
    FetchFailed,
    InputsFetched,
    Key,
    MemorySampled,
    PeerLost,
    ResetRequested,
    SpillDone,
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
    Outcome,
    Reply,
    Store,
)
from jupyter_mars.engine.worker.limits import MemoryLimits
from jupyter_mars.engine.worker.memory import MemoryState, on_sample
from jupyter_mars.engine.worker.records import (
    CANCELLED,
    DONE,
    ERRED,
    FETCHING,
    FOLLOWING,
    READY,
    RUNNING,
    WorkerTask,
)
from jupyter_mars.engine.worker.transitions import TRANSITIONS
from jupyter_mars.engine.worker.validate import check_invariants

__all__ = ["WorkerState"]

_Handler = Callable[["WorkerState", Any], None]


class WorkerState:
    """The worker core. Feed events to :meth:`handle`, carry out what it returns."""

    __slots__ = (
        "_tasks",
        "_waiting",
        "_reserved",
        "_memory",
        "_ready",
        "_n_running",
        "_n_slots",
        "_fetches",
        "_waiters",
        "_epoch",
        "_out",
        "_stimulus_id",
    )

    def __init__(self, n_slots: int, limits: MemoryLimits | None = None) -> None:
        if n_slots < 1:
            raise ValueError(f"n_slots must be >= 1, got {n_slots}")
        self._tasks: dict[Key, WorkerTask] = {}
        self._waiting: dict[WorkerTask, None] = {}
        self._reserved = 0
        self._memory = MemoryState(limits)
        self._ready: dict[WorkerTask, None] = {}
        self._n_running = 0
        self._n_slots = n_slots
        self._fetches: dict[Key, str] = {}
        self._waiters: dict[Key, dict[WorkerTask, None]] = {}
        self._epoch = 0
        self._out: list[Instruction] = []
        self._stimulus_id = ""

    # ------------------------------------------------------------------ entry point

    def handle(self, *events: WorkerEvent) -> list[Instruction]:
        """Apply ``events`` in order and return the instructions they caused, in order."""
        for event in events:
            handler = _HANDLERS.get(type(event))
            if handler is None:
                raise TypeError(f"not a worker event: {event!r}")
            self._stimulus_id = event.stimulus_id
            handler(self, event)
            self._schedule()
        out = self._out
        self._out = []
        return out

    # ------------------------------------------------------------------ accessors

    def task_state(self, key: Key) -> str | None:
        """State of the task ``key`` here (``"fetching"``, ...), None when there is none."""
        ts = self._tasks.get(key)
        return None if ts is None else ts.state

    def attempt(self, key: Key) -> int | None:
        """The current attempt of ``key`` here, None when there is none."""
        ts = self._tasks.get(key)
        return None if ts is None else ts.attempt

    def fetching(self) -> dict[Key, str]:
        """Inputs being fetched now -> the peer asked."""
        return dict(self._fetches)

    def waiters(self, key: Key) -> int:
        """How many tasks here wait for the input ``key`` being fetched."""
        return len(self._waiters.get(key, ()))

    @property
    def n_running(self) -> int:
        """Slots taken (records ``running`` or ``following``)."""
        return self._n_running

    @property
    def n_ready(self) -> int:
        return len(self._ready)

    @property
    def n_waiting(self) -> int:
        """Tasks waiting for memory."""
        return len(self._waiting)

    @property
    def memory(self) -> MemoryState:
        """The last memory sample, the limits and the memory decisions so far; the shell
        sets ``memory.where`` once the worker listens."""
        return self._memory

    @property
    def n_slots(self) -> int:
        return self._n_slots

    def __len__(self) -> int:
        return len(self._tasks)

    def __repr__(self) -> str:
        return (
            f"<WorkerState tasks={len(self._tasks)} waiting={len(self._waiting)} "
            f"ready={len(self._ready)} "
            f"running={self._n_running}/{self._n_slots} fetching={len(self._fetches)}>"
        )

    # ------------------------------------------------------------------ event handlers

    def _handle_task_assigned(self, ev: TaskAssigned) -> None:
        old = self._tasks.get(ev.key)
        if old is not None:
            if ev.attempt <= old.attempt:
                raise ValueError(
                    f"attempt {ev.attempt} of {ev.key!r} is not newer than {old.attempt}"
                )
            self._transition(old, CANCELLED, Cancelled())
        ts = WorkerTask(ev.key, ev.attempt, ev.deps, ev.follower, self._epoch)
        ts.local, ts.locations, ts.nbytes, ts.arrived = ev.local, ev.locations, ev.nbytes, ev.now
        lost = self._lost_inputs(ts)
        if lost:
            # told at once, memory or not: the supervisor retries once the chunks are back
            outcome = InputsLost(lost, "not held by any worker")
            self._out.append(Reply(self._stimulus_id, ev.key, ev.attempt, outcome))
            return
        self._tasks[ev.key] = ts
        self._waiting[ts] = None  # admitted by _schedule, now or once memory allows

    def _admit(self, ts: WorkerTask) -> None:
        """Admit a waiting record: fetch what it lacks, then it is ready."""
        lost = self._lost_inputs(ts)
        if lost:  # fetched by another task when it came, gone since
            self._transition(ts, ERRED, InputsLost(lost, "not held by any worker"))
            return
        wanted: list[Key] = []
        to_fetch: dict[str, list[Key]] = {}
        for dep in ts.deps:
            if dep in ts.local:
                continue
            if dep in self._fetches:  # another task here is fetching it right now
                wanted.append(dep)
                continue
            peer = ts.locations[dep]
            assert peer is not None
            to_fetch.setdefault(peer, []).append(dep)
        for peer, keys in to_fetch.items():
            self._out.append(Fetch(self._stimulus_id, peer, tuple(keys)))
            for key in keys:
                self._fetches[key] = peer
                wanted.append(key)
        for key in wanted:
            ts.missing[key] = None
            self._waiters.setdefault(key, {})[ts] = None
        self._transition(ts, FETCHING if ts.missing else READY)

    def _lost_inputs(self, ts: WorkerTask) -> tuple[Key, ...]:
        """The inputs of a waiting record that are neither here, nor being fetched, nor
        held by a live worker."""
        return tuple(
            dep
            for dep in ts.deps
            if dep not in ts.local and dep not in self._fetches and ts.locations.get(dep) is None
        )

    def _handle_inputs_fetched(self, ev: InputsFetched) -> None:
        for key, value in ev.data.items():
            if self._fetches.get(key) != ev.peer:
                continue  # not asked of this peer: nobody waits for it
            del self._fetches[key]
            for ts in self._waiters.pop(key, {}):
                ts.inputs[key] = value
                del ts.missing[key]
                if not ts.missing:
                    self._transition(ts, READY)

    def _handle_fetch_failed(self, ev: FetchFailed) -> None:
        self._fail_fetches(ev.peer, ev.keys, ev.reason)

    def _handle_peer_lost(self, ev: PeerLost) -> None:
        keys = tuple(key for key, peer in self._fetches.items() if peer == ev.peer)
        self._fail_fetches(ev.peer, keys, ev.reason)

    def _fail_fetches(self, peer: str, keys: tuple[Key, ...], reason: str) -> None:
        """The fetches of ``keys`` from ``peer`` failed: the records waiting for them fail
        with ``InputsLost``; their other fetches go on for whoever else waits."""
        lost: dict[WorkerTask, list[Key]] = {}
        for key in keys:
            if self._fetches.get(key) != peer:
                continue
            del self._fetches[key]
            for ts in self._waiters.pop(key, {}):
                del ts.missing[key]
                lost.setdefault(ts, []).append(key)
        for ts, their_keys in lost.items():
            why = f"fetching them from peer {peer} failed: {reason}"
            self._transition(ts, ERRED, InputsLost(tuple(their_keys), why))

    def _handle_task_finished(self, ev: TaskFinished) -> None:
        ts = self._current(ev.key, ev.attempt)
        if ts is None:
            return
        if ts.epoch == self._epoch and type(ev.value) is not Undrawn:  # an undrawn one: none
            self._memory.unsampled += int(ev.figures.get("nbytes", 0))
        if ts.state == RUNNING:
            if ts.epoch == self._epoch:
                self._out.append(Store(self._stimulus_id, ts.key, ev.value))
            if ts.follower is not None:
                ts.figures = ev.figures
                ts.inputs = {ts.key: ev.value}
                self._transition(ts, FOLLOWING)
            else:
                self._transition(ts, DONE, Done(ev.figures))
        else:
            assert ts.follower is not None
            assert ts.figures is not None
            if ts.epoch == self._epoch:
                self._out.append(Store(self._stimulus_id, ts.follower, ev.value))
            self._transition(ts, DONE, Done(ts.figures, ev.figures))

    def _handle_task_erred(self, ev: TaskErred) -> None:
        ts = self._current(ev.key, ev.attempt)
        if ts is None:
            return
        if ts.state == RUNNING:
            self._transition(ts, ERRED, Failed(ev.error))
        else:
            # a follower's error is reported when the supervisor runs it the usual way
            assert ts.figures is not None
            self._transition(ts, DONE, Done(ts.figures, None))

    def _handle_cancel_requested(self, ev: CancelRequested) -> None:
        for key in ev.keys:  # all checked before anything changes
            if not isinstance(key, Hashable):
                raise TypeError(f"keys must be chunk keys, not {type(key).__name__}")
        for key in ev.keys:
            ts = self._tasks.get(key)
            if ts is not None and (ev.attempt is None or ts.attempt == ev.attempt):
                self._transition(ts, CANCELLED, Cancelled())
            if ev.attempt is None:
                # kept by this or an earlier call: the result is nobody's
                self._out.append(Forget(self._stimulus_id, key))

    def _handle_reset_requested(self, ev: ResetRequested) -> None:
        self._epoch += 1

    def _handle_memory_sampled(self, ev: MemorySampled) -> None:
        on_sample(self, ev)

    def _handle_spill_done(self, ev: SpillDone) -> None:
        self._memory.spilling = False

    # ------------------------------------------------------------------ helpers

    def _current(self, key: Key, attempt: int) -> WorkerTask | None:
        """The record a run's report is for, None when the report is stale."""
        ts = self._tasks.get(key)
        if ts is None or ts.attempt != attempt or ts.state not in (RUNNING, FOLLOWING):
            return None
        return ts

    def _schedule(self) -> None:
        """Admit waiting records that memory allows, in arrival order (a small one may
        pass a big one), and start ready records, first come first served, while slots
        are free."""
        if self._waiting:
            for ts in list(self._waiting):
                if self._memory.fits(ts.nbytes, self._reserved):
                    self._admit(ts)
        ready = self._ready
        while ready and self._n_running < self._n_slots:
            self._transition(next(iter(ready)), RUNNING)

    def _transition(self, ts: WorkerTask, finish: str, outcome: Outcome | None = None) -> None:
        """Move ``ts`` to ``finish`` through the transition table (the only way to)."""
        try:
            func = TRANSITIONS[ts.state, finish]
        except KeyError:
            raise AssertionError(
                f"impossible transition {ts.state} -> {finish} for {ts.key!r}"
            ) from None
        func(self, ts, outcome)

    # ------------------------------------------------------------------ invariants

    def validate_state(self) -> None:
        """Check every invariant (O(tasks + fetches)); raise AssertionError on a violation."""
        check_invariants(self)


_HANDLERS: Final[dict[type[WorkerEvent], _Handler]] = {
    TaskAssigned: WorkerState._handle_task_assigned,
    InputsFetched: WorkerState._handle_inputs_fetched,
    FetchFailed: WorkerState._handle_fetch_failed,
    TaskFinished: WorkerState._handle_task_finished,
    TaskErred: WorkerState._handle_task_erred,
    CancelRequested: WorkerState._handle_cancel_requested,
    ResetRequested: WorkerState._handle_reset_requested,
    PeerLost: WorkerState._handle_peer_lost,
    MemorySampled: WorkerState._handle_memory_sampled,
    SpillDone: WorkerState._handle_spill_done,
}
"""Event type -> handler, called with the core and the event."""
