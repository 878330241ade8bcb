"""Unit tests of the worker core: events in, instructions and states out, no sockets."""

from __future__ import annotations

import random

import pytest

from jupyter_mars.engine.worker.events import ResetRequested, TaskAssigned, WorkerEvent
from jupyter_mars.engine.worker.instructions import (
    Admit,
    Cancelled,
    Done,
    Failed,
    Fetch,
    InputsLost,
    Interrupt,
    Reply,
    Run,
    Shed,
    Spill,
    Store,
)
from jupyter_mars.engine.worker.limits import MemoryLimits
from tests.engine.worker.helpers import (
    assign,
    cancel,
    erred,
    fetch_failed,
    fetched,
    finished,
    kinds,
    make,
    peer_lost,
    sampled,
    spill_done,
)

# ---------------------------------------------------------------------- inputs


def test_a_task_whose_inputs_are_local_runs_at_once() -> None:
    core = make(n_slots=2)
    out = core(assign("b", deps=["a"], local=["a"], attempt=1))
    assert kinds(out) == [("run", "b")]
    assert core.task_state("b") == "running"
    assert kinds(core(finished("b", 1))) == [("store", "b"), ("reply", "b", "done")]
    assert core.task_state("b") is None
    assert core.n_running == 0


def test_stimulus_ids_and_values_are_carried_through() -> None:
    core = make()
    ev = TaskAssigned("go", "t", 7, (), frozenset(), {})
    assert core(ev) == [Admit("go", "t", 7), Run("go", "t", 7, "t", {})]
    out = core(finished("t", 7, value="v", nbytes=3))
    assert out[0] == Store(out[0].stimulus_id, "t", "v")
    assert out[1] == Reply(out[0].stimulus_id, "t", 7, Done({"nbytes": 3}))


def test_remote_inputs_are_fetched_once_even_when_two_tasks_need_them() -> None:
    core = make(n_slots=2)
    where = {"x": "peer-1:1", "y": "peer-2:2"}
    out = core(assign("s", deps=["x", "y"], locations=where, attempt=1))
    assert kinds(out) == [("fetch", "peer-1:1", ("x",)), ("fetch", "peer-2:2", ("y",))]
    assert core.task_state("s") == "fetching"
    # the second task joins both fetches in flight: nothing is asked twice
    assert kinds(core(assign("t", deps=["x"], locations=where, attempt=2))) == []
    assert core.fetching() == where
    assert (core.waiters("x"), core.waiters("y"), core.waiters("z")) == (2, 1, 0)
    out = core(fetched("peer-1:1", {"x": "X"}))
    assert out == [Run(out[0].stimulus_id, "t", 2, "t", {"x": "X"})]
    assert core.task_state("s") == "fetching"  # still waits for y
    out = core(fetched("peer-2:2", {"y": "Y"}))
    assert out == [Run(out[0].stimulus_id, "s", 1, "s", {"x": "X", "y": "Y"})]
    assert core.fetching() == {}


def test_inputs_of_one_peer_are_asked_in_one_fetch() -> None:
    core = make()
    where = {"x": "p:1", "y": "p:1"}
    out = core(assign("s", deps=["x", "y", "z"], local=["z"], locations=where))
    assert kinds(out) == [("fetch", "p:1", ("x", "y"))]


def test_an_input_no_worker_holds_is_a_lost_input_at_once() -> None:
    core = make()
    out = core(assign("s", deps=["x", "y"], locations={"x": "p:1", "y": None}, attempt=4))
    assert kinds(out) == [("reply", "s", "lost")]
    reply = out[0]
    assert isinstance(reply, Reply)
    assert reply.attempt == 4
    assert reply.outcome == InputsLost(("y",), "not held by any worker")
    assert core.task_state("s") is None
    assert core.fetching() == {}  # nothing fetched for a task that cannot run


def test_a_fetch_failure_from_a_dead_peer_gives_a_lost_input_reply_naming_it() -> None:
    core = make(n_slots=2)
    where = {"x": "dead:1", "y": "live:2"}
    core(assign("s", deps=["x", "y"], locations=where, attempt=1))
    core(assign("t", deps=["x"], locations=where, attempt=2))
    out = core(fetch_failed("dead:1", ["x"], reason="ConnectionError: refused"))
    assert kinds(out) == [("reply", "s", "lost"), ("reply", "t", "lost")]
    for reply in out:
        assert isinstance(reply, Reply)
        assert isinstance(reply.outcome, InputsLost)
        assert reply.outcome.keys == ("x",)
        assert "dead:1" in reply.outcome.reason
        assert "refused" in reply.outcome.reason
    assert core.task_state("s") is None
    assert core.task_state("t") is None
    # y's fetch goes on, for nobody: its late data is dropped
    assert core.fetching() == {"y": "live:2"}
    assert kinds(core(fetched("live:2", {"y": 1}))) == []
    # a later attempt asks again
    out = core(assign("s", deps=["x", "y"], locations={"x": "back:3", "y": "live:2"}))
    assert kinds(out) == [("fetch", "back:3", ("x",)), ("fetch", "live:2", ("y",))]


