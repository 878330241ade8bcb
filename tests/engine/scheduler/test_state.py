"""Unit and property tests of the scheduler core state machine."""

from __future__ import annotations

from collections.abc import Hashable
from concurrent.futures import CancelledError

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jupyter_mars.engine.scheduler.events import (
    GraphSubmitted,
    JobCancelled,
    KeysReleased,
    SchedulerEvent,
)
from jupyter_mars.engine.scheduler.instructions import Execute, JobFailed, JobFinished, Release
from jupyter_mars.engine.scheduler.state import SchedulerState
from tests.engine.scheduler.helpers import (
    Shell,
    _ancestors,
    cancel,
    fail,
    fin,
    kinds,
    make,
    rel,
    slots,
    submit,
    worlds,
)

CHAIN = {"a": [], "b": ["a"], "c": ["b"]}


# ---------------------------------------------------------------------- basics


def test_chain_runs_in_order_and_releases_intermediates() -> None:
    s = make(n_slots=2)
    assert kinds(s(submit("j", CHAIN, ["c"]))) == [("execute", "a")]
    assert s.task_state("a") == "running"
    assert s.task_state("b") == "waiting"
    assert s.n_running == 1
    assert kinds(s(fin("a"))) == [("execute", "b")]
    assert s.task_state("a") == "memory"
    assert kinds(s(fin("b"))) == [("release", "a"), ("execute", "c")]
    assert s.task_state("a") is None
    assert kinds(s(fin("c"))) == [("release", "b"), ("finished", "j")]
    assert s.keys_in_memory() == {"c"}
    assert s.holds("c") == 1
    assert s.live_jobs() == set()
    assert kinds(s(rel("c"))) == [("release", "c")]
    assert s.keys_in_memory() == set()
    assert s.nbytes_in_memory == 0


def test_readers_left_counts_the_readers_still_to_finish() -> None:
    s = make(n_slots=4)
    s(submit("held", {"x": []}, ["x"]))
    s(fin("x"))
    graph = {"r1": ["x"], "r2": ["x"], "both": ["r1", "r2"]}
    s(submit("j", graph, ["both"]))
    assert s.readers_left("x") == 2
    s(fin("r1"))
    assert s.readers_left("x") == 1
    s(fin("r2"))
    assert s.readers_left("x") == 0
    assert s.task_state("x") == "memory"  # still held by its first job's output
    assert s.readers_left("unknown") == 0


def test_stimulus_ids_are_copied_from_the_causing_event() -> None:
    s = make()
    (ex,) = s(submit("j", CHAIN, ["b"], sid="go"))
    assert ex == Execute("go", "a")
    assert s(fin("a", sid="done-a")) == [Execute("done-a", "b")]
    assert s(fin("b", sid="done-b")) == [Release("done-b", "a"), JobFinished("done-b", "j")]
    assert s(KeysReleased("gc", ("b",))) == [Release("gc", "b")]


def test_slots_limit_and_growth() -> None:
    s = make(n_slots=2)
    graph = {f"t{i}": [] for i in range(5)} | {"sum": [f"t{i}" for i in range(5)]}
    prios = {f"t{i}": i for i in range(5)}
    out = s(submit("j", graph, ["sum"], prios))
    assert kinds(out) == [("execute", "t0"), ("execute", "t1")]
    assert s.n_running == 2
    assert s.n_ready == 3
    assert kinds(s(slots(4))) == [("execute", "t2"), ("execute", "t3")]
    assert kinds(s(slots(1))) == []
    assert kinds(s(fin("t0"))) == []  # still 3 running > 1 slot
    assert kinds(s(fin("t1"), fin("t2"))) == []
    assert kinds(s(fin("t3"))) == [("execute", "t4")]
    assert kinds(s(fin("t4"))) == [("execute", "sum")]
    out = kinds(s(fin("sum")))
    assert sorted(out[:-1]) == [("release", f"t{i}") for i in range(5)]
    assert out[-1] == ("finished", "j")


def test_zero_slots_pauses() -> None:
    s = make(n_slots=0)
    assert s(submit("j", {"a": []}, ["a"])) == []
    assert s.task_state("a") == "ready"
    assert kinds(s(slots(1))) == [("execute", "a")]


