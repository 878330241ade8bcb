"""``meshgrid`` against NumPy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("count", [1, 2, 3])
def test_meshgrid_matches_numpy(indexing: Any, sparse: bool, count: int) -> None:
    vectors = [np.arange(n, dtype=dt) for n, dt in zip([3, 4, 2], [float, np.int32, np.int8])]
    vectors = vectors[:count]
    expected = np.meshgrid(*vectors, indexing=indexing, sparse=sparse)
    for chunk in [1, 2, None]:
        inputs = [mt.tensor(v, chunk_size=2) for v in vectors]
        got = mt.meshgrid(*inputs, indexing=indexing, sparse=sparse, chunk_size=chunk)
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            assert_same(g, e)


def test_meshgrid_of_arrays_and_views() -> None:
    x, y = [0.5, 1.5], np.array([[1, 2], [3, 4]])
    for g, e in zip(mt.meshgrid(x, y, copy=False), np.meshgrid(x, y, copy=False)):
        assert_same(g, e)
    assert mt.meshgrid() == []


def test_meshgrid_ravels_nd_tensors() -> None:
    a, b = np.arange(6).reshape(2, 3), np.array([1.5, 2.5])
    got = mt.meshgrid(mt.tensor(a, chunk_size=1), mt.tensor(b), indexing="ij", chunk_size=4)
    for g, e in zip(got, np.meshgrid(a, b, indexing="ij")):
        assert_same(g, e)


def test_meshgrid_errors() -> None:
    with pytest.raises(ValueError, match="indexing"):
        mt.meshgrid([1, 2], indexing="yx")
    with pytest.raises(ValueError, match="chunk_size"):
        mt.meshgrid([1, 2], [3], chunk_size=(1, 2, 3))
