import math
import operator
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from jupyter_mars.engine.graph import Ref, Task, get_sync, toposort
from jupyter_mars.engine.optimize import MAX_NESTING, coarsen, fuse, subgraph_cap
from jupyter_mars.engine.plan import plan_stages
from tests.fresh_interpreter import run_in_fresh_interpreter


def _chain():
    return {
        "a": Task("a", int, (3,)),
        "b": Task("b", operator.add, (Ref("a"), 1), blockwise=True),
        "c": Task("c", operator.mul, (Ref("b"), 2), blockwise=True),
    }


def test_fuse_collapses_a_linear_chain_into_one_task():
    g = _chain()
    fused = fuse(g, keep={"c"})
    assert list(fused) == ["c"]
    assert fused["c"].dependencies == frozenset()
    assert get_sync(fused, ["c"]) == get_sync(g, ["c"]) == [8]


def test_fuse_keeps_outputs_and_shared_inputs():
    g = _chain()
    g["d"] = Task("d", operator.neg, (Ref("b"),), blockwise=True)
    fused = fuse(g, keep={"c", "d"})
    # b has two readers, so it stays a task of its own
    assert "b" in fused
    assert "a" not in fused
    assert get_sync(fused, ["c", "d"]) == [8, -4]


def test_fuse_does_not_inline_into_fan_in_tasks():
    g = {
        "x": Task("x", int, (1,)),
        "y": Task("y", int, (2,)),
        "s": Task("s", operator.add, (Ref("x"), Ref("y"))),  # a combine step, not blockwise
    }
    fused = fuse(g, keep={"s"})
    assert set(fused) == {"x", "y", "s"}


def test_fuse_inlines_every_input_of_a_blockwise_task():
    g = {
        "x": Task("x", int, (1,)),
        "y": Task("y", int, (2,)),
        "s": Task("s", operator.add, (Ref("x"), Ref("y")), blockwise=True),
    }
    fused = fuse(g, keep={"s"})
    assert list(fused) == ["s"]
    assert get_sync(fused, ["s"]) == [3]


# ---- coarsen: subgraphs for runtimes where each task costs a round trip ---------------------


