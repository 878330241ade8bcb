"""Diagonals, traces and triangle indices against NumPy over three chunkings."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings

_A = np.arange(60).reshape(3, 4, 5)


@pytest.mark.parametrize(
    ("offset", "axis1", "axis2"), [(0, 0, 1), (1, 0, 1), (-2, 1, 2), (3, 2, 0), (9, 0, 1)]
)
def test_diagonal_and_trace_match_numpy(offset: int, axis1: int, axis2: int) -> None:
    for chunks in chunkings(_A.shape):
        x = mt.tensor(_A, chunk_size=chunks)
        assert_same(mt.diagonal(x, offset, axis1, axis2), np.diagonal(_A, offset, axis1, axis2))
        assert_same(mt.trace(x, offset, axis1, axis2), np.trace(_A, offset, axis1, axis2))
    small = _A[0].astype(np.int8)
    assert_same(mt.trace(mt.tensor(small, chunk_size=2)), np.trace(small))
    assert_same(mt.trace(mt.tensor(small), dtype=np.float32), np.trace(small, dtype=np.float32))


def test_diagonal_bad_input() -> None:
    with pytest.raises(ValueError, match="at least two dimensions"):
        mt.diagonal(mt.ones(3))
    with pytest.raises(ValueError, match="cannot be the same"):
        mt.diagonal(mt.ones((3, 3)), axis1=1, axis2=-1)
    with pytest.raises(np.exceptions.AxisError):
        mt.diagonal(mt.ones((3, 3)), axis2=2)


def _assert_tuple(got: tuple, expected: tuple) -> None:
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert_same(g, e)


@settings(max_examples=15)
@given(
    n=st.integers(0, 6),
    k=st.integers(-7, 7),
    m=st.one_of(st.none(), st.integers(0, 6)),
)
def test_triangle_indices_match_numpy(n: int, k: int, m: int | None) -> None:
    _assert_tuple(mt.tril_indices(n, k, m), np.tril_indices(n, k, m))
    _assert_tuple(mt.triu_indices(n, k, m), np.triu_indices(n, k, m))


def test_indices_from_arrays_match_numpy() -> None:
    a = np.ones((4, 6))
    for chunks in chunkings(a.shape):
        x = mt.tensor(a, chunk_size=chunks)
        _assert_tuple(mt.tril_indices_from(x, -1), np.tril_indices_from(a, -1))
        _assert_tuple(mt.triu_indices_from(x, 2), np.triu_indices_from(a, 2))
    cube = np.ones((3, 3, 3))
    _assert_tuple(mt.diag_indices_from(mt.tensor(cube)), np.diag_indices_from(cube))
    _assert_tuple(mt.diag_indices(4, 3), np.diag_indices(4, 3))
    with pytest.raises(ValueError, match="equal length"):
        mt.diag_indices_from(mt.ones((2, 3)))
    with pytest.raises(ValueError, match="at least 2-d"):
        mt.diag_indices_from(mt.ones(3))
    with pytest.raises(ValueError, match="must be 2-d"):
        mt.tril_indices_from(mt.ones(3))


def test_mask_indices_matches_numpy() -> None:
    _assert_tuple(mt.mask_indices(4, np.triu, 1), np.mask_indices(4, np.triu, 1))
    _assert_tuple(mt.mask_indices(3, mt.tril), np.mask_indices(3, np.tril))