def test_negative_slots_rejected() -> None:
    with pytest.raises(ValueError, match="n_slots"):
        SchedulerState(-1)
    s = make()
    with pytest.raises(ValueError, match="n_slots"):
        s(slots(-2))
    assert s.n_slots == 1


def test_priorities_within_a_job_then_submission_order() -> None:
    s = make(n_slots=1)
    g1 = {"x1": [], "x2": [], "x3": []}
    g2 = {"y1": [], "y2": []}
    out = s(
        submit("j1", g1, ["x1", "x2", "x3"], {"x1": 2, "x2": 0, "x3": 1}),
        submit("j2", g2, ["y1", "y2"], {"y1": -5, "y2": -6}),
    )
    assert kinds(out) == [("execute", "x2")]
    order = []
    key = "x2"
    for _ in range(4):
        (ex,) = [i for i in s(fin(key)) if isinstance(i, Execute)]
        key = ex.key
        order.append(key)
    assert order == ["x3", "x1", "y2", "y1"]


def test_equal_priorities_are_broken_deterministically() -> None:
    def run() -> list[Hashable]:
        s = make(n_slots=1)
        graph = {("k", i): [] for i in range(20)}
        order = [ins.key for ins in s(submit("j", graph, list(graph))) if isinstance(ins, Execute)]
        while s.n_running:
            order += [i.key for i in s(fin(order[-1])) if isinstance(i, Execute)]
        return order

    assert run() == run()


def test_duplicate_dependency_is_read_once() -> None:
    s = make()
    s(submit("j", {"x": [], "y": ["x", "x"]}, ["y"]))
    assert kinds(s(fin("x"))) == [("execute", "y")]
    assert kinds(s(fin("y"))) == [("release", "x"), ("finished", "j")]


def test_duplicate_outputs_get_one_hold_per_entry() -> None:
    s = make()
    s(submit("j", {"x": []}, ["x", "x"]))
    assert kinds(s(fin("x"))) == [("finished", "j")]
    assert s.holds("x") == 2
    assert s(rel("x")) == []
    assert kinds(s(rel("x"))) == [("release", "x")]


def test_release_twice_in_one_event_and_idempotent_release() -> None:
    s = make()
    s(submit("j1", {"x": []}, ["x"]))
    s(fin("x"))
    s(submit("j2", {"x": []}, ["x"]))  # already in memory: finishes at once
    assert s.holds("x") == 2
    assert kinds(s(rel("x", "x"))) == [("release", "x")]
    assert s(rel("x", "x", "unknown")) == []


def test_release_without_hold_is_ignored_while_needed() -> None:
    s = make()
    s(submit("j", CHAIN, ["c"]))
    s(fin("a"))
    assert s(rel("a", "b")) == []
    assert s.task_state("a") == "memory"


# ---------------------------------------------------------------------- sharing


def test_job_with_outputs_in_memory_finishes_immediately() -> None:
    s = make()
    s(submit("j1", CHAIN, ["b"]))
    s(fin("a"))
    s(fin("b"))
    out = s(submit("j2", CHAIN, ["b"], sid="again"))
    assert out == [JobFinished("again", "j2")]
    assert s.holds("b") == 2
    assert s.task_state("c") is None  # not an output's dependency: never created


def test_memory_key_is_not_rerun_and_feeds_a_new_job() -> None:
    s = make()
    s(submit("j1", CHAIN, ["b"]))
    s(fin("a"))
    s(fin("b"))
    # j2 names only c and the held b
    assert kinds(s(submit("j2", {"c": ["b"]}, ["c"]))) == [("execute", "c")]
    assert kinds(s(fin("c"))) == [("finished", "j2")]
    assert s.holds("b") == 1
    assert s.holds("c") == 1
    assert kinds(s(rel("b", "c"))) == [("release", "b"), ("release", "c")]


def test_shared_running_key_is_not_run_twice() -> None:
    s = make(n_slots=4)
    s(submit("j1", {"a": [], "b": ["a"]}, ["b"]))
    out = s(submit("j2", {"c": ["a"]}, ["c"]))  # a is running for j1
    assert out == []
    assert kinds(s(fin("a"))) == [("execute", "b"), ("execute", "c")]
    assert kinds(s(fin("b"))) == [("finished", "j1")]
    assert s.task_state("a") == "memory"  # c still reads it
    assert kinds(s(fin("c"))) == [("release", "a"), ("finished", "j2")]


