"""How jobs end, and the release rule that runs when they do.

A job *finishes* when its last missing output reaches memory: its outputs turn into client
holds. It *fails* when a key it needs errs, or when it is cancelled: then the records only
it needed are forgotten. Both end in :func:`forget_unneeded`, the release rule of the core:
an unneeded ``waiting``/``ready``/``erred``/``running`` record is forgotten at once (and,
transitively, the deps only it needed; a ``running`` one is interrupted, so that its slot
serves the next task at once), and an unneeded ``memory`` record is released.

These are free functions of the core (as :func:`~jupyter_mars.engine.scheduler.validate.
check_invariants` is) because the transitions, the failure handler and the release handler
all call them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from jupyter_mars.engine.scheduler.events import Key
from jupyter_mars.engine.scheduler.instructions import JobFailed, JobFinished
from jupyter_mars.engine.scheduler.records import (
    ERRED,
    FORGOTTEN,
    MEMORY,
    READY,
    RUNNING,
    WAITING,
    JobRecord,
    TaskRecord,
    is_needed,
)

if TYPE_CHECKING:
    from jupyter_mars.engine.scheduler.state import SchedulerState


def job_seq(job: JobRecord) -> int:
    """Sort key: jobs are signalled in submission order, so the core is deterministic."""
    return job.seq


def finish_job(core: SchedulerState, job: JobRecord) -> None:
    """Every output of ``job`` is in memory: each output entry becomes one client hold."""
    del core._jobs[job.job_id]
    for ts in job.out_tasks:
        assert ts.output_jobs is not None
        ts.output_jobs.discard(job)
    tasks = core._tasks
    for key in job.outputs:
        tasks[key].holds += 1
    core._out.append(JobFinished(core._stimulus_id, job.job_id))


def fail_job(core: SchedulerState, job: JobRecord, key: Key | None, error: BaseException) -> None:
    """Fail ``job`` (``key`` erred, or None when cancelled) and forget what only it needed."""
    del core._jobs[job.job_id]
    core._out.append(JobFailed(core._stimulus_id, job.job_id, key, error))
    for ts in job.out_tasks:
        assert ts.output_jobs is not None
        ts.output_jobs.discard(job)
    for ts in job.tasks:
        ts.jobs.discard(job)
    forget_unneeded(core, job.tasks)
    forget_unneeded(core, job.out_tasks)


def forget_unneeded(core: SchedulerState, start: Iterable[TaskRecord]) -> None:
    """Forget the unneeded records among ``start`` and, transitively, their deps."""
    stack = list(start)
    while stack:
        ts = stack.pop()
        state = ts.state
        if state == MEMORY:
            if not ts.holds and not ts.dependents and not ts.output_jobs:
                core._transition(ts, FORGOTTEN)
        elif state == WAITING or state == READY or state == ERRED or state == RUNNING:
            if not is_needed(ts):
                stack.extend(ts.deps)
                core._transition(ts, FORGOTTEN)
        # FORGOTTEN: a stale reference