def test_a_stale_fetch_report_is_ignored() -> None:
    core = make()
    core(assign("s", deps=["x"], locations={"x": "p:1"}))
    assert kinds(core(fetched("other:2", {"x": 1}))) == []
    assert kinds(core(fetch_failed("other:2", ["x"]))) == []
    assert core.task_state("s") == "fetching"


# ---------------------------------------------------------------------- slots


def test_ready_tasks_wait_for_a_slot_first_come_first_served() -> None:
    core = make(n_slots=2)
    outs = [core(assign(k, attempt=i)) for i, k in enumerate(["a", "b", "c", "d"], 1)]
    assert [kinds(o) for o in outs] == [[("run", "a")], [("run", "b")], [], []]
    assert core.task_state("c") == "ready"
    assert core.n_ready == 2
    assert kinds(core(finished("b", 2))) == [("store", "b"), ("reply", "b", "done"), ("run", "c")]
    out = core(erred("a", 1, ValueError("bad")))
    assert kinds(out) == [("reply", "a", "failed"), ("run", "d")]
    reply = out[0]
    assert isinstance(reply, Reply)
    assert isinstance(reply.outcome, Failed)
    assert isinstance(reply.outcome.error, ValueError)


@pytest.mark.parametrize("n_slots", [1, 2, 3])
def test_slots_never_exceed_n_cpu(n_slots: int) -> None:
    rng = random.Random(n_slots)
    core = make(n_slots=n_slots)
    running: dict[str, int] = {}
    fetching: dict[str, str] = {}
    for i in range(300):
        roll = rng.random()
        key = f"k{rng.randrange(12)}"
        if roll < 0.4:
            remote = rng.random() < 0.5
            dep = f"in{rng.randrange(4)}"
            out = core(assign(key, deps=[dep] if remote else [], locations={dep: "p:1"}))
        elif roll < 0.55 and fetching:
            dep = rng.choice(sorted(fetching))
            out = core(fetched(fetching[dep], {dep: i}))
        elif roll < 0.85 and running:
            done = rng.choice(sorted(running))
            event = finished if rng.random() < 0.7 else erred
            out = core(event(done, running[done]))
        else:
            out = core(cancel(key))
        for ins in out:
            if isinstance(ins, Run):
                running[ins.key] = ins.attempt
            elif isinstance(ins, Reply):
                running.pop(ins.key, None)
            elif isinstance(ins, Fetch):
                fetching.update(dict.fromkeys(ins.keys, ins.peer))
        fetching = core.fetching()
        assert core.n_running <= n_slots
        assert core.n_running == len(running)


# ---------------------------------------------------------------------- cancel


def test_cancel_of_a_fetching_task_replies_cancelled_and_leaves_the_fetch_to_others() -> None:
    core = make(n_slots=2)
    core(assign("s", deps=["x"], locations={"x": "p:1"}, attempt=1))
    core(assign("t", deps=["x"], locations={"x": "p:1"}, attempt=2))
    out = core(cancel("s"))
    assert kinds(out) == [("reply", "s", "cancelled"), ("forget", "s")]
    assert core.task_state("s") is None
    assert core.fetching() == {"x": "p:1"}
    assert kinds(core(fetched("p:1", {"x": 1}))) == [("run", "t")]


def test_cancel_of_a_ready_task_means_it_never_runs() -> None:
    core = make()
    core(assign("a", attempt=1))
    core(assign("b", attempt=2))
    assert core.task_state("b") == "ready"
    assert kinds(core(cancel("b"))) == [("reply", "b", "cancelled"), ("forget", "b")]
    assert kinds(core(finished("a", 1))) == [("store", "a"), ("reply", "a", "done")]
    assert core.n_running == 0


def test_cancel_of_a_running_task_interrupts_it_and_discards_its_late_result() -> None:
    core = make()
    core(assign("a", attempt=1))
    core(assign("b", attempt=2))
    out = core(cancel("a"))
    # its slot is free at once, for the next ready task
    assert kinds(out) == [
        ("interrupt", "a"),
        ("reply", "a", "cancelled"),
        ("forget", "a"),
        ("run", "b"),
    ]
    assert isinstance(out[1], Reply)
    assert out[1].outcome == Cancelled()
    assert kinds(core(finished("a", 1))) == []  # not stored
    assert kinds(core(erred("a", 1))) == []
    assert core.n_running == 1