def test_shared_output_across_jobs_gets_a_hold_per_job() -> None:
    s = make()
    s(submit("j1", CHAIN, ["c"]))
    s(submit("j2", CHAIN, ["c"]))
    s(fin("a"))
    s(fin("b"))
    assert kinds(s(fin("c"))) == [("release", "b"), ("finished", "j1"), ("finished", "j2")]
    assert s.holds("c") == 2


def test_unfinished_output_of_live_job_is_kept() -> None:
    s = make(n_slots=1)
    s(submit("j", {"x": [], "y": []}, ["x", "y"], {"x": 0, "y": 1}))
    assert kinds(s(fin("x"))) == [("execute", "y")]
    assert s.task_state("x") == "memory"  # no reader, no hold, but an output of j
    assert kinds(s(fin("y"))) == [("finished", "j")]


def test_unknown_dependency_raises_and_changes_nothing() -> None:
    s = make()
    with pytest.raises(ValueError, match="'missing'.*read by task 'b'"):
        s(submit("j", {"a": [], "b": ["a", "missing"]}, ["b"]))
    with pytest.raises(ValueError, match="'nope'.*an output"):
        s(submit("j", {"a": []}, ["nope"]))
    assert s.task_state("a") is None
    assert s.live_jobs() == set()
    assert kinds(s(submit("j", {"a": []}, ["a"]))) == [("execute", "a")]


def test_instructions_before_an_invalid_event_are_returned_later() -> None:
    s = make()
    with pytest.raises(ValueError, match="already live"):
        s.state.handle(submit("j", {"a": []}, ["a"]), submit("j", {"b": []}, ["b"]))
    assert kinds(s()) == [("execute", "a")]


def test_unknown_event_type() -> None:
    s = make()
    with pytest.raises(TypeError, match="not a scheduler event"):
        s(SchedulerEvent("x"))


def test_stale_reports_are_ignored() -> None:
    s = make()
    s(submit("j", CHAIN, ["b"]))
    assert s(fin("b")) == []  # waiting, not running
    assert s(fin("zzz")) == []
    assert s(fail("b")) == []
    s(fin("a"))
    assert s(fin("a")) == []  # duplicate


def test_impossible_transition_is_a_bug() -> None:
    s = make()
    s(submit("j", {"a": []}, ["a"]))
    ts = s.state._tasks["a"]
    with pytest.raises(AssertionError, match="impossible transition running -> running"):
        s.state._transition(ts, "running")


def test_validate_state_detects_corruption() -> None:
    s = SchedulerState(1)
    s.handle(submit("j", CHAIN, ["c"]))
    s._n_running = 5
    with pytest.raises(AssertionError, match="n_running"):
        s.validate_state()


# ---------------------------------------------------------------------- failures


def test_retriable_failure_is_retried_then_errs() -> None:
    s = make(n_slots=1, max_retries=2)
    s(submit("j", CHAIN, ["c"]))
    err = OSError("lost worker")
    assert kinds(s(fail("a", retriable=True, error=err))) == [("execute", "a")]
    assert kinds(s(fail("a", retriable=True, error=err))) == [("execute", "a")]
    out = s(fail("a", retriable=True, error=err))
    assert len(out) == 1
    assert isinstance(out[0], JobFailed)
    assert out[0].job_id == "j"
    assert out[0].key == "a"
    assert out[0].error is err
    for key in "abc":
        assert s.task_state(key) is None
    assert s.n_running == 0


def test_retry_keeps_priority_order() -> None:
    s = make(n_slots=1)
    s(submit("j", {"x": [], "y": []}, ["x", "y"], {"x": 0, "y": 1}))
    assert kinds(s(fail("x", retriable=True))) == [("execute", "x")]


def test_non_retriable_failure_fails_every_job_that_needs_it() -> None:
    s = make(n_slots=2)
    s(submit("j1", {"a": [], "b": ["a"]}, ["b"]))
    s(submit("j2", {"c": ["b"]}, ["c"]))  # needs a through b
    s(submit("j3", {"z": []}, ["z"]))  # independent
    assert s.n_running == 2  # a and z
    out = s(fail("a"))
    assert [(i.job_id, i.key) for i in out if isinstance(i, JobFailed)] == [
        ("j1", "a"),
        ("j2", "a"),
    ]
    assert len(out) == 2
    for key in "abc":
        assert s.task_state(key) is None
    assert s.task_state("z") == "running"
    assert kinds(s(fin("z"))) == [("finished", "j3")]


