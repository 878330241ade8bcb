"""Invariants of the scheduler core, checked after every test (``validate_state``).

Kept apart from the state machine: it reads every record (O(tasks + edges)), so it never
runs in production code paths.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jupyter_mars.engine.scheduler.records import MEMORY, READY, RUNNING, WAITING, is_needed

if TYPE_CHECKING:
    from jupyter_mars.engine.scheduler.state import SchedulerState


def check_invariants(core: SchedulerState) -> None:
    """Raise AssertionError, naming the record, if any invariant does not hold."""
    tasks = core._tasks
    jobs = core._jobs
    live_jobs = set(jobs.values())
    n_ready = n_running = nbytes = n_gpu_ready = n_gpu_running = 0
    for key, ts in tasks.items():
        assert ts.key == key, f"record of {key!r} has key {ts.key!r}"
        state = ts.state
        assert state in (WAITING, READY, RUNNING, MEMORY), f"{ts!r}: bad state"
        assert ts.holds >= 0, f"{ts!r}: negative holds"
        # holds outside memory: a held result was lost and is being recomputed
        assert ts.retries <= core._max_retries, f"{ts!r}: too many retries"
        for dts in ts.deps:
            assert tasks.get(dts.key) is dts, f"{ts!r}: dependency {dts!r} is forgotten"
            assert ts in dts.dependents, f"{ts!r} missing from dependents of {dts!r}"
        assert len(set(ts.deps)) == len(ts.deps), f"{ts!r}: duplicate deps"
        for dts in ts.dependents:
            assert tasks.get(dts.key) is dts, f"{ts!r}: dependent {dts!r} is forgotten"
            assert dts.state != MEMORY, f"{ts!r}: dependent {dts!r} is in memory"
            assert ts in dts.deps, f"{ts!r} missing from deps of its dependent {dts!r}"
        for job in ts.jobs:
            assert job in live_jobs, f"{ts!r}: needed by dead job {job!r}"
        for job in ts.output_jobs or ():
            assert job in live_jobs, f"{ts!r}: output of dead job {job!r}"
            assert ts in job.out_tasks, f"{ts!r}: not an output of {job!r}"
        waiting_on = sum(1 for dts in ts.deps if dts.state != MEMORY)
        needed = is_needed(ts)
        if state != MEMORY:
            assert ts.nbytes == 0, f"{ts!r}: counts bytes it does not hold"
            if ts.gpu and ts.jobs:  # else its jobs would have failed at once
                assert not core.lacks_gpu, f"{ts!r}: a job waits for it and there is no GPU slot"
        if ts.gpu:
            n_gpu_ready += state == READY
            n_gpu_running += state == RUNNING
        if state == MEMORY:
            nbytes += ts.nbytes
            assert not ts.deps, f"{ts!r}: still linked to its deps"
            assert not ts.jobs, f"{ts!r}: in memory with jobs"
            assert needed, f"{ts!r}: should be released"
        elif state == WAITING:
            assert waiting_on > 0, f"{ts!r}: all deps in memory but waiting"
            assert ts.waiting_on == waiting_on, f"{ts!r}: waiting_on {ts.waiting_on}"
            assert needed, f"{ts!r}: unneeded but not forgotten"
        elif state == READY:
            n_ready += 1
            assert waiting_on == 0, f"{ts!r}: ready with deps not in memory"
            assert ts.waiting_on == 0, f"{ts!r}: waiting_on {ts.waiting_on}"
            assert ts.token is not None, f"{ts!r}: no heap entry"
            assert needed, f"{ts!r}: unneeded but not forgotten"
        else:
            n_running += 1
            # an input may have been lost while it runs: it waits for it if it is retried
            assert ts.waiting_on == waiting_on, f"{ts!r}: waiting_on {ts.waiting_on}"
            assert needed, f"{ts!r}: unneeded but not interrupted"
    assert n_ready == core._n_ready, f"n_ready {core._n_ready} != {n_ready}"
    assert n_running == core._n_running, f"n_running {core._n_running} != {n_running}"
    assert nbytes == core._nbytes, f"nbytes {core._nbytes} != {nbytes}"
    assert n_gpu_ready == core._n_gpu_ready, f"n_gpu_ready {core._n_gpu_ready} != {n_gpu_ready}"
    assert n_gpu_running == core._n_gpu_running, (
        f"n_gpu_running {core._n_gpu_running} != {n_gpu_running}"
    )
    for heap, gpu in ((core._ready, False), (core._gpu_ready, True)):
        assert all(ts.gpu == gpu for _, _, ts in heap), "a task in the other pool's heap"
    heap_tokens = {token for _, token, ts in (*core._ready, *core._gpu_ready) if ts.state == READY}
    for ts in tasks.values():
        if ts.state == READY:
            assert ts.token in heap_tokens, f"{ts!r}: missing from the ready heap"
    if core._n_ready > core._n_gpu_ready:
        assert core._n_running - core._n_gpu_running >= core._n_slots, (
            "free CPU slot while CPU tasks are ready"
        )
    else:
        assert not core._ready, "stale heap entries kept with no CPU task ready"
    if core._n_gpu_ready:
        assert core._n_gpu_running >= core._n_gpu_slots, "free GPU slot while GPU tasks are ready"
    else:
        assert not core._gpu_ready, "stale heap entries kept with no GPU task ready"
    for job_id, job in jobs.items():
        assert job.job_id == job_id, f"{job!r} filed under {job_id!r}"
        assert job.seq < core._seq, f"{job!r}: seq from the future"
        missing = 0
        for ts in job.out_tasks:
            assert tasks.get(ts.key) is ts, f"{job!r}: output {ts!r} is forgotten"
            assert job in (ts.output_jobs or ()), f"{job!r}: {ts!r} unlinked"
            if ts.state != MEMORY:
                missing += 1
        assert {ts.key for ts in job.out_tasks} == set(job.outputs), f"{job!r}: outputs"
        assert missing == job.missing, f"{job!r}: missing {job.missing} != {missing}"
        assert missing > 0, f"{job!r}: all outputs in memory but not finished"
