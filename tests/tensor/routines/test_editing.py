"""``append``, ``insert`` and ``delete`` against NumPy over three chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from jupyter_mars.tensor.routines.editing import MAX_RUNS
from tests.conftest import assert_same, chunkings

_A = np.arange(24).reshape(4, 6)


@pytest.mark.parametrize(
    ("obj", "values", "axis"),
    [
        (1, 99, None),
        (-1, [7, 8], None),
        (0, [7, 8, 9, 10, 11, 12], 0),
        (4, 5, 0),
        (1, [7, 8, 9, 10], 1),
        (1, [[7], [8], [9], [10]], 1),
        ([1], [[7], [8], [9], [10]], 1),
        ([5, 0, 0], [1, 2, 3], 1),
        ([2, -1], 0.7, 0),
        (slice(0, 6, 2), [1, 2, 3], 1),
        ([], 5, 0),
    ],
)
def test_insert_matches_numpy(obj: Any, values: Any, axis: Any) -> None:
    for chunks in chunkings(_A.shape):
        x = mt.tensor(_A, chunk_size=chunks)
        assert_same(mt.insert(x, obj, values, axis=axis), np.insert(_A, obj, values, axis=axis))


def test_insert_tensor_values_are_cast_to_the_input_dtype() -> None:
    values = np.array([0.5, 1.5, 2.5, 3.5])
    for chunks in chunkings(_A.shape):
        x = mt.tensor(_A, chunk_size=chunks)
        v = mt.tensor(values, chunk_size=chunks[0] if isinstance(chunks, tuple) else 1)
        assert_same(mt.insert(x, 2, v, axis=1), np.insert(_A, 2, values, axis=1))


def test_insert_bad_input_raises_at_the_call() -> None:
    x = mt.tensor(_A)
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 1 with size 6"):
        mt.insert(x, 7, 0, axis=1)
    with pytest.raises(IndexError, match="out of bounds"):
        mt.insert(x, [0, -8], 0, axis=1)
    with pytest.raises(np.exceptions.AxisError):
        mt.insert(x, 0, 0, axis=2)
    with pytest.raises(TypeError):
        mt.insert(x, 0.5, 0)
    with pytest.raises(ValueError, match="could not broadcast"):
        mt.insert(x, [0, 1], [1, 2, 3], axis=1)


@pytest.mark.parametrize(
    ("obj", "axis"),
    [
        (1, None),
        (-1, 0),
        ([0, 2], 1),
        ([5, 0, 0, -1], 1),
        (slice(1, 5, 2), 1),
        (np.array([True, False, True, False]), 0),
        ([], 0),
        (slice(None, None, 1), 0),
    ],
)
def test_delete_matches_numpy(obj: Any, axis: Any) -> None:
    for chunks in chunkings(_A.shape):
        x = mt.tensor(_A, chunk_size=chunks)
        assert_same(mt.delete(x, obj, axis=axis), np.delete(_A, obj, axis=axis))


def test_delete_many_scattered_positions_gathers_once() -> None:
    a = np.arange(4 * MAX_RUNS)
    x = mt.tensor(a, chunk_size=7)
    assert_same(mt.delete(x, slice(None, None, 2)), np.delete(a, slice(None, None, 2)))


def test_delete_bad_input_raises_at_the_call() -> None:
    x = mt.tensor(_A)
    with pytest.raises(IndexError, match="index 6 is out of bounds for axis 0 with size 4"):
        mt.delete(x, 6, axis=0)
    with pytest.raises(ValueError, match="boolean array argument obj to delete"):
        mt.delete(x, [True, False], axis=0)
    with pytest.raises(IndexError, match="integer"):
        mt.delete(x, [0.5])


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_append_matches_numpy(axis: Any) -> None:
    extra = np.ones((4, 6)) / 2
    for chunks in chunkings(_A.shape):
        x = mt.tensor(_A, chunk_size=chunks)
        assert_same(mt.append(x, extra, axis=axis), np.append(_A, extra, axis=axis))
    with pytest.raises(ValueError, match="same number of dimensions"):
        mt.append(mt.tensor(_A), [1, 2], axis=0)


@settings(max_examples=15, deadline=None)
@given(
    n=st.integers(1, 9),
    chunk=st.integers(1, 9),
    positions=st.lists(st.integers(-9, 9), max_size=4),
)
def test_insert_and_delete_any_positions(n: int, chunk: int, positions: list[int]) -> None:
    a = np.arange(n) * 10
    x = mt.tensor(a, chunk_size=chunk)
    valid = [p for p in positions if -n <= p <= n]
    assert_same(mt.insert(x, valid, -1), np.insert(a, valid, -1))
    inside = [p for p in valid if p < n]
    assert_same(mt.delete(x, inside), np.delete(a, inside))


def test_insert_at_no_position_still_checks_the_values() -> None:
    x = mt.tensor(np.arange(3), chunk_size=2)
    assert_same(mt.insert(x, slice(3, None), 5), np.insert(np.arange(3), slice(3, None), 5))
    with pytest.raises(ValueError, match="could not broadcast"):
        mt.insert(x, slice(3, None), [1, 2])
