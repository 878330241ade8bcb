"""The worker core's memory decisions: admission under the soft limit, spilling above it,
stopping the task that grew the process past the hard limit; and a lost peer."""

from __future__ import annotations

import logging

from jupyter_mars.engine.worker.instructions import Failed, Log, Reply, Shed, Spill
from jupyter_mars.engine.worker.limits import MemoryLimits
from tests.engine.worker.helpers import (
    admitted,
    assign,
    cancel,
    erred,
    fetched,
    finished,
    kinds,
    make,
    peer_lost,
    sampled,
    spill_done,
)

MIB = 1 << 20
LIMITS = MemoryLimits.of(1000 * MIB)  # soft 750 MiB, hard 900 MiB


def test_without_limits_every_task_is_admitted_at_once() -> None:
    core = make()
    core(sampled(10**12, now=1.0))
    assert kinds(core(assign("t", nbytes=10**12, attempt=1))) == [("run", "t")]


def test_a_task_waits_for_memory_holding_and_fetching_nothing() -> None:
    core = make(n_slots=2, limits=LIMITS)
    core(sampled(700 * MIB, now=1.0))
    where = {"x": "p:1"}
    out = core(assign("t", deps=["x"], locations=where, nbytes=100 * MIB, now=1.0, attempt=1))
    assert out == []  # 700 + 100 MiB would pass the soft limit of 750 MiB
    assert core.task_state("t") == "waiting"
    assert core.fetching() == {}
    # memory was freed: it is admitted (the shell holds its local inputs from now on)
    # and fetches its input
    out = core(sampled(500 * MIB, now=1.1))
    assert admitted(out) == ["t"]
    assert kinds(out) == [("fetch", "p:1", ("x",))]
    assert core.task_state("t") == "fetching"


def test_what_spilling_can_free_counts_toward_admission() -> None:
    core = make(limits=LIMITS)
    core(sampled(700 * MIB, now=1.0, reclaimable=60 * MIB))
    assert kinds(core(assign("t", nbytes=100 * MIB, now=1.0, attempt=1))) == [("run", "t")]


def test_tasks_admitted_together_must_all_fit() -> None:
    core = make(n_slots=4, limits=LIMITS)
    core(sampled(400 * MIB, now=1.0))
    assert kinds(core(assign("a", nbytes=200 * MIB, now=1.0, attempt=1))) == [("run", "a")]
    # 400 + 200 reserved + 200 would pass 750, though each alone fits
    assert core(assign("b", nbytes=200 * MIB, now=1.0, attempt=2)) == []
    # a small one passes the big one waiting
    assert kinds(core(assign("c", nbytes=10 * MIB, now=1.0, attempt=3))) == [("run", "c")]
    # a's reservation ends with it: b fits now
    out = core(finished("a", 1))
    assert kinds(out) == [("store", "a"), ("reply", "a", "done"), ("run", "b")]


def test_results_stored_since_the_last_sample_count_toward_admission() -> None:
    core = make(n_slots=1, limits=LIMITS)
    core(sampled(600 * MIB, now=1.0))
    assert kinds(core(assign("a", now=1.0, attempt=1))) == [("run", "a")]
    # a finished 100 MiB result, not sampled yet: 700 MiB held, 100 MiB more would not fit
    out = core(finished("a", 1, nbytes=100 * MIB), assign("b", nbytes=100 * MIB, attempt=2))
    assert kinds(out) == [("store", "a"), ("reply", "a", "done")]
    assert core.task_state("b") == "waiting"
    # the next sample has it (and no more counted twice): the result was spilled
    assert admitted(core(sampled(600 * MIB, now=1.1))) == ["b"]


def test_a_task_waiting_too_long_fails_with_a_memory_error() -> None:
    core = make(n_slots=2, limits=LIMITS)
    core.memory.where = "w:1"
    core(sampled(740 * MIB, now=0.0))
    core(assign("a", nbytes=0, now=0.0, attempt=1))  # admitted: it could free memory
    assert core(assign("b", nbytes=50 * MIB, now=0.0, attempt=2)) == []
    assert core(sampled(740 * MIB, now=59.0)) == []  # others could still free some
    out = core(sampled(740 * MIB, now=60.0))
    assert kinds(out) == [("log", logging.ERROR), ("reply", "b", "failed")]
    reply = out[1]
    assert isinstance(reply, Reply)
    assert isinstance(reply.outcome, Failed)
    assert isinstance(reply.outcome.error, MemoryError)
    message = str(reply.outcome.error)
    assert message.startswith("worker w:1: no room for a task reading 52428800 bytes")
    assert "soft limit of 750 MiB (75% of the worker memory, 1000 MiB)" in message
    assert core.task_state("a") == "running"


