"""``TaskFailed`` and ``JobCancelled``: retries, and the jobs that fail with a key.

A retriable failure puts the task back in ``ready`` (in ``waiting`` if an input was lost
while it ran) up to ``max_retries`` times per key. Any other failure marks the key
``erred``, and everything that needs it through dependents can never complete: every job
that needs it fails (in submission order), holds on lost results being recomputed among
them are dropped (they cannot come back), running dependents are cut from it and
interrupted, and the records nobody needs any more are forgotten, the erred key included,
so a later job may submit it again. A running task nobody needs any more is interrupted
and forgotten at once, so a report of its failure is as stale as any other.

``JobCancelled`` acts like a failure of that one job, with ``key=None`` and a
``CancelledError`` (or the event's ``error``). Reports for keys that are not ``running``
are stale and ignored.
"""

from __future__ import annotations

from concurrent.futures import CancelledError
from typing import TYPE_CHECKING

from jupyter_mars.engine.scheduler.events import JobCancelled, TaskFailed
from jupyter_mars.engine.scheduler.jobs import fail_job, forget_unneeded, job_seq
from jupyter_mars.engine.scheduler.records import (
    ERRED,
    READY,
    RUNNING,
    WAITING,
    JobRecord,
    TaskRecord,
)

if TYPE_CHECKING:
    from jupyter_mars.engine.scheduler.state import SchedulerState

__all__ = ["handle_job_cancelled", "handle_task_failed"]


def handle_task_failed(core: SchedulerState, ev: TaskFailed) -> None:
    """Retry the task, or err it and fail every job that needs it."""
    ts = core._tasks.get(ev.key)
    if ts is None or ts.state != RUNNING:
        return  # stale report
    if ev.retriable and ts.retries < core._max_retries:
        ts.retries += 1
        # an input lost while it ran must be recomputed first
        core._transition(ts, WAITING if ts.waiting_on else READY)
        return
    deps = ts.deps
    core._transition(ts, ERRED)

    # Everything that needs the key, directly or through dependents, can never
    # complete: every job that needs it fails.
    failed: set[JobRecord] = set()
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
    for job in sorted(failed, key=job_seq):
        fail_job(core, job, ts.key, ev.error)
    _abandon(doomed, seen)
    forget_unneeded(core, deps)  # data only the erred task read
    forget_unneeded(core, doomed)  # nobody needs them any more: a later job may retry


def handle_job_cancelled(core: SchedulerState, ev: JobCancelled) -> None:
    """Fail the job as cancelled; an unknown or ended job is ignored."""
    job = core._jobs.get(ev.job_id)
    if job is not None:
        fail_job(core, job, None, ev.error or CancelledError())


def _abandon(doomed: list[TaskRecord], seen: set[TaskRecord]) -> None:
    """Cut loose the records that need a key that erred (``doomed``, its dependents).

    Their jobs have failed; holds on them (lost results being recomputed) go, since
    they can never be recomputed. A running one (it read an input that was lost while
    it ran) is cut from those inputs, to be interrupted as unneeded.
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
