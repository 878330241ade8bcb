"""``diff`` and ``ediff1d`` against NumPy over three chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings

_A = (np.arange(30) ** 2 % 17).reshape(5, 6)


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"n": 2},
        {"n": 0},
        {"n": 9},
        {"axis": 0},
        {"axis": 0, "n": 3},
        {"prepend": 0.5},
        {"append": 100, "axis": 0},
        {"prepend": np.ones((5, 2), dtype=np.int32), "append": np.zeros((5, 1))},
    ],
)
def test_diff_matches_numpy(kwargs: dict[str, Any]) -> None:
    for chunks in chunkings(_A.shape):
        x = mt.tensor(_A, chunk_size=chunks)
        assert_same(mt.diff(x, **kwargs), np.diff(_A, **kwargs))


def test_diff_of_booleans_is_not_equal() -> None:
    b = np.array([True, True, False, True, False])
    for chunks in chunkings(b.shape):
        assert_same(mt.diff(mt.tensor(b, chunk_size=chunks), n=2), np.diff(b, n=2))


def test_diff_bad_input() -> None:
    with pytest.raises(ValueError, match="order must be non-negative but got -1"):
        mt.diff(mt.ones(3), n=-1)
    with pytest.raises(ValueError, match="at least one dimensional"):
        mt.diff(mt.tensor(1.0))
    with pytest.raises(TypeError, match="n must be an int"):
        mt.diff(mt.ones(3), n=1.5)
    with pytest.raises(np.exceptions.AxisError):
        mt.diff(mt.ones(3), axis=1)


@pytest.mark.parametrize(
    "kwargs", [{}, {"to_begin": [1, 2]}, {"to_end": 7}, {"to_begin": -1, "to_end": [8, 9]}]
)
def test_ediff1d_matches_numpy(kwargs: dict[str, Any]) -> None:
    a = _A.astype(float)
    for chunks in chunkings(a.shape):
        x = mt.tensor(a, chunk_size=chunks)
        assert_same(mt.ediff1d(x, **kwargs), np.ediff1d(a, **kwargs))


def test_ediff1d_bad_ends_and_dtypes() -> None:
    with pytest.raises(TypeError, match="dtype of `to_begin` must be compatible"):
        mt.ediff1d(mt.arange(3), to_begin=0.5)
    with pytest.raises(TypeError, match="boolean subtract"):
        mt.ediff1d(mt.tensor([True, False]))


@settings(max_examples=15, deadline=None)
@given(n=st.integers(1, 12), chunk=st.integers(1, 12), order=st.integers(0, 4))
def test_diff_any_chunking(n: int, chunk: int, order: int) -> None:
    a = np.arange(n) ** 2
    assert_same(mt.diff(mt.tensor(a, chunk_size=chunk), n=order), np.diff(a, n=order))
