"""Invariants of the worker core, checked after every test (``validate_state``).

Kept apart from the state machine: it reads every record and fetch, so it never runs in
production code paths.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jupyter_mars.engine.worker.records import (
    FETCHING,
    FOLLOWING,
    LIVE_STATES,
    READY,
    RUNNING,
    WAITING,
)

if TYPE_CHECKING:
    from jupyter_mars.engine.worker.state import WorkerState


def check_invariants(core: WorkerState) -> None:
    """Raise AssertionError, naming the record, if any invariant does not hold."""
    n_running = 0
    reserved = 0
    for key, ts in core._tasks.items():
        assert ts.key == key, f"record of {key!r} has key {ts.key!r}"
        assert ts.state in LIVE_STATES, f"{ts!r}: bad state"
        assert ts.epoch <= core._epoch, f"{ts!r}: epoch from the future"
        assert set(ts.missing) <= set(ts.deps), f"{ts!r}: waits for a key it does not read"
        assert not set(ts.missing) & set(ts.inputs), f"{ts!r}: waits for an input it has"
        if ts.state == FETCHING:
            assert ts.missing, f"{ts!r}: fetching nothing"
            for dep in ts.missing:
                assert dep in core._fetches, f"{ts!r}: waits for {dep!r}, not being fetched"
                assert ts in core._waiters.get(dep, {}), f"{ts!r}: not a waiter of {dep!r}"
        else:
            assert not ts.missing, f"{ts!r}: still waits for inputs"
        assert (ts.state == READY) == (ts in core._ready), f"{ts!r}: ready queue"
        assert (ts.state == WAITING) == (ts in core._waiting), f"{ts!r}: waiting queue"
        if ts.state == WAITING:
            assert not ts.missing, f"{ts!r}: fetches before admission"
            assert not ts.inputs, f"{ts!r}: has inputs before admission"
        else:
            reserved += ts.nbytes
            assert not ts.local, f"{ts!r}: keeps its fetch plan"
            assert not ts.locations, f"{ts!r}: keeps its fetch plan"
        if ts.state in (RUNNING, FOLLOWING):
            n_running += 1
        if ts.state == RUNNING:
            assert not ts.inputs, f"{ts!r}: keeps inputs handed to the shell"
        if ts.state == FOLLOWING:
            assert ts.follower is not None, f"{ts!r}: following without a follower"
            assert ts.figures is not None, f"{ts!r}: following without its own figures"
    assert n_running == core._n_running, f"n_running {core._n_running} != {n_running}"
    assert reserved == core._reserved, f"reserved {core._reserved} != {reserved}"
    for ts in core._waiting:
        assert core._tasks.get(ts.key) is ts, f"{ts!r}: waits for memory but forgotten"
    shed = core._memory.shed
    if shed is not None and shed[0] in core._tasks and core._tasks[shed[0]].attempt == shed[1]:
        assert core._tasks[shed[0]].state in (RUNNING, FOLLOWING), "stopping a task not computing"
    assert n_running <= core._n_slots, f"{n_running} running in {core._n_slots} slots"
    if core._ready:
        assert n_running == core._n_slots, "a free slot while tasks are ready"
    for ts in core._ready:
        assert core._tasks.get(ts.key) is ts, f"{ts!r}: queued but forgotten"
    for dep, waiting in core._waiters.items():
        assert dep in core._fetches, f"waiters of {dep!r}, which is not being fetched"
        assert waiting, f"empty waiters of {dep!r}"
        for ts in waiting:
            assert core._tasks.get(ts.key) is ts, f"{ts!r}: waits for {dep!r} but forgotten"
            assert ts.state == FETCHING, f"{ts!r}: waits for {dep!r} but is not fetching"
            assert dep in ts.missing, f"{ts!r}: stale waiter of {dep!r}"