def test_a_late_result_of_a_replaced_attempt_is_not_taken_for_the_new_one() -> None:
    core = make()
    core(assign("a", attempt=1))
    out = core(assign("a", attempt=2))
    assert kinds(out) == [("interrupt", "a"), ("reply", "a", "cancelled"), ("run", "a")]
    assert isinstance(out[1], Reply)
    assert out[1].attempt == 1
    assert kinds(core(finished("a", 1))) == []
    assert core.attempt("a") == 2
    assert kinds(core(finished("a", 2))) == [("store", "a"), ("reply", "a", "done")]
    with pytest.raises(ValueError, match="not newer"):
        core(assign("b", attempt=5), assign("b", attempt=5))


def test_a_dropped_call_stops_only_its_own_attempt_and_forgets_nothing() -> None:
    core = make()
    core(assign("a", attempt=1))
    assert kinds(core(cancel("a", attempt=9))) == []
    assert kinds(core(cancel("a", attempt=1))) == [("interrupt", "a"), ("reply", "a", "cancelled")]


def test_cancel_of_a_task_that_already_replied_forgets_its_result() -> None:
    core = make()
    assert kinds(core(cancel("gone"))) == [("forget", "gone")]


def test_a_cancel_naming_a_bad_key_changes_nothing() -> None:
    core = make()
    core(assign("a", attempt=1))
    with pytest.raises(TypeError, match="keys must be chunk keys, not list"):
        core(cancel("a", ["not", "a", "key"]))
    assert core.task_state("a") == "running"
    assert kinds(core(finished("a", 1))) == [("store", "a"), ("reply", "a", "done")]


# ---------------------------------------------------------------------- followers


def test_a_follower_runs_after_its_task_in_the_same_slot() -> None:
    core = make(n_slots=1)
    core(assign("a", follower="f", attempt=1))
    core(assign("b", attempt=2))
    out = core(finished("a", 1, value="A", nbytes=5))
    # the task's result is kept, and the follower reads it in the slot the task had
    assert kinds(out) == [("store", "a"), ("run", "f")]
    assert out[1] == Run(out[1].stimulus_id, "a", 1, "f", {"a": "A"})
    assert core.task_state("a") == "following"
    assert core.task_state("b") == "ready"
    out = core(finished("a", 1, value="F", nbytes=7))
    assert kinds(out) == [("store", "f"), ("reply", "a", "done"), ("run", "b")]
    assert out[0] == Store(out[0].stimulus_id, "f", "F")
    assert isinstance(out[1], Reply)
    assert out[1].outcome == Done({"nbytes": 5}, {"nbytes": 7})


def test_a_failed_follower_leaves_its_task_done() -> None:
    core = make()
    core(assign("a", follower="f", attempt=1))
    core(finished("a", 1))
    out = core(erred("a", 1))
    assert kinds(out) == [("reply", "a", "done")]
    assert isinstance(out[0], Reply)
    assert out[0].outcome == Done({"nbytes": 8}, None)


def test_cancel_while_the_follower_runs_interrupts_it_and_forgets_the_task_result() -> None:
    core = make()
    core(assign("a", follower="f", attempt=1))
    core(finished("a", 1))
    out = core(cancel("a"))
    assert kinds(out) == [("interrupt", "f"), ("reply", "a", "cancelled"), ("forget", "a")]
    assert kinds(core(finished("a", 1))) == []  # the follower's late result is not kept


# ---------------------------------------------------------------------- reset


def test_results_of_tasks_under_way_at_a_reset_are_replied_but_not_stored() -> None:
    core = make(n_slots=2)
    core(assign("a", attempt=1))
    core(ResetRequested("reset"))
    core(assign("b", attempt=2))
    assert kinds(core(finished("a", 1))) == [("reply", "a", "done")]
    assert kinds(core(finished("b", 2))) == [("store", "b"), ("reply", "b", "done")]


def test_an_unknown_event_is_refused() -> None:
    core = make()
    with pytest.raises(TypeError, match="not a worker event"):
        core.state.handle(object())  # type: ignore[arg-type]


# ---------------------------------------------------------------------- a model shell


