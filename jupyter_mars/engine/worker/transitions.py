"""The transition table of the worker core: one function per ``(start, finish)`` pair.

Every state change of a record goes through ``WorkerState._transition``, which looks the
pair up in :data:`TRANSITIONS` and calls the function with the core, the record and the
outcome to reply with (for the pseudo-states that end a record); a pair missing from the
table is a bug and raises.

A transition function sets ``ts.state``, keeps the core's slot count, waiting and ready
queues, memory reservations and fetch waiters in step, and emits the instructions the
change implies: ``Run`` on ``ready -> running`` and ``running -> following``;
``Interrupt`` when a computing record is cancelled; ``Reply`` when a record ends (``done``,
``erred``, ``cancelled``: the record is then dropped from ``_tasks``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from jupyter_mars.engine.worker.instructions import (
    Admit,
    Cancelled,
    Done,
    Interrupt,
    Outcome,
    Reply,
    Run,
)
from jupyter_mars.engine.worker.records import (
    CANCELLED,
    DONE,
    ERRED,
    FETCHING,
    FOLLOWING,
    READY,
    RUNNING,
    WAITING,
    WorkerTask,
)

if TYPE_CHECKING:
    from jupyter_mars.engine.worker.state import WorkerState

__all__ = ["TRANSITIONS", "Transition"]

Transition = Callable[["WorkerState", WorkerTask, "Outcome | None"], None]


def _t_waiting_admitted(core: WorkerState, ts: WorkerTask, outcome: Outcome | None) -> None:
    """Admitted: its inputs' bytes are reserved until it ends; its fetches (planned by
    the core) are under way, or it is ready."""
    del core._waiting[ts]
    core._reserved += ts.nbytes
    ts.local, ts.locations = frozenset(), {}
    core._out.append(Admit(core._stimulus_id, ts.key, ts.attempt))
    if ts.missing:
        ts.state = FETCHING
    else:
        ts.state = READY
        core._ready[ts] = None


def _t_waiting_end(core: WorkerState, ts: WorkerTask, outcome: Outcome | None) -> None:
    """Erred (no room, or an input lost meanwhile) or cancelled before it was admitted."""
    del core._waiting[ts]
    _end(core, ts, outcome)


def _t_fetching_ready(core: WorkerState, ts: WorkerTask, outcome: Outcome | None) -> None:
    ts.state = READY
    core._ready[ts] = None


def _t_fetching_end(core: WorkerState, ts: WorkerTask, outcome: Outcome | None) -> None:
    """Erred (an input could not be fetched) or cancelled: it stops waiting for its
    fetches, which go on for any other record waiting for them."""
    waiters = core._waiters
    for key in ts.missing:
        waiting = waiters.get(key)
        if waiting is not None:
            waiting.pop(ts, None)
            if not waiting:
                del waiters[key]
    ts.missing.clear()
    _end(core, ts, outcome)


def _t_ready_running(core: WorkerState, ts: WorkerTask, outcome: Outcome | None) -> None:
    ts.state = RUNNING
    del core._ready[ts]
    core._n_running += 1
    ts.rss_at_start = core._memory.rss
    inputs, ts.inputs = ts.inputs, {}  # the shell's now
    core._out.append(Run(core._stimulus_id, ts.key, ts.attempt, ts.key, inputs))


def _t_ready_cancelled(core: WorkerState, ts: WorkerTask, outcome: Outcome | None) -> None:
    del core._ready[ts]
    _end(core, ts, outcome)


def _t_running_following(core: WorkerState, ts: WorkerTask, outcome: Outcome | None) -> None:
    """The task's result is in ``ts.inputs``: its follower reads it, in the same slot."""
    assert ts.follower is not None
    ts.state = FOLLOWING
    ts.rss_at_start = core._memory.rss
    inputs, ts.inputs = ts.inputs, {}
    core._out.append(Run(core._stimulus_id, ts.key, ts.attempt, ts.follower, inputs))


def _t_computing_end(core: WorkerState, ts: WorkerTask, outcome: Outcome | None) -> None:
    """Done or erred: the slot is free for the next ready record."""
    core._n_running -= 1
    _end(core, ts, outcome)


def _t_computing_cancelled(core: WorkerState, ts: WorkerTask, outcome: Outcome | None) -> None:
    """Its computation is interrupted and its slot is free at once; what it still
    reports is stale (the record is gone)."""
    runs = ts.key if ts.state == RUNNING else ts.follower
    core._out.append(Interrupt(core._stimulus_id, ts.key, ts.attempt, runs))
    core._n_running -= 1
    _end(core, ts, outcome)


TRANSITIONS: Final[dict[tuple[str, str], Transition]] = {
    (WAITING, FETCHING): _t_waiting_admitted,
    (WAITING, READY): _t_waiting_admitted,
    (WAITING, ERRED): _t_waiting_end,
    (WAITING, CANCELLED): _t_waiting_end,
    (FETCHING, READY): _t_fetching_ready,
    (FETCHING, ERRED): _t_fetching_end,
    (FETCHING, CANCELLED): _t_fetching_end,
    (READY, RUNNING): _t_ready_running,
    (READY, CANCELLED): _t_ready_cancelled,
    (RUNNING, FOLLOWING): _t_running_following,
    (RUNNING, DONE): _t_computing_end,
    (RUNNING, ERRED): _t_computing_end,
    (RUNNING, CANCELLED): _t_computing_cancelled,
    (FOLLOWING, DONE): _t_computing_end,
    (FOLLOWING, CANCELLED): _t_computing_cancelled,
}
"""``(start, finish) -> function``: every state change the core may make."""


def _end(core: WorkerState, ts: WorkerTask, outcome: Outcome | None) -> None:
    assert outcome is not None, f"{ts!r} ends without an outcome"
    if ts.state != WAITING:
        core._reserved -= ts.nbytes
    # no live state: a reference kept elsewhere shows it is over
    ts.state = (
        DONE
        if isinstance(outcome, Done)
        else CANCELLED
        if isinstance(outcome, Cancelled)
        else ERRED
    )
    ts.inputs = {}
    del core._tasks[ts.key]
    core._out.append(Reply(core._stimulus_id, ts.key, ts.attempt, outcome))