def test_failure_releases_data_held_only_for_the_failed_job() -> None:
    s = make(n_slots=1)
    graph = {"x": [], "y": [], "z": ["x", "y"]}
    s(submit("j", graph, ["z"], {"x": 0, "y": 1}))
    s(submit("k", {"w": []}, ["w"]))
    s(fin("x"))
    out = kinds(s(fail("y")))
    assert out == [("failed", "j"), ("release", "x"), ("execute", "w")]


def test_erred_key_can_be_submitted_again() -> None:
    s = make()
    s(submit("j1", {"a": []}, ["a"]))
    s(fail("a"))
    assert s.task_state("a") is None
    assert kinds(s(submit("j2", {"a": []}, ["a"]))) == [("execute", "a")]
    assert kinds(s(fin("a"))) == [("finished", "j2")]


def test_failure_leaves_other_jobs_held_results_alone() -> None:
    s = make()
    s(submit("j1", {"a": []}, ["a"]))
    s(fin("a"))
    s(submit("j2", {"b": ["a"]}, ["b"]))
    out = s(fail("b"))
    assert kinds(out) == [("failed", "j2")]
    assert s.holds("a") == 1
    assert s.task_state("a") == "memory"


def test_running_task_of_failed_job_is_interrupted() -> None:
    s = make(n_slots=2)
    s(submit("j", {"x": [], "y": [], "z": ["x", "y"]}, ["z"]))
    assert s.n_running == 2
    assert kinds(s(fail("x"))) == [("failed", "j"), ("interrupt", "y")]
    assert s.task_state("y") is None
    assert s.n_running == 0
    assert s(fin("y")) == []  # a late result: stale


def test_interrupted_task_failure_fails_nothing() -> None:
    s = make(n_slots=2)
    s(submit("j", {"x": [], "y": []}, ["x", "y"]))
    s(cancel("j"))
    assert s(fail("x", retriable=True)) == []
    assert s(fail("y")) == []
    assert s.n_running == 0


def test_cancel_frees_the_slots_of_running_tasks_at_once() -> None:
    s = make(n_slots=2)
    s(submit("j1", {"x": [], "y": []}, ["x", "y"]))
    s(submit("j2", {"z": []}, ["z"]))
    assert s.n_running == 2  # z waits for a slot
    assert kinds(s(cancel("j1"))) == [
        ("failed", "j1"),
        ("interrupt", "x"),
        ("interrupt", "y"),
        ("execute", "z"),
    ]
    assert s(fin("x")) == []  # late
    assert kinds(s(fin("z"))) == [("finished", "j2")]


def test_interrupted_task_runs_again_for_a_new_job() -> None:
    s = make(n_slots=2)
    s(submit("j1", {"x": []}, ["x"]))
    assert kinds(s(cancel("j1"))) == [("failed", "j1"), ("interrupt", "x")]
    assert kinds(s(submit("j2", {"x": []}, ["x"]))) == [("execute", "x")]
    assert kinds(s(fin("x"))) == [("finished", "j2")]


# ---------------------------------------------------------------------- cancellation


def test_cancel_forgets_only_what_the_job_needed() -> None:
    s = make(n_slots=1)
    s(submit("j1", {"a": [], "b": ["a"]}, ["b"]))
    s(submit("j2", {"c": ["a"], "d": ["c"]}, ["d"]))
    out = s(cancel("j2"))
    assert len(out) == 1
    assert isinstance(out[0], JobFailed)
    assert out[0].job_id == "j2"
    assert out[0].key is None
    assert isinstance(out[0].error, CancelledError)
    assert s.task_state("c") is None
    assert s.task_state("d") is None
    assert s.task_state("a") == "running"
    assert kinds(s(fin("a"))) == [("execute", "b")]
    assert kinds(s(fin("b"))) == [("release", "a"), ("finished", "j1")]


