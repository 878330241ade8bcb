"""``GraphSubmitted``: a job's graph becomes records of the scheduler core.

Submission walks back from the job's outputs through ``dependencies`` and stops at keys
the core already knows: a key in memory is reused, a waiting/ready/running key is shared
(the job *joins* it, so nothing runs twice). Tasks of the graph that the walk does not
reach are ignored. The graph must be acyclic; this is not checked (the tasks of a cycle
would wait forever).

The walk mutates nothing, so an unknown key (neither in the graph nor known to the core)
raises ``ValueError`` with the state unchanged. Then the new records are created, linked
to their deps by :func:`link` (which ``KeysLost`` reuses for recomputed records) and the
ones whose deps are all in memory move on to ``ready``. A job whose outputs are all in
memory already finishes at once. A job that needs a GPU task (``gpu_keys``) where there
is no GPU slot fails at once (``gpu.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jupyter_mars.engine.scheduler.events import GraphSubmitted, Key
from jupyter_mars.engine.scheduler.gpu import fail_jobs_without_gpu
from jupyter_mars.engine.scheduler.jobs import finish_job
from jupyter_mars.engine.scheduler.records import MEMORY, READY, JobRecord, TaskRecord

if TYPE_CHECKING:
    from jupyter_mars.engine.scheduler.state import SchedulerState

__all__ = ["handle_graph_submitted", "link"]


def handle_graph_submitted(core: SchedulerState, ev: GraphSubmitted) -> None:
    """Create the job and the records its outputs need; reuse or share known keys."""
    job_id = ev.job_id
    if job_id in core._jobs:
        raise ValueError(f"job {job_id!r} is already live")
    tasks = core._tasks
    graph = ev.dependencies

    # Phase 1, no mutation: walk back from the outputs, stopping at known keys.
    new: dict[Key, tuple[Key, ...]] = {}
    joined: set[TaskRecord] = set()
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
    seq = core._seq
    core._seq = seq + 1
    job = JobRecord(job_id, seq, ev.outputs)
    priorities = ev.priorities
    gpu_keys = ev.gpu_keys
    created: list[TaskRecord] = []
    for key in new:
        ts = TaskRecord(key, seq, priorities.get(key, 0), job, key in gpu_keys)
        tasks[key] = ts
        created.append(ts)
    for ts, dep_keys in zip(created, new.values()):
        link(core, ts, dep_keys)
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
    core._jobs[job_id] = job

    for ts in created:
        if ts.waiting_on == 0:
            core._transition(ts, READY)
    if missing == 0:
        finish_job(core, job)
    elif core.lacks_gpu:
        fail_jobs_without_gpu(core, job.tasks)  # a GPU task could never run


def link(core: SchedulerState, ts: TaskRecord, dep_keys: tuple[Key, ...]) -> None:
    """Link a new (or lost) record to its deps, all known, and count the missing."""
    tasks = core._tasks
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
