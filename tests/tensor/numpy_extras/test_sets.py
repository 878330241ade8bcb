"""Set routines against NumPy over three chunkings (``unique_values`` sorted: NumPy gives
its values in no particular order)."""

from __future__ import annotations

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same

_X = np.array([[3, 1, 2], [3, 7, 1]])
_F = np.array([3.0, 1, np.nan, 2, np.nan, 1])
_A = [5, 3, 1, 2, 1, 9]
_B = [1, 2, 5, 7]


@pytest.mark.parametrize("chunks", [1, 2, None])
def test_unique_family_matches_numpy(chunks: object) -> None:
    x, f = mt.tensor(_X, chunk_size=chunks), mt.tensor(_F, chunk_size=chunks)
    assert_same(mt.unique_values(x), np.sort(np.unique_values(_X)))
    assert_same(mt.unique_values(f), np.sort(np.unique_values(_F)))
    counts = mt.unique_counts(f)
    expected = np.unique_counts(_F)
    order = np.argsort(expected.values, kind="stable")
    assert_same(counts.values, expected.values[order])
    assert_same(counts.counts, expected.counts[order])
    everything = mt.unique_all(x)
    for got, want in zip(everything, np.unique_all(_X)):
        assert_same(got, want)
    assert_same(everything.inverse_indices, np.unique_all(_X).inverse_indices)
    inverse = mt.unique_inverse(x)
    assert_same(inverse.values, np.unique_inverse(_X).values)
    assert_same(inverse.inverse_indices, np.unique_inverse(_X).inverse_indices)
    with pytest.raises(AttributeError):
        _ = inverse.counts


@pytest.mark.parametrize("chunks", [1, 2, None])
def test_intersect1d_and_setxor1d_match_numpy(chunks: object) -> None:
    a = mt.tensor(_A, chunk_size=chunks)
    assert_same(mt.intersect1d(a, _B), np.intersect1d(_A, _B))
    for got, want in zip(
        mt.intersect1d(a, _B, return_indices=True), np.intersect1d(_A, _B, return_indices=True)
    ):
        assert_same(got, want)
    u = mt.tensor([5, 3, 1], chunk_size=chunks)
    assert_same(
        mt.intersect1d(u, [1, 5, 7], assume_unique=True),
        np.intersect1d([5, 3, 1], [1, 5, 7], assume_unique=True),
    )
    assert_same(mt.setxor1d(a, _B), np.setxor1d(_A, _B))
    assert_same(
        mt.setxor1d(u, [1, 6], assume_unique=True),
        np.setxor1d([5, 3, 1], [1, 6], assume_unique=True),
    )
    assert_same(mt.intersect1d(mt.tensor(_X, chunk_size=chunks), _F), np.intersect1d(_X, _F))