def test_cancel_releases_memory_of_the_job() -> None:
    s = make(n_slots=1)
    s(submit("j", {"a": [], "b": [], "c": ["a", "b"]}, ["c"], {"a": 0, "b": 1}))
    s(fin("a"))
    assert kinds(s(cancel("j"))) == [("failed", "j"), ("interrupt", "b"), ("release", "a")]
    assert s.task_state("b") is None
    assert s(fin("b")) == []


def test_cancel_keeps_a_shared_held_result() -> None:
    s = make()
    s(submit("j1", {"a": []}, ["a"]))
    s(fin("a"))
    s(submit("j2", {"b": ["a"]}, ["b", "a"]))
    assert kinds(s(cancel("j2"))) == [("failed", "j2"), ("interrupt", "b")]
    assert s.holds("a") == 1
    assert s.task_state("b") is None


def test_cancel_finished_or_unknown_job_emits_nothing() -> None:
    s = make()
    s(submit("j", {"a": []}, ["a"]))
    s(fin("a"))
    assert s(cancel("j")) == []
    assert s(cancel("never")) == []


def test_job_id_may_be_reused_after_it_ended() -> None:
    s = make()
    s(submit("j", {"a": []}, ["a"]))
    s(cancel("j"))
    s(fin("a"))
    assert kinds(s(submit("j", {"a": []}, ["a"]))) == [("execute", "a")]


def test_cancel_a_long_waiting_chain_is_not_recursive() -> None:
    s = SchedulerState(n_slots=1)
    n = 5000
    graph = {0: ()} | {i: (i - 1,) for i in range(1, n)}
    s.handle(GraphSubmitted("go", "j", graph, (n - 1,)))
    out = s.handle(JobCancelled("stop", "j"))
    assert len(out) == 2  # failed, and the running first task interrupted
    assert s.task_state(n - 1) is None
    assert s.handle(fin(0)) == []  # interrupted: its late result is stale
    s.validate_state()


# ---------------------------------------------------------------------- scale


def test_ten_thousand_task_chain_and_fan() -> None:
    s = SchedulerState(n_slots=8)
    n = 5000
    graph: dict[Hashable, tuple[Hashable, ...]] = {("chain", 0): ()}
    for i in range(1, n):
        graph[("chain", i)] = (("chain", i - 1),)
    for i in range(n - 1):
        graph[("fan", i)] = (("chain", n - 1),)
    graph["sum"] = tuple(("fan", i) for i in range(n - 1))
    assert len(graph) == 2 * n
    prios = {k: i for i, k in enumerate(graph)}
    pending = [i.key for i in s.handle(GraphSubmitted("go", "big", graph, ("sum",), prios))]
    executed = 0
    finished = []
    while pending:
        key = pending.pop()
        executed += 1
        for ins in s.handle(fin(key)):
            if isinstance(ins, Execute):
                pending.append(ins.key)
            elif isinstance(ins, JobFinished):
                finished.append(ins.job_id)
        assert s.n_running <= 8
    assert executed == len(graph)
    assert finished == ["big"]
    assert s.keys_in_memory() == {"sum"}
    s.validate_state()
    s.handle(rel("sum"))
    assert s.keys_in_memory() == set()
    s.validate_state()


def test_chain_keeps_memory_low() -> None:
    s = SchedulerState(n_slots=1)
    graph = {0: ()} | {i: (i - 1,) for i in range(1, 1000)}
    (ex,) = s.handle(GraphSubmitted("go", "j", graph, (999,)))
    assert isinstance(ex, Execute)
    key = ex.key
    while True:
        out = s.handle(fin(key))
        assert len(s.keys_in_memory()) <= 2
        nxt = [i.key for i in out if isinstance(i, Execute)]
        if not nxt:
            break
        (key,) = nxt
    assert s.keys_in_memory() == {999}