def test_with_nothing_here_to_free_memory_a_task_fails_soon() -> None:
    core = make(limits=LIMITS)
    core(sampled(800 * MIB, now=0.0))
    core(spill_done())
    assert core(assign("t", nbytes=MIB, now=0.0, attempt=1)) == []
    assert kinds(core(sampled(800 * MIB, now=1.0))) == [("spill", 800 * MIB - 675 * MIB)]
    out = core(sampled(800 * MIB, now=2.0))
    assert kinds(out)[-1] == ("reply", "t", "failed")
    assert "no other task here could free any" in str(out[-1].outcome.error)  # type: ignore[attr-defined]


def test_a_task_cancelled_while_it_waits_for_memory_never_runs() -> None:
    core = make(limits=LIMITS)
    core(sampled(800 * MIB, now=0.0))
    core(assign("t", nbytes=MIB, now=0.0, attempt=1))
    assert kinds(core(cancel("t"))) == [("reply", "t", "cancelled"), ("forget", "t")]
    assert kinds(core(sampled(100 * MIB, now=0.5))) == []


def test_above_the_soft_limit_one_spill_at_a_time_down_below_it() -> None:
    core = make(limits=LIMITS)
    assert kinds(core(sampled(700 * MIB, now=0.0))) == []
    out = core(sampled(800 * MIB, now=0.1))
    assert kinds(out) == [("log", logging.INFO), ("spill", 800 * MIB - int(750 * MIB * 0.9))]
    assert core.memory.figures()["above_soft_limit"]
    assert kinds(core(sampled(790 * MIB, now=0.2))) == []  # the spill is under way
    core(spill_done(50 * MIB))
    assert isinstance(core(sampled(780 * MIB, now=0.3))[0], Spill)
    core(spill_done())
    assert core(sampled(100 * MIB, now=0.4)) == []
    assert not core.memory.figures()["above_soft_limit"]


def test_past_the_hard_limit_the_task_that_grew_most_is_stopped_alone() -> None:
    core = make(n_slots=3, limits=LIMITS)
    core.memory.where = "w:1"
    core(sampled(100 * MIB, now=0.0))
    core(assign(("grow-1a2b", 0), nbytes=0, now=0.0, attempt=1))
    core(sampled(500 * MIB, now=0.1))
    core(assign(("other-3c4d", 0), nbytes=0, now=0.1, attempt=2))
    core(spill_done())
    out = core(sampled(950 * MIB, now=0.2))
    sheds = [ins for ins in out if isinstance(ins, Shed)]
    assert [(s.runs, s.attempt) for s in sheds] == [(("grow-1a2b", 0), 1)]
    message = sheds[0].message
    assert "operator 'grow'" in message
    assert "on worker w:1" in message
    assert "950 MiB, past its hard limit of 900 MiB (90% of the worker memory, 1000 MiB)" in (
        message
    )
    assert [ins.level for ins in out if isinstance(ins, Log)] == [logging.ERROR, logging.INFO]
    # one at a time: none other while the stopped one has not ended
    assert not any(isinstance(i, Shed) for i in core(sampled(960 * MIB, now=0.3)))
    out = core(erred(("grow-1a2b", 0), 1, MemoryError(message)))
    assert kinds(out) == [("reply", ("grow-1a2b", 0), "failed")]
    # it ended: its memory is collected, and none other is stopped during the grace
    assert ("collect",) in kinds(core(sampled(960 * MIB, now=0.4)))
    assert not any(isinstance(i, Shed) for i in core(sampled(960 * MIB, now=1.3)))
    # still past it after the grace: the other is stopped
    out = core(sampled(960 * MIB, now=1.5))
    assert [s.runs for s in out if isinstance(s, Shed)] == [("other-3c4d", 0)]
    assert core.memory.figures()["tasks_stopped"] == 2


def test_past_the_hard_limit_with_no_task_running_it_is_said_once() -> None:
    core = make(limits=LIMITS)
    out = core(sampled(950 * MIB, now=0.0))
    assert [i.level for i in out if isinstance(i, Log)] == [logging.WARNING, logging.INFO]
    core(spill_done())
    out = core(sampled(950 * MIB, now=0.1))
    assert [i for i in out if isinstance(i, Log)] == []


def test_a_lost_peer_fails_every_fetch_from_it_and_no_other() -> None:
    core = make(n_slots=3)
    core(assign("s", deps=["x"], locations={"x": "p:1"}, attempt=1))
    core(assign("t", deps=["y", "z"], locations={"y": "p:1", "z": "p:2"}, attempt=2))
    core(assign("u", deps=["z"], locations={"z": "p:2"}, attempt=3))
    out = core(peer_lost("p:1", "connection refused"))
    assert sorted(kinds(out)) == [("reply", "s", "lost"), ("reply", "t", "lost")]
    assert "fetching them from peer p:1 failed: connection refused" in str(out[0].outcome)  # type: ignore[attr-defined]
    assert core.fetching() == {"z": "p:2"}  # u still waits for it
    assert kinds(core(fetched("p:2", {"z": 1}))) == [("run", "u")]
