"""Which tasks are their own recipe, and that running one again gives the same chunk."""

import doctest
import operator

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.engine import recipes
from jupyter_mars.engine.graph import Ref, Task, execute_task
from jupyter_mars.engine.plan import plan_stages
from jupyter_mars.engine.recipes import recipe, regenerable, undrawn


@regenerable
def marked(n):
    return np.arange(n)


@regenerable
def pair(a, x=None):
    return a, x


def test_doctests():
    assert doctest.testmod(recipes).failed == 0


def test_a_task_with_inputs_or_an_unmarked_kernel_is_no_recipe():
    assert recipe(Task("a", marked, (4,))) is not None
    assert recipe(Task("b", marked, (Ref("a"),))) is None
    assert recipe(Task("c", operator.add, (1, 2))) is None
    unmarked_inside = Task("d", marked, (Task("e", operator.add, (1, 2)),))
    assert recipe(unmarked_inside) is None
    marked_inside = Task("f", pair, ([Task("g", marked, (3,))],), {"x": {"y": 1}})
    again = recipe(marked_inside)
    assert again is not None
    (inner,), x = again()
    np.testing.assert_array_equal(inner, np.arange(3))
    assert x == {"y": 1}


@pytest.mark.parametrize(
    "make",
    [
        lambda: mt.random.RandomState(3).rand(40, 30, chunk_size=(16, 30)),
        lambda: mt.random.RandomState(3).randint(0, 9, size=(50,), chunk_size=7),
        lambda: mt.arange(2.5, 90.0, 0.75, chunk_size=13),
        lambda: mt.zeros((9, 4), chunk_size=4),
        lambda: mt.ones((9, 4), dtype="i2", chunk_size=4),
        lambda: mt.full((9, 4), 7.5, chunk_size=4),
        lambda: mt.tri(9, 7, chunk_size=4),
    ],
    ids=["rand", "randint", "arange", "zeros", "ones", "full", "tri"],
)
def test_generated_chunks_are_their_own_recipe_and_come_back_equal(make):
    x = make()
    stage = next(plan_stages([x.node], {}))
    graph = stage.graph
    assert stage.outputs
    for key in stage.outputs:
        again = recipe(graph[key])
        assert again is not None, key
        first = execute_task(graph[key], {})
        np.testing.assert_array_equal(again(), first)
        assert again().dtype == first.dtype


def test_empty_and_derived_chunks_are_not_drawn_again():
    x = mt.ones((9, 4), chunk_size=4)
    for t in (mt.empty((9, 4), chunk_size=4), x * 2, x.sum(axis=0)):
        stage = next(plan_stages([t.node], {}))
        assert all(recipe(stage.graph[k]) is None for k in stage.outputs)


@pytest.mark.parametrize(
    "make",
    [
        lambda: mt.random.RandomState(3).rand(40, 30, chunk_size=(16, 30)),
        lambda: mt.random.RandomState(3).standard_normal((40, 3), chunk_size=(16, 2)),
        lambda: mt.random.RandomState(3).random_sample(50, chunk_size=7, dtype="f4"),
        lambda: mt.zeros((9, 4), chunk_size=4),
        lambda: mt.ones((9, 4), dtype="i2", chunk_size=4),
        lambda: mt.full((9, 4), 7.5, chunk_size=4),
        lambda: mt.full((9, 4), 7, dtype="u1", chunk_size=(4, 3), order="F"),
    ],
    ids=["rand", "standard_normal", "random_sample-f4", "zeros", "ones", "full", "full-F"],
)
def test_undrawn_figures_are_those_of_the_chunk_drawn(make):
    x = make()
    stage = next(plan_stages([x.node], {}))
    for key in stage.outputs:
        owed = undrawn(stage.graph[key])
        assert owed is not None, key
        drawn = execute_task(stage.graph[key], {})
        assert (owed.shape, owed.nbytes) == (drawn.shape, drawn.nbytes)
        np.testing.assert_array_equal(owed.recompute(), drawn)


@pytest.mark.parametrize(
    "make",
    [
        lambda: mt.random.RandomState(3).randint(0, 9, size=(50,), chunk_size=7),
        lambda: mt.random.RandomState(3).normal(1.0, 2.0, size=(50,), chunk_size=7),
        lambda: mt.arange(2.5, 90.0, 0.75, chunk_size=13),
    ],
    ids=["randint", "normal", "arange"],
)
def test_kernels_that_cannot_say_what_they_make_are_drawn(make):
    x = make()
    stage = next(plan_stages([x.node], {}))
    assert all(undrawn(stage.graph[k]) is None for k in stage.outputs)
