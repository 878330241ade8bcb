import operator

import pytest

from jupyter_mars.engine.graph import Ref, Task, cull, dependents, execute_task, get_sync, toposort


def test_task_dependencies_found_in_nested_arguments():
    inner = Task("i", operator.add, (Ref("a"), 1))
    task = Task("t", sum, ([Ref("b"), (Ref("c"),)], {"k": Ref("d")}, inner))
    assert task.dependencies == {"a", "b", "c", "d"}


def test_execute_task_resolves_refs_and_runs_nested_tasks():
    inner = Task("i", operator.mul, (Ref("a"), 10))
    task = Task("t", operator.add, (inner, Ref("b")))
    assert execute_task(task, {"a": 2, "b": 3}) == 23


def test_execute_task_passes_keyword_refs():
    task = Task("t", dict, (), {"x": Ref("a"), "y": [Ref("a"), 2]})
    assert execute_task(task, {"a": 1}) == {"x": 1, "y": [1, 2]}


def test_toposort_places_dependencies_first():
    g = {
        "c": Task("c", operator.add, (Ref("a"), Ref("b"))),
        "a": Task("a", int, (1,)),
        "b": Task("b", operator.neg, (Ref("a"),)),
    }
    order = toposort(g)
    assert order.index("a") < order.index("b") < order.index("c")
    assert toposort(g, ["b"]) == ["a", "b"]


def test_cull_keeps_only_what_the_keys_need():
    g = {
        "a": Task("a", int, (1,)),
        "b": Task("b", operator.neg, (Ref("a"),)),
        "c": Task("c", int, (2,)),
    }
    assert set(cull(g, ["b"])) == {"a", "b"}


def test_dependents_inverts_dependencies():
    g = {"a": Task("a", int), "b": Task("b", int, (Ref("a"),)), "c": Task("c", int, (Ref("a"),))}
    assert dependents(g) == {"a": {"b", "c"}, "b": set(), "c": set()}


def test_get_sync_computes_in_order_and_uses_given_data():
    g = {"b": Task("b", operator.add, (Ref("a"), 1)), "c": Task("c", operator.mul, (Ref("b"), 2))}
    assert get_sync(g, ["c"], data={"a": 4}) == [10]


def test_get_sync_raises_the_kernel_error():
    g = {"a": Task("a", operator.truediv, (1, 0))}
    with pytest.raises(ZeroDivisionError):
        get_sync(g, ["a"])


def test_tasks_pickle_with_the_standard_pickler():
    import pickle

    inner = Task("i", operator.mul, (Ref("a"), 10), blockwise=True)
    task = Task("t", operator.add, (inner, Ref("b")))
    copy = pickle.loads(pickle.dumps(task, protocol=5))
    assert copy.dependencies == task.dependencies
    assert copy.kwargs == {}
    assert execute_task(copy, {"a": 2, "b": 3}) == 23
    with_kwargs = pickle.loads(pickle.dumps(Task("d", dict, (), {"x": Ref("a")})))
    assert execute_task(with_kwargs, {"a": 1}) == {"x": 1}