@pytest.mark.parametrize("seed", range(8))
def test_random_events_keep_every_promise_of_the_core(seed: int) -> None:
    """A model of the shell checks every instruction: each input is fetched once at a
    time, a run has all its inputs, only the current attempt's results are stored, every
    attempt is answered exactly once, and slots never exceed ``n_slots``."""
    rng = random.Random(seed)
    n_slots = rng.randint(1, 3)
    limits = MemoryLimits.of(1000) if seed % 2 else None  # half the runs short of memory
    core = make(n_slots=n_slots, limits=limits)
    now = 0.0
    spilling = False
    peers = ["p:1", "p:2"]
    inputs = [f"in{i}" for i in range(5)]
    in_flight: dict[str, str] = {}  # input -> peer, as the shell sees its fetches
    assigned: dict[int, tuple[str, tuple[str, ...], frozenset[str], str | None]] = {}
    computing: dict[int, str] = {}  # attempt -> what its slot runs
    answered: set[int] = set()
    admits: set[int] = set()
    attempt = 0
    for _ in range(400):
        roll = rng.random()
        now += 0.1
        if roll < 0.1:
            event: WorkerEvent = sampled(rng.randrange(1100), now, rng.randrange(200))
        elif roll < 0.15 and spilling:
            event, spilling = spill_done(), False
        elif roll < 0.2:
            gone = rng.choice(peers)
            event = peer_lost(gone)
            in_flight = {d: p for d, p in in_flight.items() if p != gone}
        elif roll < 0.4:
            attempt += 1
            key = f"k{rng.randrange(6)}"
            deps = tuple(rng.sample(inputs, rng.randint(0, 3)))
            local = frozenset(d for d in deps if rng.random() < 0.3)
            follower = f"f-{key}" if rng.random() < 0.3 else None
            where = {d: rng.choice(peers) for d in deps}
            assigned[attempt] = (key, deps, local, follower)
            nbytes = rng.randrange(300)
            event = assign(key, deps, local, where, follower, attempt, nbytes, now)
        elif roll < 0.55 and in_flight:
            dep = rng.choice(sorted(in_flight))
            peer = in_flight.pop(dep)
            if rng.random() < 0.8:
                event = fetched(peer, {dep: f"value-{dep}"})
            else:
                event = fetch_failed(peer, [dep])
        elif roll < 0.8 and computing:
            done = rng.choice(sorted(computing))
            key = assigned[done][0]
            ok = rng.random() < 0.8
            event = finished(key, done, f"result-{computing[done]}") if ok else erred(key, done)
        else:
            some = rng.choice(sorted(assigned)) if assigned else 0
            event = cancel(assigned[some][0] if assigned else "none")
            if rng.random() < 0.3 and assigned:  # a dropped call
                event = cancel(assigned[some][0], attempt=some)
        for ins in core(event):
            if isinstance(ins, Admit):
                assert ins.attempt not in admits, f"attempt {ins.attempt} admitted twice"
                admits.add(ins.attempt)
            if isinstance(ins, Fetch):
                for dep in ins.keys:
                    assert dep not in in_flight, f"{dep} fetched twice at once"
                    in_flight[dep] = ins.peer
            elif isinstance(ins, Run):
                key, deps, local, follower = assigned[ins.attempt]
                assert ins.attempt not in answered
                if ins.runs == key:
                    assert ins.attempt in admits, f"attempt {ins.attempt} runs unadmitted"
                    assert ins.attempt not in computing, f"attempt {ins.attempt} runs twice"
                    assert set(ins.inputs) | local == set(deps), f"{key}: inputs missing"
                else:  # in the slot its task had
                    assert ins.runs == follower
                    assert computing[ins.attempt] == key
                    assert set(ins.inputs) == {key}
                computing[ins.attempt] = ins.runs
            elif isinstance(ins, Store):
                assert isinstance(ins.value, str)
                stored = ins.value.removeprefix("result-")
                assert stored == ins.key, f"stored {ins.value} under {ins.key}"
                assert ins.key in computing.values(), f"{ins.key} stored but not computing"
            elif isinstance(ins, Reply):
                assert ins.attempt not in answered, f"attempt {ins.attempt} answered twice"
                answered.add(ins.attempt)
                computing.pop(ins.attempt, None)
            elif isinstance(ins, Interrupt | Shed):
                assert computing.get(ins.attempt) == ins.runs, f"{ins} of a task not running"
            elif isinstance(ins, Spill):
                assert limits is not None
                assert not spilling, "a second spill while one is under way"
                spilling = True
        assert len(computing) <= n_slots
        if limits is None:
            assert core.n_waiting == 0
        assert core.n_running == len(computing)
        assert core.fetching() == in_flight
    # every attempt still unanswered is one the core still has
    for a, (key, *_) in assigned.items():
        if a not in answered:
            assert core.attempt(key) == a
