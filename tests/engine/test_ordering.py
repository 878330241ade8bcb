"""run_order: every key after its dependencies, and chunks read by several outputs let
go soon after they are computed."""

from __future__ import annotations

import operator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jupyter_mars.engine.graph import Graph, Key, Ref, Task, toposort
from jupyter_mars.engine.ordering import run_order


def _chunks_held_at_most(graph: Graph, order: list[Key], outputs: list[Key]) -> int:
    """The most chunks of ``x`` (the big results; the partials are small) held at once
    when the tasks run one by one in ``order``."""
    readers: dict[Key, int] = {}
    for key in order:
        for dep in graph[key].dependencies:
            readers[dep] = readers.get(dep, 0) + 1
    held: set[Key] = set()
    most = 0
    for key in order:
        held.add(key)
        for dep in graph[key].dependencies:
            readers[dep] -= 1
            if readers[dep] == 0 and dep not in outputs:
                held.discard(dep)
        most = max(most, sum(1 for k in held if k[0] == "x"))
    return most


def _shared_sources(n: int) -> tuple[Graph, list[Key]]:
    """``n`` chunks, each read by a partial of two reductions (``x.sum()``, ``x.mean()``)."""
    graph: Graph = {}
    for i in range(n):
        graph[("x", i)] = Task(("x", i), int, (i,))
        for name in ("s", "m"):
            graph[(name, i)] = Task((name, i), operator.neg, (Ref(("x", i)),))
    for name in ("s", "m"):
        parts = tuple(Ref((name, i)) for i in range(n))
        graph[name] = Task(name, sum, (list(parts),))
    return graph, ["s", "m"]


@pytest.mark.parametrize("n", [1, 2, 50])
def test_chunks_read_by_two_outputs_are_held_a_few_at_a_time(n: int) -> None:
    graph, outputs = _shared_sources(n)
    order = run_order(graph, outputs)
    assert sorted(map(str, order)) == sorted(map(str, toposort(graph, outputs)))
    assert _chunks_held_at_most(graph, order, outputs) == 1
    # depth first alone: the first output's walk computes every chunk before the second
    # output's partials read any
    assert _chunks_held_at_most(graph, toposort(graph, outputs), outputs) == n


@settings(max_examples=40, deadline=None)
@given(
    edges=st.lists(st.tuples(st.integers(0, 14), st.integers(0, 14)), max_size=40),
    outputs=st.lists(st.integers(0, 14), min_size=1, max_size=3),
)
def test_every_key_comes_after_its_dependencies(
    edges: list[tuple[int, int]], outputs: list[int]
) -> None:
    deps: dict[int, set[int]] = {k: set() for k in range(15)}
    for a, b in edges:
        if a < b:  # b reads a: acyclic
            deps[b].add(a)
    graph: Graph = {
        k: Task(k, max, tuple(Ref(d) for d in sorted(v)) or (0,)) for k, v in deps.items()
    }
    order = run_order(graph, outputs)
    assert sorted(order) == sorted(toposort(graph, outputs))
    position = {k: i for i, k in enumerate(order)}
    for key in order:
        assert all(position[d] < position[key] for d in graph[key].dependencies)


def test_a_chunk_whose_readers_can_all_run_is_read_at_once():
    """Two reductions over chunks made from small shared inputs (a broadcast): each chunk
    is read by both reductions right after it is made, not after every chunk."""
    g = {"row": Task("row", int), "col": Task("col", int)}
    for i in range(6):
        g[f"x{i}"] = Task(f"x{i}", int, (Ref("row"), Ref("col")))
        g[f"s{i}"] = Task(f"s{i}", int, (Ref(f"x{i}"),))
        g[f"m{i}"] = Task(f"m{i}", int, (Ref(f"x{i}"),))
    g["s"] = Task("s", int, tuple(Ref(f"s{i}") for i in range(6)))
    g["m"] = Task("m", int, tuple(Ref(f"m{i}") for i in range(6)))
    order = run_order(g, ["s", "m"])
    made = [order.index(f"x{i}") for i in range(6)]
    for i in range(6):
        following = [m for m in made if m > made[i]]
        next_chunk = min(following, default=len(order))
        assert made[i] < order.index(f"s{i}") < next_chunk, order
        assert made[i] < order.index(f"m{i}") < next_chunk, order
