"""The adaptive policy: pure decisions on loads and times, checked on examples and on
random load traces."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jupyter_mars.launcher.adaptive import (
    AdaptiveBounds,
    AdaptivePolicy,
    ClusterLoad,
    Decision,
    WorkerLoad,
    check_bounds,
)


def load(ready: int = 0, running: int = 0, workers: int = 1, busy=(), holding=()) -> ClusterLoad:
    """A cluster of ``workers`` two-slot workers ``w0``, ``w1``...; ``busy`` run a task,
    ``holding`` hold a chunk."""
    return ClusterLoad(
        ready,
        running,
        2 * workers,
        tuple(
            WorkerLoad(f"w{i}", int(f"w{i}" in busy), int(f"w{i}" in holding))
            for i in range(workers)
        ),
    )


def policy(minimum: int = 1, maximum: int = 4, wait: float = 5.0) -> AdaptivePolicy:
    return AdaptivePolicy(check_bounds(minimum, maximum, wait, 1.0))


@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        ((0, 4), ValueError, "minimum must be at least 1, got 0"),
        ((2, 1), ValueError, r"maximum must be at least minimum \(2\), got 1"),
        ((1.5, 4), TypeError, "minimum must be a whole number"),
        ((1, "4"), TypeError, "maximum must be a whole number"),
        ((True, 4), TypeError, "minimum must be a whole number"),
        ((1, 4, -1), ValueError, "wait must be a finite number >= 0"),
        ((1, 4, float("nan")), ValueError, "wait must be"),
        ((1, 4, 1, 0), ValueError, "interval must be a finite number of seconds > 0"),
        ((1, 4, "1"), TypeError, "wait must be a number of seconds"),
    ],
)
def test_bounds_are_checked_naming_the_argument(args, error, match):
    with pytest.raises(error, match=match):
        check_bounds(*args)


def test_bounds_accept_equal_minimum_and_maximum():
    assert check_bounds(2, 2, 0, 0.5) == AdaptiveBounds(2, 2, 0.0, 0.5)


def test_queued_tasks_grow_the_cluster_to_what_they_fill():
    # one worker of two slots, both busy, seven tasks wait: nine tasks fill five workers,
    # capped at the maximum of four
    assert policy().decide(load(ready=7, running=2, busy={"w0"}), 1, 0.0) == Decision(4)
    assert policy().decide(load(ready=1, running=2, busy={"w0"}), 1, 0.0) == Decision(2)


def test_running_tasks_alone_do_not_grow_the_cluster():
    assert policy().decide(load(running=2, busy={"w0"}), 1, 0.0) == Decision(1)


def test_growing_never_shrinks_what_runs():
    # two workers, one task queued: the count the tasks fill (2) is what runs already
    busy = load(ready=1, running=3, workers=2, busy={"w0", "w1"})
    assert policy().decide(busy, 2, 0.0) == Decision(2)


def test_an_idle_empty_worker_is_stopped_after_wait_seconds_one_at_a_time():
    p = policy(wait=5.0)
    idle = load(workers=3)
    assert p.decide(idle, 3, 0.0) == Decision(3)
    assert p.decide(idle, 3, 4.9) == Decision(3)
    # one step down; every idle, empty worker is named, in case some is not the launcher's
    decision = p.decide(idle, 3, 5.0)
    assert decision.target == 2
    assert sorted(decision.retire) == ["w0", "w1", "w2"]


def test_a_worker_holding_chunks_is_never_stopped():
    p = policy(wait=1.0)
    holding = load(workers=2, holding={"w0", "w1"})
    for t in range(10):
        assert p.decide(holding, 2, float(t)) == Decision(2)
    # w1's chunks were released: it goes, not w0
    p.decide(load(workers=2, holding={"w0"}), 2, 10.0)
    assert p.decide(load(workers=2, holding={"w0"}), 2, 11.0) == Decision(1, ("w1",))


def test_a_busy_moment_restarts_the_wait():
    p = policy(wait=5.0)
    p.decide(load(workers=2), 2, 0.0)
    p.decide(load(ready=1, running=2, workers=2, busy={"w0"}), 2, 4.0)
    # w1 was idle all along, but tasks queued at 4 s: calm until 9 s
    assert p.decide(load(workers=2), 2, 8.0) == Decision(2)
    assert p.decide(load(workers=2), 2, 9.0).target == 1


def test_the_minimum_is_kept():
    p = policy(minimum=2, wait=0.0)
    assert p.decide(load(workers=2), 2, 0.0) == Decision(2)
    assert p.decide(load(workers=2), 2, 100.0) == Decision(2)


def test_a_cluster_outside_the_bounds_is_brought_inside():
    p = policy(minimum=2, maximum=3)
    assert p.decide(load(workers=1), 1, 0.0) == Decision(2)
    # above the maximum: idle, empty workers first, even before wait seconds
    above = p.decide(load(workers=5, busy={"w0", "w2", "w3"}, holding={"w1"}), 5, 0.0)
    assert above == Decision(4, ("w4",))
    # none left: the launcher's newest go
    busy = load(workers=4, busy={"w0", "w1", "w2", "w3"})
    assert p.decide(busy, 4, 0.1) == Decision(3)


def test_new_bounds_apply_at_the_next_decision():
    p = policy(maximum=4)
    p.bounds = check_bounds(1, 2)
    assert p.decide(load(ready=20, running=2, busy={"w0"}), 1, 0.0) == Decision(2)


def test_the_load_is_read_from_the_supervisors_answer():
    model = {
        "tasks": {"ready": 3, "running": 2, "slots": 4},
        "workers": [
            {"address": "127.0.0.1:1", "running": 2, "stored": 0, "n_cpu": 1},
            {"address": "127.0.0.1:2", "running": 0, "stored": 5, "n_cpu": 1},
        ],
    }
    assert ClusterLoad.from_model(model) == ClusterLoad(
        3, 2, 4, (WorkerLoad("127.0.0.1:1", 2, 0), WorkerLoad("127.0.0.1:2", 0, 5))
    )
    # an older supervisor, without the fields: no load, no growth
    assert ClusterLoad.from_model({"workers": [{"address": "a"}]}) == ClusterLoad(
        0, 0, 0, (WorkerLoad("a"),)
    )


# ---- random load traces ---------------------------------------------------------------

step = st.tuples(
    st.integers(0, 30),  # ready
    st.integers(0, 8),  # running
    st.sets(st.integers(0, 7)),  # busy workers
    st.sets(st.integers(0, 7)),  # workers holding chunks
    st.floats(0.0, 3.0),  # seconds since the previous look
)


@settings(max_examples=300)  # pure and fast: many more traces than the project's default
@given(
    minimum=st.integers(1, 4),
    extra=st.integers(0, 4),
    wait=st.floats(0.0, 6.0),
    start=st.integers(0, 10),
    trace=st.lists(step, max_size=40),
)
def test_random_traces_keep_bounds_and_never_shrink_while_work_queues(
    minimum, extra, wait, start, trace
):
    maximum = minimum + extra
    p = AdaptivePolicy(check_bounds(minimum, maximum, wait, 1.0))
    names = [f"w{i}" for i in range(start)]
    fresh = start
    now = 0.0
    last_queued: float | None = None
    idle_since: dict[str, float] = {}
    for ready, running, busy, holding, pause in trace:
        now += pause
        launched = len(names)
        observed = ClusterLoad(
            ready,
            running,
            2 * launched,
            tuple(WorkerLoad(n, int(i in busy), int(i in holding)) for i, n in enumerate(names)),
        )
        for i, n in enumerate(names):
            if i in busy or i in holding:
                idle_since.pop(n, None)
            else:
                idle_since.setdefault(n, now)
        if ready:
            last_queued = now
        decision = p.decide(observed, launched, now)

        if launched > maximum:  # brought down, idle and empty workers first
            assert maximum <= decision.target < launched
        else:
            assert minimum <= decision.target <= maximum
        if minimum <= launched <= maximum:
            if ready:
                assert decision.target >= launched  # no shrinking while work queues
            assert decision.target >= launched - 1  # one step down at a time
            if decision.target < launched:  # hysteresis: calm for wait seconds
                assert last_queued is None or now - last_queued >= wait
                for n in decision.retire:
                    assert now - idle_since[n] >= wait
        for n in decision.retire:  # only idle workers that hold nothing
            assert n in idle_since
        if decision.retire:  # enough named to get there
            assert len(decision.retire) >= launched - decision.target

        # the launcher carries it out: the first named go, else the newest; new ones join
        if decision.retire and decision.target < launched:
            leaving = decision.retire[: launched - decision.target]
            names = [n for n in names if n not in leaving]
        names = names[: decision.target]
        while len(names) < decision.target:
            names.append(f"w{fresh}")
            fresh += 1
        idle_since = {n: t for n, t in idle_since.items() if n in names}