def _tree(n_leaves: int, fan_in: int = 4) -> dict:
    """Leaves ``("leaf", i) = i`` summed ``fan_in`` at a time up to ``("sum", 0, 0)``."""
    g = {("leaf", i): Task(("leaf", i), int, (i,)) for i in range(n_leaves)}
    level, keys = 0, list(g)
    while len(keys) > 1 or level == 0:
        parents = []
        for j in range(0, len(keys), fan_in):
            key = ("sum", level, j // fan_in)
            g[key] = Task(key, lambda *xs: sum(xs), tuple(Ref(k) for k in keys[j : j + fan_in]))
            parents.append(key)
        keys, level = parents, level + 1
    return g


def _nesting(arg) -> int:
    if type(arg) is Task:
        return 1 + max((_nesting(a) for a in arg.args), default=0)
    if type(arg) in (list, tuple):
        return max((_nesting(a) for a in arg), default=0)
    return 0


def test_coarsen_turns_a_reduction_tree_into_few_subgraphs():
    g = _tree(1000)
    root = toposort(g)[-1]
    coarse, weights = coarsen(g, keep={root}, max_tasks=subgraph_cap(len(g), 2))
    assert len(coarse) < len(g) / 20
    assert sum(weights.values()) == len(g)
    assert max(weights.values()) <= subgraph_cap(len(g), 2)
    assert get_sync(coarse, [root]) == get_sync(g, [root]) == [sum(range(1000))]


def test_coarsen_keeps_kept_and_shared_keys_as_tasks():
    g = _chain()
    g["d"] = Task("d", operator.neg, (Ref("b"),))
    coarse, weights = coarsen(g, keep={"c", "d"}, max_tasks=100)
    assert set(coarse) == {"b", "c", "d"}  # b has two readers
    assert weights == {"b": 2, "c": 1, "d": 1}
    assert get_sync(coarse, ["c", "d"]) == [8, -4]


def _two_reductions_of_shared_chunks(n):
    """Chunks ``x{i}`` each read by a per-chunk step of two reductions, ``sum`` and ``max``."""
    g = {f"x{i}": Task(f"x{i}", float, (i,)) for i in range(n)}
    for name, func in (("sum", sum), ("max", max)):
        for i in range(n):
            g[f"{name}{i}"] = Task(f"{name}{i}", abs, (Ref(f"x{i}"),))
        g[name] = Task(name, func, ([Ref(f"{name}{i}") for i in range(n)],))
    return g


def test_coarsen_leaves_steps_on_shared_chunks_out_of_fan_in_subgraphs():
    g = _two_reductions_of_shared_chunks(6)
    coarse, weights = coarsen(g, keep={"sum", "max"}, max_tasks=100)
    # each step runs once its chunk exists, and the chunk is freed: a combine reading the
    # chunks themselves would keep all of them until the last one is computed
    for name in ("sum", "max"):
        assert coarse[name].dependencies == frozenset(f"{name}{i}" for i in range(6))
    assert all(coarse[f"sum{i}"].dependencies == {f"x{i}"} for i in range(6))
    assert sum(weights.values()) == len(g)
    assert get_sync(coarse, ["sum", "max"]) == [15.0, 5.0]


def test_coarsen_inlines_steps_on_held_chunks_into_their_combine():
    g = _two_reductions_of_shared_chunks(6)
    held = {f"x{i}" for i in range(6)}
    held_graph = {k: t for k, t in g.items() if k not in held}  # x are another job's
    coarse, _ = coarsen(held_graph, keep={"sum", "max"}, max_tasks=100)
    assert set(coarse) == {"sum", "max"}


def test_coarsen_with_a_cap_of_one_changes_nothing():
    g = _tree(10)
    coarse, weights = coarsen(g, keep=set(), max_tasks=1)
    assert coarse == g
    assert set(weights.values()) == {1}


def test_coarsen_cuts_long_chains_of_fan_in_tasks():
    # a scan: each step reads its own chunk and the step before, so nesting grows by one
    # per step; running or pickling it recurses once per level
    g = {("x", i): Task(("x", i), int, (i,)) for i in range(200)}
    g[("scan", 0)] = Task(("scan", 0), int, (Ref(("x", 0)),))
    for i in range(1, 200):
        g[("scan", i)] = Task(("scan", i), operator.add, (Ref(("scan", i - 1)), Ref(("x", i))))
    coarse, weights = coarsen(g, keep={("scan", 199)}, max_tasks=10_000)
    assert max(_nesting(t) for t in coarse.values()) <= MAX_NESTING + 2
    assert len(coarse) > 1
    assert get_sync(coarse, [("scan", 199)]) == [sum(range(200))]


@st.composite
def _dags(draw):
    """Random DAGs: node i adds up some earlier nodes plus i."""
    n = draw(st.integers(1, 40))
    g = {}
    for i in range(n):
        deps = draw(st.sets(st.integers(0, i - 1), max_size=3)) if i else set()
        g[i] = Task(i, lambda i, *xs: i + sum(xs), (i, *(Ref(d) for d in sorted(deps))))
    keep = draw(st.sets(st.sampled_from(range(n)), min_size=1, max_size=3))
    return g, keep, draw(st.integers(1, 50))


@settings(max_examples=200, deadline=None)
@given(_dags())
def test_coarsened_graphs_compute_the_same_results(case):
    g, keep, cap = case
    coarse, weights = coarsen(g, keep=keep, max_tasks=cap)
    assert keep <= set(coarse)
    assert set(weights) == set(coarse)
    assert sum(weights.values()) == len(g)
    assert all(w <= max(cap, 1) for w in weights.values())
    # every dependency of a subgraph is a task of the coarse graph
    assert all(d in coarse for t in coarse.values() for d in t.dependencies)
    assert get_sync(coarse, sorted(keep)) == get_sync(g, sorted(keep))


class _OverBudget(Exception):
    pass


def _count_work(budget, fn, *args):
    """Run ``fn(*args)`` counting the Python lines it executes (a measure of its work that,
    unlike a clock, a busy machine does not change); stop it once ``budget`` is spent."""
    spent = 0

    def trace(frame, event, arg):
        nonlocal spent
        spent += 1
        if spent > budget:
            raise _OverBudget(f"more than {budget} lines")
        return trace

    sys.settrace(trace)
    try:
        fn(*args)
    finally:
        sys.settrace(None)
    return spent


def coarsening_a_sort_costs_n_log_n_work() -> None:
    # the sort's graph reads every chunk's pivots in each of 100 x 100 pieces: about
    # 20,000 tasks, where work that grows with the readers of a key turns quadratic (it
    # cost over 5,000 lines a task there, against this budget of about 140)
    stage = next(plan_stages([mt.sort(mt.random.rand(1_000_000, chunk_size=10_000)).node], {}))
    n = len(stage.graph)
    assert n > 20_000
    budget = int(10 * n * math.log2(n))
    spent = _count_work(budget, coarsen, stage.graph, set(stage.outputs), subgraph_cap(n, 4))
    assert spent <= budget


def test_coarsening_a_sort_of_100_chunks_costs_n_log_n_work():
    # in a fresh interpreter: traced inside a long test run, the same call was seen to
    # crawl (the tracer's cost, not coarsening's), so the count runs apart from the suite
    run_in_fresh_interpreter("tests.engine.test_optimize", "coarsening_a_sort_costs_n_log_n_work")
