"""``union1d`` and ``setdiff1d`` against NumPy over three chunkings."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings

_A = np.array([[5, 1, 3], [3, 9, 1]])
_B = np.array([1, 7, 7, 2])


def test_union1d_matches_numpy() -> None:
    for chunks in chunkings(_A.shape):
        x = mt.tensor(_A, chunk_size=chunks)
        assert_same(mt.union1d(x, _B), np.union1d(_A, _B))
        assert_same(mt.union1d(_B, x.astype(float)), np.union1d(_B, _A.astype(float)))


def test_setdiff1d_matches_numpy() -> None:
    for chunks in chunkings(_A.shape):
        x = mt.tensor(_A, chunk_size=chunks)
        assert_same(mt.setdiff1d(x, _B), np.setdiff1d(_A, _B))
        assert_same(mt.setdiff1d(_B, x), np.setdiff1d(_B, _A))
    unique = np.array([9, 4, 1, 6])
    for chunks in chunkings(unique.shape):
        x = mt.tensor(unique, chunk_size=chunks)
        assert_same(
            mt.setdiff1d(x, [4, 5], assume_unique=True),
            np.setdiff1d(unique, [4, 5], assume_unique=True),
        )


@settings(max_examples=10, deadline=None)
@given(
    a=st.lists(st.integers(0, 6), max_size=10),
    b=st.lists(st.integers(0, 6), max_size=10),
    chunk=st.integers(1, 5),
)
def test_set_routines_any_values(a: list[int], b: list[int], chunk: int) -> None:
    x = mt.tensor(np.array(a, dtype=np.int64), chunk_size=chunk)
    y = mt.tensor(np.array(b, dtype=np.int64), chunk_size=chunk)
    assert_same(mt.union1d(x, y), np.union1d(np.array(a, int), np.array(b, int)))
    assert_same(mt.setdiff1d(x, y), np.setdiff1d(np.array(a, int), np.array(b, int)))
