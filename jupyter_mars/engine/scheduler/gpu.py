"""GPU slots: the jobs that can never run because the runtime has no GPU slot at all.

A GPU task (``TaskRecord.gpu``) waits for a GPU slot as a CPU task waits for a CPU slot.
While a runtime has CPU slots and no GPU slot (``lacks_gpu``: a session without a device,
a cluster whose workers have no ``--cuda-devices``), such a task would wait forever, so
every job that needs one fails at once with ``GPUUnavailable`` and one sentence saying how
to get a GPU slot: at submission, and when a ``SlotsChanged`` brings that about (the last
GPU worker left, or the first worker of a cluster has no GPU). With no slot at all (a
cluster before its first worker) GPU tasks wait for workers as CPU tasks do. A record that
only a client hold keeps (a lost GPU result being recomputed for nobody's job) waits for a
GPU slot to come instead: no job is waiting on it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from jupyter_mars.engine.devices import GPUUnavailable
from jupyter_mars.engine.scheduler.events import Key
from jupyter_mars.engine.scheduler.jobs import fail_job, job_seq
from jupyter_mars.engine.scheduler.records import MEMORY, JobRecord, TaskRecord

if TYPE_CHECKING:
    from jupyter_mars.engine.scheduler.state import SchedulerState

__all__ = ["fail_jobs_without_gpu", "no_gpu_slot_error"]


def no_gpu_slot_error(key: Key) -> GPUUnavailable:
    """The error of a job that needs the GPU task ``key`` where there is no GPU slot."""
    return GPUUnavailable(
        f"task {key!r} runs on a GPU and this runtime has no GPU slot: start the session "
        "with new_session(cuda_devices=[0]), or a cluster worker with "
        "mars-worker --cuda-devices 0"
    )


def fail_jobs_without_gpu(core: SchedulerState, records: Iterable[TaskRecord]) -> None:
    """Fail every live job that needs one of the GPU ``records`` not in memory, through
    its dependents too, in submission order; each with the first such key it needs.
    Call it only while ``lacks_gpu``."""
    first: dict[JobRecord, Key] = {}
    for ts in records:
        if not ts.gpu or ts.state == MEMORY:
            continue
        seen = {ts}
        walk = [ts]
        for t in walk:  # grows while iterated: a breadth-first walk of the dependents
            for job in (*t.jobs, *(t.output_jobs or ())):
                first.setdefault(job, ts.key)
            for d in t.dependents:
                if d not in seen:
                    seen.add(d)
                    walk.append(d)
    for job in sorted(first, key=job_seq):
        if job.job_id in core._jobs:
            fail_job(core, job, first[job], no_gpu_slot_error(first[job]))