# ---------------------------------------------------------------------- property test


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(world=worlds(), n_slots=st.integers(1, 3), max_retries=st.integers(0, 2), data=st.data())
def test_random_dags(
    world: tuple[dict[int, tuple[int, ...]], list[list[int]]],
    n_slots: int,
    max_retries: int,
    data: st.DataObject,
) -> None:
    dag, job_outputs = world
    sh = Shell(dag, n_slots, max_retries)
    to_submit = list(enumerate(job_outputs))
    submitted: list[str] = []
    for _ in range(data.draw(st.integers(0, 40), label="steps")):
        actions = ["slots", "stale"]
        if to_submit:
            actions += ["submit"] * 3
        if sh.running:
            actions += ["finish"] * 4 + ["fail"]
        if submitted:
            actions.append("cancel")
        if +sh.holds:
            actions.append("release")
        action = data.draw(st.sampled_from(actions), label="action")
        if action == "submit":
            i, outputs = to_submit.pop(0)
            job = f"job{i}"
            full = data.draw(st.booleans(), label="full graph")
            needed = _ancestors(dag, outputs)
            graph = {
                k: dag[k] for k in needed if full or sh.s.task_state(k) is None or k in outputs
            }
            prios = {k: data.draw(st.integers(-3, 3), label="prio") for k in graph}
            sh.outputs[job] = tuple(outputs)
            sh.needed[job] = needed
            submitted.append(job)
            sh.send(GraphSubmitted(f"submit-{job}", job, graph, tuple(outputs), prios))
        elif action == "finish":
            sh.finish(data.draw(st.sampled_from(sorted(sh.running)), label="finish"))
        elif action == "fail":
            key = data.draw(st.sampled_from(sorted(sh.running)), label="fail")
            sh.fail(key, data.draw(st.booleans(), label="retriable"))
        elif action == "cancel":
            sh.send(cancel(data.draw(st.sampled_from(submitted), label="cancel")))
        elif action == "release":
            held = sorted(k for k, n in sh.holds.items() if n)
            keys = data.draw(st.lists(st.sampled_from(held), min_size=1, max_size=3))
            for k in keys:
                if sh.holds[k]:
                    sh.holds[k] -= 1
            sh.send(rel(*keys))
        elif action == "slots":
            sh.send(slots(data.draw(st.integers(0, 4), label="slots")))
        else:
            key = data.draw(st.sampled_from(sorted(dag)), label="stale")
            if key not in sh.running:
                before = sh.s.task_state(key)
                assert sh.s.handle(fin(key)) == []
                assert sh.s.task_state(key) == before

    # Drain: no more failures; every submitted job must end exactly once.
    sh.send(slots(max(sh.n_slots, 1)))
    for i, outputs in to_submit:
        job = f"job{i}"
        sh.outputs[job] = tuple(outputs)
        sh.needed[job] = _ancestors(dag, outputs)
        submitted.append(job)
        sh.send(GraphSubmitted(f"submit-{job}", job, dict(dag), tuple(outputs)))
    while sh.running:
        sh.finish(min(sh.running))
    assert set(sh.outcome) == set(submitted)
    assert sh.s.live_jobs() == set()
    assert sh.s.n_ready == 0
    # Only held data is left.
    assert sh.store == {k for k, n in sh.holds.items() if n}
    for k in dag:
        assert sh.s.holds(k) == sh.holds[k]
        assert sh.s.task_state(k) in (None, "memory")
    keys = list(sh.holds.elements())
    sh.holds.clear()
    sh.send(rel(*keys))
    assert sh.store == set()
    assert all(sh.s.task_state(k) is None for k in dag)
    assert sh.s.nbytes_in_memory == 0


def test_the_core_counts_a_task_s_attempts_and_the_retries_left() -> None:
    s = make(n_slots=1, max_retries=2)
    s(submit("j", CHAIN, ["c"]))
    assert (s.state.attempts("a"), s.state.retries_left("a")) == (1, 2)
    s(fail("a", retriable=True))
    assert (s.state.attempts("a"), s.state.retries_left("a")) == (2, 1)
    s(fail("a", retriable=True))
    assert (s.state.attempts("a"), s.state.retries_left("a")) == (3, 0)
    s(fail("a", retriable=True))  # spent: erred and forgotten
    assert (s.state.attempts("a"), s.state.retries_left("a")) == (0, 0)


def test_a_task_counts_toward_the_earliest_live_job_that_waits_for_it() -> None:
    s = make(n_slots=1)
    s(submit("j1", CHAIN, ["c"]))
    s(submit("j2", CHAIN, ["c"]))  # joins the same records
    assert [s.state.owner(k) for k in "abc"] == ["j1", "j1", "j1"]
    s(cancel("j1"))
    assert s.state.owner("c") == "j2"  # the job still waiting for it
    s(fin("a"))
    assert s.state.owner("a") is None  # in memory: no job waits for it any more
    assert s.state.owner("unknown") is None
