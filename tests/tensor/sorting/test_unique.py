"""``unique`` against NumPy: every return flag, unknown lengths, strings, an axis."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.sorting.helpers import RNG, arrays_and_chunks, awkward_floats


@pytest.mark.parametrize("shape", [(23,), (5, 6), (3, 4, 2)])
def test_unique_with_every_return_flag(shape: tuple[int, ...], xp: Any) -> None:
    a = awkward_floats(shape)
    expected = np.unique(a, return_index=True, return_inverse=True, return_counts=True)
    for chunks in chunkings(shape):
        x = on(xp, mt.tensor(a, chunk_size=chunks))
        assert_same(mt.unique(x), expected[0])
        got = mt.unique(x, return_index=True, return_inverse=True, return_counts=True)
        assert len(got) == 4
        for g, e in zip(got, expected):
            assert_same(g, e)
        values, counts = mt.unique(x, return_counts=True)
        assert_same(counts, expected[3])


def test_unique_length_is_unknown_until_executed() -> None:
    a = RNG.integers(0, 10, size=40)
    u = mt.unique(mt.tensor(a, chunk_size=6))
    assert math.isnan(u.shape[0])
    u.execute()
    assert u.shape == np.unique(a).shape


def test_unique_of_strings_and_empty() -> None:
    words = np.array(["b", "a", "c", "a", "b", "d", "a"])
    assert_same(mt.unique(mt.tensor(words, chunk_size=2)), np.unique(words))
    for empty, chunks in ((np.zeros((0, 3)), 2), (np.zeros((0, 2, 3)), 1)):
        got = mt.unique(
            mt.tensor(empty, chunk_size=chunks), return_inverse=True, return_counts=True
        )
        for g, e in zip(got, np.unique(empty, return_inverse=True, return_counts=True)):
            assert_same(g, e)


@given(arrays_and_chunks())
def test_unique_hypothesis(case: tuple[np.ndarray, tuple[int, ...]]) -> None:
    a, chunks = case
    got = mt.unique(
        mt.tensor(a, chunk_size=chunks), return_index=True, return_inverse=True, return_counts=True
    )
    for g, e in zip(got, np.unique(a, return_index=True, return_inverse=True, return_counts=True)):
        assert_same(g, e)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_unique_along_an_axis(axis: int) -> None:
    a = RNG.integers(0, 2, size=(6, 4))
    x = mt.tensor(a, chunk_size=(4, 3))
    got = mt.unique(x, axis=axis, return_index=True, return_inverse=True, return_counts=True)
    expected = np.unique(a, axis=axis, return_index=True, return_inverse=True, return_counts=True)
    for g, e in zip(got, expected):
        assert_same(g, e)
    assert_same(mt.unique(x, axis=axis), expected[0])
    with pytest.raises(np.exceptions.AxisError):
        mt.unique(x, axis=2)


def test_unique_then_slice_through_iterative_tiling() -> None:
    if not hasattr(mt.Tensor, "__getitem__"):
        pytest.skip("tensor indexing is not available yet")
    a = RNG.integers(0, 50, size=60)
    u = mt.unique(mt.tensor(a, chunk_size=7))
    assert_same(u[:3], np.unique(a)[:3])
