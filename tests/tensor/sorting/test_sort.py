"""``sort`` and ``argsort`` against NumPy, the ``Tensor`` methods and bad input."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.sorting.helpers import RNG, arrays_and_chunks, awkward_floats


@pytest.mark.parametrize("shape", [(17,), (6, 7), (4, 5, 3)])
def test_sort_matches_numpy_on_every_axis_and_chunking(shape: tuple[int, ...], xp: Any) -> None:
    a = awkward_floats(shape)
    for chunks in chunkings(shape):
        x = on(xp, mt.tensor(a, chunk_size=chunks))
        for axis in [None, *range(-len(shape), len(shape))]:
            assert_same(mt.sort(x, axis=axis), np.sort(a, axis=axis))


@pytest.mark.parametrize("shape", [(17,), (6, 7), (4, 5, 3)])
def test_argsort_equals_numpy_stable_argsort(shape: tuple[int, ...], xp: Any) -> None:
    a = awkward_floats(shape)
    for chunks in chunkings(shape):
        x = on(xp, mt.tensor(a, chunk_size=chunks))
        for axis in [None, *range(len(shape))]:
            assert_same(mt.argsort(x, axis=axis), np.argsort(a, axis=axis, kind="stable"))


@pytest.mark.parametrize(
    "values",
    [
        np.array([3, -1, 7, 7, 0, -128, 5, 2, 2, 9], dtype=np.int8),
        np.array([True, False, True, True, False, False, True]),
        np.array([1 + 2j, 1 + 1j, np.nan, 0j, 1 + 1j, -2j, 3]),
        np.array(["pear", "apple", "fig", "apple", "kiwi", "date", "fig"]),
        np.array([0.5, -0.0, 0.0, np.inf, -np.inf, np.nan, 0.5], dtype=np.float32),
    ],
)
def test_sort_and_argsort_of_other_dtypes(values: np.ndarray) -> None:
    for chunks in chunkings(values.shape):
        x = mt.tensor(values, chunk_size=chunks)
        assert_same(mt.sort(x), np.sort(values))
        assert_same(mt.argsort(x), np.argsort(values, kind="stable"))


@pytest.mark.parametrize("shape", [(0,), (3, 0), (0, 4)])
def test_sort_of_empty_arrays(shape: tuple[int, ...]) -> None:
    a = np.zeros(shape)
    x = mt.tensor(a, chunk_size=2)
    for axis in [None, -1, 0]:
        assert_same(mt.sort(x, axis=axis), np.sort(a, axis=axis))
        assert_same(mt.argsort(x, axis=axis), np.argsort(a, axis=axis))


@given(arrays_and_chunks(), st.data())
def test_sort_and_argsort_hypothesis(case: tuple[np.ndarray, tuple[int, ...]], data: Any) -> None:
    a, chunks = case
    axis = data.draw(st.sampled_from([None, *range(-a.ndim, a.ndim)]))
    x = mt.tensor(a, chunk_size=chunks)
    assert_same(mt.sort(x, axis=axis), np.sort(a, axis=axis))
    assert_same(mt.argsort(x, axis=axis), np.argsort(a, axis=axis, kind="stable"))


def test_sort_of_lazy_input_with_unknown_length() -> None:
    a = RNG.integers(0, 30, size=40)
    u = mt.unique(mt.tensor(a, chunk_size=7))
    s = mt.sort(-u)
    assert math.isnan(s.shape[0])
    assert_same(s, np.sort(-np.unique(a)))


def test_tensor_sort_method_sorts_in_place_and_argsort_method() -> None:
    a = awkward_floats((5, 6))
    x = mt.tensor(a, chunk_size=2)
    old_key = x.key
    assert x.sort(axis=0) is None
    assert x.key != old_key
    assert_same(x, np.sort(a, axis=0))
    y = mt.tensor(a, chunk_size=2)
    assert_same(y.argsort(), np.argsort(a, kind="stable"))
    assert_same(np.sort(y), np.sort(a))  # NumPy's function dispatches to the tensor one


def test_sort_bad_arguments_raise_at_call() -> None:
    x = mt.tensor(np.arange(6.0).reshape(2, 3), chunk_size=2)
    with pytest.raises(np.exceptions.AxisError):
        mt.sort(x, axis=2)
    with pytest.raises(np.exceptions.AxisError):
        mt.argsort(x, axis=-3)
    with pytest.raises(np.exceptions.AxisError):
        mt.sort(mt.tensor(3.0))
    with pytest.raises(TypeError, match="axis"):
        mt.sort(x, axis=1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="sort kind"):
        mt.sort(x, kind="bogus")
    with pytest.raises(ValueError, match="order"):
        mt.argsort(x, order="f")


def test_sort_of_a_filtered_tensor_with_empty_chunks() -> None:
    a = np.array([5.0, -1.0, 3.0, -2.0, 8.0, -4.0])
    for chunks in chunkings(a.shape):
        x = mt.tensor(a, chunk_size=chunks)
        assert_same(mt.sort(x[x > 0]), np.sort(a[a > 0]))
        assert_same(mt.sort(x[x > 100]), np.sort(a[a > 100]))
