"""Per-operator figures of a job: counts by operator whatever the graph's cut into tasks,
time per operator from the timed executor, states, and merging an execution's stages."""

from __future__ import annotations

import doctest
import time

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.engine import opstats
from jupyter_mars.engine.graph import Ref, Task, TaskTimes, execute_task, group_of
from jupyter_mars.engine.opstats import OperatorStats, describe, merge
from jupyter_mars.engine.optimize import coarsen


def test_the_examples_hold() -> None:
    assert doctest.testmod(opstats).failed == 0


def _chain() -> dict:
    """Two chunks each of src -> double -> total, plus one combine of both."""
    g = {}
    for i in range(2):
        g[("src-a1", i)] = Task(("src-a1", i), float, (i + 1,))
        g[("double-a2", i)] = Task(("double-a2", i), lambda x: 2 * x, (Ref(("src-a1", i)),))
    g[("total-a3", 0)] = Task(
        ("total-a3", 0), lambda xs: sum(xs), ([Ref(("double-a2", i)) for i in range(2)],)
    )
    return g


def _by_id(stats: OperatorStats) -> dict:
    return {op["id"]: op for op in stats.snapshot()["operators"]}


def test_counts_do_not_depend_on_how_tasks_were_nested() -> None:
    graph = _chain()
    coarse, _ = coarsen(graph, keep={("total-a3", 0)}, max_tasks=10)
    assert len(coarse) < len(graph)  # the subgraph holds the others nested
    for g in (graph, coarse):
        stats = OperatorStats(g)
        assert {k: op["total"] for k, op in _by_id(stats).items()} == {
            "src-a1": 2,
            "double-a2": 2,
            "total-a3": 1,
        }
        assert sorted(map(tuple, stats.snapshot()["edges"])) == [
            ("double-a2", "total-a3"),
            ("src-a1", "double-a2"),
        ]


def test_a_subgraph_finishing_counts_every_operator_inside_it_with_its_own_time() -> None:
    coarse, _ = coarsen(_chain(), keep={("total-a3", 0)}, max_tasks=10)
    [(key, task)] = coarse.items()
    stats = OperatorStats(coarse)
    stats.started(key)
    assert {op["id"]: op["state"] for op in stats.snapshot()["operators"]} == dict.fromkeys(
        ["total-a3", "double-a2", "src-a1"], "running"
    )
    times = TaskTimes()
    assert execute_task(task, {}, times) == 6.0
    assert set(times.seconds) == {"src-a1", "double-a2", "total-a3"}
    stats.finished(key, times.seconds)
    ops = _by_id(stats)
    assert all(op["state"] == "done" and op["done"] == op["total"] for op in ops.values())
    assert all(op["running"] == 0 for op in ops.values())


def test_nested_time_is_counted_apart_from_its_reader() -> None:
    def slow(x: float) -> float:
        time.sleep(0.05)
        return x

    inner = Task(("slow-b1", 0), slow, (1.0,))
    outer = Task(("quick-b2", 0), abs, (inner,))
    times = TaskTimes()
    execute_task(outer, {}, times)
    assert times.seconds["slow-b1"] >= 0.045
    assert times.seconds["quick-b2"] < 0.01  # its reader's own time excludes the sleep


def test_a_failure_names_the_operator_that_raised_and_retries_are_not_double_counted() -> None:
    stats = OperatorStats(_chain())
    key = ("double-a2", 0)
    stats.started(key)
    stats.started(key)  # told twice: still one task running
    assert _by_id(stats)["double-a2"]["running"] == 1
    stats.stopped(key)  # its worker died: it will run again
    assert _by_id(stats)["double-a2"]["running"] == 0
    assert _by_id(stats)["double-a2"]["state"] == "waiting"
    stats.started(key)
    stats.failed_task(key, ("src-a1", 0))
    states = {k: op["state"] for k, op in _by_id(stats).items()}
    assert states["src-a1"] == "failed"
    stats.ended()
    assert all(op["running"] == 0 for op in stats.snapshot()["operators"])


def test_merge_adds_stages_up_and_keeps_only_edges_between_known_operators() -> None:
    first = {"operators": [_op("a-1", 2, 2, "done")], "edges": [["old-0", "a-1"]]}
    second = {
        "operators": [_op("a-1", 1, 3, "running"), _op("b-2", 0, 1, "waiting")],
        "edges": [["a-1", "b-2"]],
    }
    merged = merge([first, second])
    ops = {op["id"]: op for op in merged["operators"]}
    assert (ops["a-1"]["done"], ops["a-1"]["total"], ops["a-1"]["state"]) == (3, 5, "running")
    assert merged["edges"] == [["a-1", "b-2"]]


def _op(group: str, done: int, total: int, state: str) -> dict:
    op, step = describe(group)
    running = 1 if state == "running" else 0
    return {
        "id": group,
        "op": op,
        "step": step,
        "total": total,
        "done": done,
        "running": running,
        "seconds": 0.5,
        "state": state,
    }


@pytest.mark.parametrize(
    ("key", "group", "name"),
    [
        (("sum-1a2b-chunk", 0, 3), "sum-1a2b-chunk", ("sum", "chunk")),
        (("rand-9f", 2), "rand-9f", ("rand", "")),
        ("plain", "plain", ("plain", "")),
    ],
)
def test_group_and_name_of_a_key(key: object, group: str, name: tuple[str, str]) -> None:
    assert group_of(key) == group
    assert describe(group) == name


@pytest.mark.parametrize("chunk_size", [50, 100, 400])
def test_an_embedded_execution_reports_every_operator_done(
    session: object, chunk_size: int
) -> None:
    data = np.random.default_rng(0).random((400, 300))
    a = mt.tensor(data, chunk_size=chunk_size)
    result = ((a + 1) * 2).sum(axis=0)
    future = result.execute(wait=False)
    future.result(timeout=60)
    np.testing.assert_allclose(result.fetch(), ((data + 1) * 2).sum(axis=0))
    ops = future.operators()["operators"]
    names = {op["op"] for op in ops}
    assert {"add", "multiply", "sum"} <= names
    assert all(op["state"] == "done" and op["done"] == op["total"] > 0 for op in ops)
    n_chunks = -(-400 // chunk_size) * -(-300 // chunk_size)
    assert next(op for op in ops if op["op"] == "add")["total"] == n_chunks
