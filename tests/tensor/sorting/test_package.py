"""The package as a whole: public names, re-exported helpers and ``Tensor`` methods."""

from __future__ import annotations

import importlib

import numpy as np

import jupyter_mars.tensor as mt
from jupyter_mars.tensor import sorting
from tests.conftest import assert_same

PUBLIC = ["argpartition", "argsort", "in1d", "isin", "partition", "searchsorted", "sort", "unique"]


def test_public_names_are_the_package_functions_and_mt_functions() -> None:
    assert sorting.__all__ == PUBLIC
    homes = {
        "argpartition": "partition",
        "argsort": "sort",
        "in1d": "membership",
        "isin": "membership",
        "partition": "partition",
        "searchsorted": "search",
        "sort": "sort",
        "unique": "unique",
    }
    for name in PUBLIC:
        # a submodule named like its function is reached through importlib: the package
        # attribute of that name is the function
        module = importlib.import_module(f"jupyter_mars.tensor.sorting.{homes[name]}")
        function = getattr(sorting, name)
        assert callable(function)
        assert function is getattr(module, name)
        assert getattr(mt, name) is function


def test_helpers_used_by_other_modules_are_reexported() -> None:
    for name in ("chunk_indices", "tree_reduce", "check_known", "sort_tiled"):
        assert callable(getattr(sorting, name))
    assert list(sorting.chunk_indices((2, 1))) == [(0, 0), (1, 0)]


def test_tensor_methods_are_attached() -> None:
    a = np.array([3.0, 1.0, 2.0, 0.0])
    x = mt.tensor(a, chunk_size=2)
    assert_same(x.argsort(), np.argsort(a, kind="stable"))
    assert set(x.argpartition(1).execute().fetch()[:2]) == {1, 3}
    assert x.sort() is None
    assert_same(x, np.sort(a))
    assert_same(x.searchsorted(1.5), np.searchsorted(np.sort(a), 1.5))
    y = mt.tensor(a, chunk_size=2)
    assert y.partition(2) is None
    assert y.execute().fetch()[2] == 2.0
