"""The package ``mt.random``: its public API and its one global state."""

from __future__ import annotations

import inspect

import numpy as np

import jupyter_mars.tensor as mt
from jupyter_mars.tensor import random as mrandom
from jupyter_mars.tensor.random import state


def test_all_lists_the_public_api() -> None:
    for name in mrandom.__all__:
        assert callable(getattr(mt.random, name)), name
    assert mt.random is mrandom


def test_module_functions_share_one_global_state() -> None:
    functions = [getattr(mt.random, name) for name in mrandom.__all__]
    bound = [func for func in functions if inspect.ismethod(func)]
    # all but RandomState, RandomStateField, seed, get_state and set_state are methods of
    # the global state
    assert len(bound) == len(functions) - 5
    assert {id(func.__self__) for func in bound} == {id(state.global_state)}
    mt.random.seed(3)
    a = mt.random.uniform(size=4).execute().fetch()
    state.global_state.seed(3)
    b = mt.random.uniform(size=4).execute().fetch()
    np.testing.assert_array_equal(a, b)
