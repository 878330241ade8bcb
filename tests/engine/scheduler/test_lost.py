"""Lost data (``KeysLost``): what was in memory on a dead worker is recomputed from lineage."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jupyter_mars.engine.scheduler.instructions import JobFailed
from tests.engine.scheduler.helpers import (
    Checked,
    Shell,
    _ancestors,
    cancel,
    fail,
    fin,
    kinds,
    lost,
    make,
    rel,
    slots,
    submit,
    worlds,
)

CHAIN = {"a": [], "b": ["a"], "c": ["b"]}


def held_chain(n_slots: int = 1) -> Checked:
    """A core holding the result ``c`` of a chain a -> b -> c; a and b were released."""
    s = make(n_slots=n_slots)
    s(submit("j", CHAIN, ["c"]))
    s(fin("a"))
    s(fin("b"))
    assert kinds(s(fin("c"))) == [("release", "b"), ("finished", "j")]
    assert s.keys_in_memory() == {"c"}
    return s


# ---------------------------------------------------------------------- held results


def test_lost_held_result_is_recomputed_from_lineage() -> None:
    s = held_chain()
    assert kinds(s(lost(["c"], CHAIN))) == [("execute", "a")]
    assert (s.task_state("a"), s.task_state("b"), s.task_state("c")) == (
        "running",
        "waiting",
        "waiting",
    )
    assert s.holds("c") == 1  # the client's hold survives the loss
    assert s.nbytes_in_memory == 0
    assert kinds(s(fin("a"))) == [("execute", "b")]
    assert kinds(s(fin("b"))) == [("release", "a"), ("execute", "c")]
    assert kinds(s(fin("c"))) == [("release", "b")]  # no job: nothing finishes
    assert s.keys_in_memory() == {"c"}
    assert kinds(s(rel("c"))) == [("release", "c")]


def test_lineage_stops_at_keys_in_memory() -> None:
    s = make(n_slots=1)
    s(submit("j", CHAIN, ["b", "c"]))
    for key in "abc":
        s(fin(key))
    assert s.keys_in_memory() == {"b", "c"}
    # only c's lineage is needed: b is in memory
    assert kinds(s(lost(["c"], {"c": ["b"]}))) == [("execute", "c")]
    assert s.task_state("a") is None


def test_missing_lineage_raises_and_changes_nothing() -> None:
    s = held_chain()
    with pytest.raises(ValueError, match="no lineage for 'a'"):
        s(lost(["c"], {"c": ["b"], "b": ["a"]}))
    assert s.keys_in_memory() == {"c"}
    assert s.task_state("b") is None


def test_keys_not_in_memory_are_ignored() -> None:
    s = make(n_slots=1)
    s(submit("j", CHAIN, ["c"]))  # a running, b and c waiting
    assert s(lost(["a", "b", "unknown"], CHAIN)) == []
    assert (s.task_state("a"), s.task_state("b")) == ("running", "waiting")


def test_duplicate_lost_keys_are_lost_once() -> None:
    s = held_chain()
    assert kinds(s(lost(["c", "c"], CHAIN))) == [("execute", "a")]


def test_lost_keys_reading_each_other() -> None:
    s = make(n_slots=2)
    s(submit("j", {"a": [], "b": ["a"]}, ["a", "b"]))
    s(fin("a"))
    s(fin("b"))
    assert kinds(s(lost(["b", "a"], {"a": [], "b": ["a"]}))) == [("execute", "a")]
    assert s.task_state("b") == "waiting"
    assert kinds(s(fin("a"))) == [("execute", "b")]
    s(fin("b"))
    assert (s.holds("a"), s.holds("b")) == (1, 1)


def test_release_while_recomputing_forgets_the_lineage() -> None:
    s = held_chain()
    s(lost(["c"], CHAIN))
    assert kinds(s(rel("c"))) == [("interrupt", "a")]
    assert [s.task_state(k) for k in "abc"] == [None, None, None]
    assert s(fin("a")) == []  # a late result: stale


def test_job_joins_a_lost_result_being_recomputed() -> None:
    s = held_chain()
    s(lost(["c"], CHAIN))
    # the session submits only what is not executed: c is read, not recomputed
    assert s(submit("k", {"d": ["c"]}, ["d"])) == []
    s(fin("a"))
    s(fin("b"))
    assert kinds(s(fin("c"))) == [("release", "b"), ("execute", "d")]
    assert kinds(s(fin("d"))) == [("finished", "k")]
    assert (s.holds("c"), s.holds("d")) == (1, 1)


def test_shared_ancestor_being_computed_is_not_recreated() -> None:
    s = held_chain(n_slots=1)
    s(submit("k", {"a": [], "b": ["a"]}, ["b"]))  # a runs again for job k
    assert s.task_state("a") == "running"
    assert s(lost(["c"], CHAIN)) == []  # c waits on k's b, a shared record
    s(fin("a"))
    assert kinds(s(fin("b"))) == [("release", "a"), ("finished", "k"), ("execute", "c")]
    s(fin("c"))
    assert s.keys_in_memory() == {"b", "c"}


# ---------------------------------------------------------------------- within a job


def test_waiting_dependent_waits_on_one_more() -> None:
    s = make(n_slots=1)
    s(submit("j", {"a": [], "b": [], "c": ["a", "b"]}, ["c"], {"a": 0, "b": 1}))
    assert kinds(s(fin("a"))) == [("execute", "b")]
    assert s(lost(["a"], {"a": []})) == []  # a is ready, b holds the only slot
    assert kinds(s(fin("b"))) == [("execute", "a")]
    assert kinds(s(fin("a"))) == [("execute", "c")]
    assert kinds(s(fin("c"))) == [("release", "a"), ("release", "b"), ("finished", "j")]


def test_ready_dependent_goes_back_to_waiting() -> None:
    s = make(n_slots=2)
    s(submit("j", {"a": [], "b": [], "c": ["a", "b"]}, ["c"]))
    s(slots(0))
    s(fin("a"))
    s(fin("b"))
    assert s.task_state("c") == "ready"
    s(lost(["a"], {"a": []}))
    assert (s.task_state("a"), s.task_state("c"), s.n_ready) == ("ready", "waiting", 1)
    assert kinds(s(slots(2))) == [("execute", "a")]
    assert kinds(s(fin("a"))) == [("execute", "c")]


def test_lost_output_of_a_live_job_is_missing_again() -> None:
    s = make(n_slots=1)
    s(submit("j", {"a": [], "b": []}, ["a", "b"], {"a": 0, "b": 1}))
    s(fin("a"))  # b runs
    s(lost(["a"], {"a": []}))
    assert kinds(s(fin("b"))) == [("execute", "a")]  # not finished: a is missing
    assert kinds(s(fin("a"))) == [("finished", "j")]


def test_running_dependent_that_finishes_drops_the_recompute() -> None:
    s = make(n_slots=1)
    s(submit("j", CHAIN, ["c"]))
    s(fin("a"))  # b runs; it has read a already
    assert s(lost(["a"], CHAIN)) == []  # a is ready again; b keeps the slot
    assert s.task_state("a") == "ready"
    # b delivers: nobody needs a any more, and it is forgotten without running
    assert kinds(s(fin("b"))) == [("execute", "c")]
    assert s.task_state("a") is None


def test_running_dependent_that_fails_waits_for_the_recompute() -> None:
    s = make(n_slots=1)
    s(submit("j", CHAIN, ["c"]))
    s(fin("a"))
    s(lost(["a"], CHAIN))
    # b could not read a: retried, it waits for a instead of running without it
    assert kinds(s(fail("b", retriable=True))) == [("execute", "a")]
    assert s.task_state("b") == "waiting"
    assert kinds(s(fin("a"))) == [("execute", "b")]


def test_worker_death_loses_data_and_fails_its_running_task() -> None:
    s = make(n_slots=2)
    s(submit("j", {"a": [], "b": ["a"], "x": [], "c": ["b", "x"]}, ["c"]))
    s(fin("a"))  # b and x run
    # the worker held a and ran b: the shell reports the loss, then the failure
    assert kinds(s(lost(["a"], {"a": []}))) == []
    assert kinds(s(fail("b", retriable=True))) == [("execute", "a")]
    s(fin("x"))
    assert kinds(s(fin("a"))) == [("execute", "b")]
    assert kinds(s(fin("b"))) == [("release", "a"), ("execute", "c")]
    assert kinds(s(fin("c"))) == [("release", "b"), ("release", "x"), ("finished", "j")]


def test_cancelling_the_job_forgets_the_recompute() -> None:
    s = make(n_slots=1)
    s(submit("j", {"a": [], "b": ["a"], "c": ["a"]}, ["b", "c"], {"b": 0, "c": 1}))
    s(fin("a"))  # b runs
    s(lost(["a"], {"a": []}))
    # b is interrupted, and its lost input forgotten without running
    assert kinds(s(cancel("j"))) == [("failed", "j"), ("interrupt", "b")]
    assert [s.task_state(k) for k in "abc"] == [None, None, None]
    assert s(fin("b")) == []


def test_cancelling_the_job_forgets_the_recreated_ancestors() -> None:
    s = held_chain()
    s(lost(["c"], CHAIN))
    s(submit("k", {"d": ["c"]}, ["d"]))
    s(rel("c"))  # now only job k needs c
    assert kinds(s(cancel("k"))) == [("failed", "k"), ("interrupt", "a")]
    assert [s.task_state(k) for k in "abcd"] == [None, None, None, None]
    assert s(fin("a")) == []


# ---------------------------------------------------------------------- failures


def test_recompute_that_fails_fails_the_jobs_that_need_it() -> None:
    s = held_chain()
    s(lost(["c"], CHAIN))
    s(submit("k", {"d": ["c"]}, ["d"]))
    out = s(fail("a"))
    assert kinds(out) == [("failed", "k")]
    assert isinstance(out[0], JobFailed)
    assert out[0].key == "a"
    # the held result can never come back: it is forgotten with its holds
    assert [s.task_state(k) for k in "abcd"] == [None] * 4
    assert s.holds("c") == 0
    assert s(rel("c")) == []  # the client's late release is ignored


def test_held_result_whose_recompute_fails_is_dropped() -> None:
    s = held_chain()
    s(lost(["c"], CHAIN))
    s(fin("a"))
    s(fin("b"))
    # no job needs it: nothing to fail; b, read by c only, is released
    assert kinds(s(fail("c"))) == [("release", "b")]
    assert s.task_state("c") is None


def test_retries_are_counted_across_losses() -> None:
    s = make(n_slots=1, max_retries=1)
    s(submit("j", {"a": [], "b": ["a"]}, ["b"]))
    s(fin("a"))
    s(lost(["a"], {"a": []}))
    assert kinds(s(fail("b", retriable=True))) == [("execute", "a")]  # retry 1 of 1
    s(fin("a"))
    assert kinds(s(fail("b", retriable=True))) == [("failed", "j"), ("release", "a")]


def test_running_task_needing_an_erred_recompute_is_interrupted() -> None:
    s = make(n_slots=2)
    s(submit("j", {"a": [], "b": ["a"]}, ["b"]))
    s(fin("a"))  # b runs, having read a
    assert kinds(s(lost(["a"], {"a": []}))) == [("execute", "a")]
    assert kinds(s(fail("a"))) == [("failed", "j"), ("interrupt", "b")]
    assert s.task_state("a") is None
    assert s.task_state("b") is None
    assert s.n_running == 0
    assert s(fin("b")) == []


def test_held_results_needing_an_erred_recompute_are_dropped_together() -> None:
    s = make(n_slots=1)
    s(submit("j", {"a": [], "b": ["a"], "c": ["a"]}, ["b", "c"], {"b": 0, "c": 1}))
    for key in "abc":
        s(fin(key))
    assert s.keys_in_memory() == {"b", "c"}
    s(lost(["b", "c"], {"a": [], "b": ["a"], "c": ["a"]}))
    assert s(fail("a")) == []
    assert s.keys_in_memory() == set()
    assert all(s.task_state(k) is None for k in "abc")


# ---------------------------------------------------------------------- property test


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(world=worlds(), n_slots=st.integers(1, 3), data=st.data())
def test_random_losses_still_finish_every_job_once(
    world: tuple[dict[int, tuple[int, ...]], list[list[int]]],
    n_slots: int,
    data: st.DataObject,
) -> None:
    dag, job_outputs = world
    sh = Shell(dag, n_slots, max_retries=1000)  # losses never exhaust the retries
    to_submit = list(enumerate(job_outputs))
    submitted: list[str] = []
    for _ in range(data.draw(st.integers(0, 50), label="steps")):
        actions = ["slots"]
        if to_submit:
            actions += ["submit"] * 3
        if sh.running:
            actions += ["finish"] * 4
        if sh.store or sh.running:
            actions += ["lose"] * 2
        if +sh.holds:
            actions.append("release")
        action = data.draw(st.sampled_from(actions), label="action")
        if action == "submit":
            i, outputs = to_submit.pop(0)
            job = f"job{i}"
            needed = _ancestors(dag, outputs)
            graph = {k: dag[k] for k in needed if sh.s.task_state(k) is None or k in outputs}
            sh.outputs[job] = tuple(outputs)
            sh.needed[job] = needed
            submitted.append(job)
            sh.send(submit(job, graph, outputs, sid=f"submit-{job}"))
        elif action == "finish":
            sh.finish(data.draw(st.sampled_from(sorted(sh.running)), label="finish"))
        elif action == "lose":
            gone = (
                data.draw(st.lists(st.sampled_from(sorted(sh.store))), label="lost")
                if (sh.store)
                else []
            )
            died = (
                data.draw(st.lists(st.sampled_from(sorted(sh.running)), unique=True))
                if (sh.running)
                else []
            )
            sh.lose(gone, died, full_lineage=data.draw(st.booleans(), label="full lineage"))
        elif action == "release":
            held = sorted(k for k, n in sh.holds.items() if n)
            keys = data.draw(st.lists(st.sampled_from(held), min_size=1, max_size=3))
            for k in keys:
                if sh.holds[k]:
                    sh.holds[k] -= 1
            sh.send(rel(*keys))
        else:
            sh.send(slots(data.draw(st.integers(0, 3), label="slots")))

    # Drain without losses: every job finishes exactly once, with its outputs in memory.
    sh.send(slots(max(sh.n_slots, 1)))
    for i, outputs in to_submit:
        job = f"job{i}"
        sh.outputs[job] = tuple(outputs)
        sh.needed[job] = _ancestors(dag, outputs)
        submitted.append(job)
        sh.send(submit(job, dag, outputs, sid=f"submit-{job}"))
    while sh.running:
        sh.finish(min(sh.running))
    assert sh.outcome == dict.fromkeys(submitted, "finished")
    assert sh.s.live_jobs() == set()
    # Every held result is in memory again, and only those.
    assert sh.store == {k for k, n in sh.holds.items() if n}
    for k in dag:
        assert sh.s.holds(k) == sh.holds[k]
    keys = list(sh.holds.elements())
    sh.holds.clear()
    sh.send(rel(*keys))
    assert sh.store == set()
    assert all(sh.s.task_state(k) is None for k in dag)
