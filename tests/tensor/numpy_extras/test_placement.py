"""``take_along_axis`` and the in-place writers against NumPy over three chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings

_A = np.arange(12.0).reshape(3, 4)
_IDX = np.array([[0, 3], [1, 1], [2, 0]])


@pytest.mark.parametrize("chunks", chunkings(_A.shape))
def test_take_and_put_along_axis_match_numpy(chunks: object) -> None:
    x = mt.tensor(_A, chunk_size=chunks)
    assert_same(mt.take_along_axis(x, _IDX, 1), np.take_along_axis(_A, _IDX, 1))
    order = np.argsort(-_A, axis=0)
    assert_same(mt.take_along_axis(x, mt.tensor(order), 0), np.take_along_axis(_A, order, 0))
    flat = np.array([11, 0, 5])
    assert_same(mt.take_along_axis(x, flat, None), np.take_along_axis(_A, flat, None))

    for axis, index, values in [(1, _IDX, -1.0), (0, order[:1], [[7, 8, 9, 10]]), (None, flat, 3)]:
        got, expected = mt.tensor(_A, chunk_size=chunks), _A.copy()
        before = got
        kept = got + 0
        mt.put_along_axis(got, index, values, axis)
        np.put_along_axis(expected, index, values, axis)
        assert got is before
        assert_same(got, expected)
        assert_same(kept, _A)  # made from the old values


def test_along_axis_bad_input() -> None:
    x = mt.ones((2, 3))
    with pytest.raises(ValueError, match="same number of dimensions"):
        mt.take_along_axis(x, np.array([0, 1]), 1)
    with pytest.raises(IndexError, match="integer array"):
        mt.take_along_axis(x, np.array([[0.5]]), 1)
    with pytest.raises(ValueError, match="single dimension"):
        mt.take_along_axis(x, np.array([[0]]), None)
    with pytest.raises(np.exceptions.AxisError):
        mt.take_along_axis(x, np.array([[0]]), 2)


@pytest.mark.parametrize(
    ("ind", "v", "mode"),
    [
        ([0, 5, -1], [9, 8, 7], "raise"),
        ([0, -1], [1.7], "raise"),
        ([1, 14, -20], [5, 6], "wrap"),
        ([1, 14, -20], 4, "clip"),
        ([2, 2], [1, 2], "raise"),
        ([3], [], "raise"),
    ],
)
def test_put_matches_numpy(ind: Any, v: Any, mode: str) -> None:
    a = np.arange(12).reshape(3, 4)
    for chunks in chunkings(a.shape):
        got, expected = mt.tensor(a, chunk_size=chunks), a.copy()
        mt.put(got, ind, v, mode=mode)
        np.put(expected, ind, v, mode=mode)  # type: ignore[arg-type]
        assert_same(got, expected)
    got = mt.tensor(a, chunk_size=2)
    mt.put(got, mt.tensor(np.array([0, 5])), mt.tensor([-1, -2]))
    expected = a.copy()
    np.put(expected, [0, 5], [-1, -2])
    assert_same(got, expected)


def test_put_bad_input() -> None:
    with pytest.raises(IndexError, match="index 12 is out of bounds"):
        mt.put(mt.ones((3, 4)), [12], 1)
    with pytest.raises(ValueError, match="clipmode"):
        mt.put(mt.ones(3), [1], 1, mode="bogus")
    with pytest.raises(TypeError, match="in place"):
        mt.put([1, 2], [0], 1)


@pytest.mark.parametrize("vals", [[1.7, 2.9], [5], [-1, -2, -3, -4, -5, -6, -7]])
def test_place_and_putmask_match_numpy(vals: list[float]) -> None:
    a = np.arange(12).reshape(3, 4)
    mask = (a % 3) == 1
    for chunks in chunkings(a.shape):
        for name in ("place", "putmask"):
            got, expected = mt.tensor(a, chunk_size=chunks), a.copy()
            getattr(mt, name)(got, mt.tensor(mask, chunk_size=chunks), vals)
            getattr(np, name)(expected, mask, vals)
            assert_same(got, expected)


def test_place_and_putmask_bad_input() -> None:
    x = mt.ones(6)
    with pytest.raises(ValueError, match="Cannot insert from an empty array"):
        mt.place(x, x > 0, [])
    with pytest.raises(ValueError, match="mask and data must be the same size"):
        mt.putmask(x, np.ones(2, bool), [1])
    with pytest.raises(ValueError, match="mask and data must be the same size"):
        mt.place(x, np.ones(2, bool), [1])
    mt.putmask(x, x > 0, [])  # nothing to write, as NumPy
    assert_same(x, np.ones(6))


def test_writers_leave_numpy_arrays_to_numpy() -> None:
    a = np.arange(6)
    mt.put(a, [0], [9])
    mt.place(a, a == 1, [7])
    mt.putmask(a, a == 2, [8])
    mt.put_along_axis(a, np.array([5]), 0, None)
    np.testing.assert_array_equal(a, [9, 7, 8, 3, 4, 0])


@settings(max_examples=20)
@given(shape=st.lists(st.integers(1, 5), min_size=1, max_size=3), data=st.data())
def test_take_along_axis_matches_numpy_over_shapes(shape: list[int], data: st.DataObject) -> None:
    a = (np.arange(float(np.prod(shape))) * 7 % 5).reshape(shape)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    order = np.argsort(a, axis=axis)
    chunks = tuple(data.draw(st.integers(1, n)) for n in shape)
    x = mt.tensor(a, chunk_size=chunks)
    assert_same(mt.take_along_axis(x, order, axis), np.take_along_axis(a, order, axis))
    expected = a.copy()
    np.put_along_axis(expected, order[..., :1] if a.ndim else order, -1.0, axis)
    mt.put_along_axis(x, order[..., :1] if a.ndim else order, -1.0, axis)
    assert_same(x, expected)
