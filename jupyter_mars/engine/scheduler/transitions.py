"""The transition table of the scheduler core: one function per ``(start, finish)`` pair.

Every state change of a record goes through ``SchedulerState._transition``, which looks the
pair up in :data:`TRANSITIONS` and calls the function with the core and the record; a pair
missing from the table is a bug and raises. Keeping the allowed changes in one dict literal
(as h11's ``_state.py`` and distributed's ``_TRANSITIONS_TABLE`` do) makes the state
machine readable in one place, and the lookup costs one dict access per change.

A transition function sets ``ts.state``, keeps the core's counters (``_n_ready``,
``_n_running``, their GPU parts, ``_nbytes``) and the ready heaps in step, emits the
instruction the change implies (``Execute`` on ``ready -> running``, ``Interrupt`` on
``running -> forgotten``, ``Release`` on ``memory -> forgotten``) and may move other
records on (``running -> memory`` readies the dependents, releases inputs
nobody needs any more and finishes jobs). ``forgotten`` is a pseudo-state: the functions
that reach it delete the record from ``_tasks``.
"""

from __future__ import annotations

from collections.abc import Callable
from heapq import heappush
from typing import TYPE_CHECKING, Final

from jupyter_mars.engine.scheduler.instructions import Execute, Interrupt, Release
from jupyter_mars.engine.scheduler.jobs import finish_job, forget_unneeded, job_seq
from jupyter_mars.engine.scheduler.records import (
    ERRED,
    FORGOTTEN,
    MEMORY,
    READY,
    RUNNING,
    TOKEN_SPAN,
    WAITING,
    TaskRecord,
)

if TYPE_CHECKING:
    from jupyter_mars.engine.scheduler.state import SchedulerState

__all__ = ["TRANSITIONS", "Transition"]

Transition = Callable[["SchedulerState", TaskRecord], None]


def _t_waiting_ready(core: SchedulerState, ts: TaskRecord) -> None:
    ts.state = READY
    _count_ready(core, ts, 1)
    _push_ready(core, ts)


def _t_ready_running(core: SchedulerState, ts: TaskRecord) -> None:
    ts.state = RUNNING
    ts.token = None
    _count_ready(core, ts, -1)
    _count_running(core, ts, 1)
    core._out.append(Execute(core._stimulus_id, ts.key))


def _t_running_ready(core: SchedulerState, ts: TaskRecord) -> None:
    """A retry."""
    ts.state = READY
    _count_running(core, ts, -1)
    _count_ready(core, ts, 1)
    _push_ready(core, ts)


def _t_running_waiting(core: SchedulerState, ts: TaskRecord) -> None:
    """A retry of a task an input of which was lost while it ran."""
    ts.state = WAITING
    _count_running(core, ts, -1)


def _t_ready_waiting(core: SchedulerState, ts: TaskRecord) -> None:
    """An input was lost; its heap entry goes stale."""
    ts.state = WAITING
    ts.token = None
    _count_ready(core, ts, -1)


def _t_memory_waiting(core: SchedulerState, ts: TaskRecord) -> None:
    """The data was lost. The caller links the record to its deps again and moves it
    on to ``ready`` if they are all in memory."""
    ts.state = WAITING
    core._nbytes -= ts.nbytes
    ts.nbytes = 0
    output_jobs = ts.output_jobs
    if output_jobs:
        for job in output_jobs:
            job.missing += 1
    for dts in ts.dependents:
        dts.waiting_on += 1
        if dts.state == READY:
            core._transition(dts, WAITING)


def _t_running_memory(core: SchedulerState, ts: TaskRecord) -> None:
    ts.state = MEMORY
    _count_running(core, ts, -1)
    core._nbytes += ts.nbytes
    ts.jobs.clear()
    for dts in ts.dependents:
        dts.waiting_on -= 1
        if dts.waiting_on == 0 and dts.state == WAITING:  # not one still running
            core._transition(dts, READY)
    deps = ts.deps
    ts.deps = []
    for dts in deps:
        dependents = dts.dependents
        dependents.pop(ts, None)
        if not dependents and not dts.holds and not dts.output_jobs:
            if dts.state == MEMORY:
                core._transition(dts, FORGOTTEN)
            else:  # lost while this task ran, and being recomputed
                forget_unneeded(core, (dts,))
    output_jobs = ts.output_jobs
    if output_jobs:
        for job in sorted(output_jobs, key=job_seq):
            job.missing -= 1
            if job.missing == 0:
                finish_job(core, job)
    if not ts.holds and not ts.dependents and not ts.output_jobs:
        core._transition(ts, FORGOTTEN)


def _t_running_erred(core: SchedulerState, ts: TaskRecord) -> None:
    ts.state = ERRED
    _count_running(core, ts, -1)
    _unlink_deps(ts)


def _t_running_forgotten(core: SchedulerState, ts: TaskRecord) -> None:
    """Nobody needs it any more: it is stopped and its slot is free for the next task."""
    _count_running(core, ts, -1)
    core._out.append(Interrupt(core._stimulus_id, ts.key))
    _unlink_deps(ts)
    _drop(core, ts)


def _t_waiting_forgotten(core: SchedulerState, ts: TaskRecord) -> None:
    _unlink_deps(ts)
    _drop(core, ts)


def _t_ready_forgotten(core: SchedulerState, ts: TaskRecord) -> None:
    _count_ready(core, ts, -1)
    ts.token = None
    _unlink_deps(ts)
    _drop(core, ts)


def _t_erred_forgotten(core: SchedulerState, ts: TaskRecord) -> None:
    _drop(core, ts)


def _t_memory_forgotten(core: SchedulerState, ts: TaskRecord) -> None:
    core._nbytes -= ts.nbytes
    core._out.append(Release(core._stimulus_id, ts.key))
    _drop(core, ts)


TRANSITIONS: Final[dict[tuple[str, str], Transition]] = {
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
"""``(start, finish) -> function``: every state change the core may make."""


# ---------------------------------------------------------------------- helpers


def _count_ready(core: SchedulerState, ts: TaskRecord, change: int) -> None:
    """Keep the ready counts in step: all records, and the GPU ones among them."""
    core._n_ready += change
    if ts.gpu:
        core._n_gpu_ready += change


def _count_running(core: SchedulerState, ts: TaskRecord, change: int) -> None:
    """Keep the running counts in step: all records, and the GPU ones among them."""
    core._n_running += change
    if ts.gpu:
        core._n_gpu_running += change


def _push_ready(core: SchedulerState, ts: TaskRecord) -> None:
    counter = core._token
    core._token = counter + 1
    # (priority, counter) packed in one int: cheaper heap comparisons, same order
    token = ts.priority * TOKEN_SPAN + counter
    ts.token = token
    # each kind of slot takes its tasks from its own heap, in the same order
    heappush(core._gpu_ready if ts.gpu else core._ready, (ts.seq, token, ts))


def _unlink_deps(ts: TaskRecord) -> None:
    for dts in ts.deps:
        dts.dependents.pop(ts, None)
    ts.deps = []


def _drop(core: SchedulerState, ts: TaskRecord) -> None:
    ts.state = FORGOTTEN
    del core._tasks[ts.key]
