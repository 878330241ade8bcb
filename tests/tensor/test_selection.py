"""``topk`` and ``argtopk`` against NumPy's sorts, over chunkings, ties, NaN and bad input."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from jupyter_mars.config import option_context
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.sorting.helpers import arrays_and_chunks, awkward_floats


def expected_argtopk(a: np.ndarray, k: int, axis: int | None, largest: bool) -> np.ndarray:
    """The documented order: best first (NaN largest), equal values by lower index."""
    if axis is None:
        a, axis = a.ravel(), 0
    # dense ranks (NaNs share the top one), so negating them keeps the ties stable
    _, ranks = np.unique(a, return_inverse=True)
    ranks = ranks.reshape(a.shape)
    order = np.argsort(-ranks if largest else ranks, axis=axis, kind="stable")
    return np.take(order, np.arange(k), axis=axis)


def expected_topk(a: np.ndarray, k: int, axis: int | None, largest: bool) -> np.ndarray:
    if axis is None:
        a, axis = a.ravel(), 0
    ordered = np.sort(a, axis=axis)
    if largest:
        ordered = np.flip(ordered, axis)
    return np.take(ordered, np.arange(k), axis=axis)


@pytest.mark.parametrize("shape", [(17,), (6, 7), (4, 5, 3)])
@pytest.mark.parametrize("largest", [True, False])
def test_topk_and_argtopk_match_numpy_sorts_over_chunkings(
    shape: tuple[int, ...], largest: bool, xp: Any
) -> None:
    a = awkward_floats(shape)
    for chunks in chunkings(shape):
        x = on(xp, mt.tensor(a, chunk_size=chunks))
        for axis in [None, *range(-len(shape), len(shape))]:
            n = a.size if axis is None else shape[axis]
            for k in {1, 3, n}:
                got = mt.topk(x, k, axis=axis, largest=largest)
                assert_same(got, expected_topk(a, k, axis, largest))
                got = mt.argtopk(x, k, axis=axis, largest=largest)
                assert_same(got, expected_argtopk(a, k, axis, largest))


def test_ties_keep_the_lower_index_whatever_the_chunking(xp: Any) -> None:
    a = np.array([1, 5, 5, 2, 5, 5, 0, 5])
    for chunks in chunkings(a.shape):
        x = on(xp, mt.tensor(a, chunk_size=chunks))
        assert_same(mt.argtopk(x, 3), np.array([1, 2, 4]))
        assert_same(mt.argtopk(x, 2, largest=False), np.array([6, 0]))
        assert_same(mt.topk(x, 3), np.array([5, 5, 5]))


def test_the_merge_tree_keeps_the_order_across_levels() -> None:
    a = awkward_floats((40, 3))
    x = mt.tensor(a, chunk_size=(3, 2))
    with option_context({"combine_size": 2}):
        assert_same(mt.argtopk(x, 7, axis=0), expected_argtopk(a, 7, 0, True))
        assert_same(mt.topk(x, 7, axis=0, largest=False), expected_topk(a, 7, 0, False))


@pytest.mark.parametrize(
    "values",
    [
        np.array([3, -1, 7, 7, 0, -128, 5, 2, 2, 9], dtype=np.int8),
        np.array([3, 1, 7, 7, 0, 255, 5], dtype=np.uint8),
        np.array([True, False, True, True, False, False, True]),
        np.array([0.5, -0.0, np.inf, -np.inf, np.nan, 0.5], dtype=np.float32),
        np.array(["pear", "apple", "fig", "apple", "kiwi", "date", "fig"]),
    ],
)
def test_other_dtypes_keep_their_dtype(values: np.ndarray) -> None:
    for chunks in chunkings(values.shape):
        x = mt.tensor(values, chunk_size=chunks)
        for largest in (True, False):
            got = mt.topk(x, 4, largest=largest)
            assert got.dtype == values.dtype
            assert_same(got, expected_topk(values, 4, -1, largest))
            idx = mt.argtopk(x, 4, largest=largest)
            assert idx.dtype == np.intp
            assert_same(idx, expected_argtopk(values, 4, -1, largest))


@settings(max_examples=15)
@given(data=arrays_and_chunks(), pick=st.data())
def test_hypothesis_shapes_and_chunks(data: Any, pick: Any) -> None:
    a, chunks = data
    axis = pick.draw(st.integers(-a.ndim, a.ndim - 1))
    k = pick.draw(st.integers(0, a.shape[axis]))
    largest = pick.draw(st.booleans())
    x = mt.tensor(a, chunk_size=chunks)
    assert_same(mt.topk(x, k, axis=axis, largest=largest), expected_topk(a, k, axis, largest))
    got = mt.argtopk(x, k, axis=axis, largest=largest)
    assert_same(got, expected_argtopk(a, k, axis, largest))


def test_shape_is_known_at_the_call_and_mars_keywords_are_accepted() -> None:
    x = mt.ones((6, 8), chunk_size=3)
    t = mt.topk(x, 2, axis=0, sorted=False, parallel_kind="psrs", psrs_kinds=["quicksort"] * 3)
    assert t.shape == (2, 8)
    assert mt.argtopk(x, 5).shape == (6, 5)
    assert mt.topk(x, 0).execute().fetch().shape == (6, 0)


def test_bad_arguments_raise_at_the_call() -> None:
    x = mt.ones((6, 8), chunk_size=3)
    with pytest.raises(ValueError, match="k \\(=9\\) must be between 0 and the length"):
        mt.topk(x, 9)
    with pytest.raises(ValueError, match="k \\(=-1\\)"):
        mt.argtopk(x, -1)
    with pytest.raises(TypeError, match="k must be an int"):
        mt.topk(x, 2.0)
    with pytest.raises(np.exceptions.AxisError):
        mt.topk(x, 2, axis=2)
    with pytest.raises(ValueError, match="parallel_kind"):
        mt.topk(x, 2, parallel_kind="bucket")
    with pytest.raises(ValueError, match="psrs_kinds"):
        mt.topk(x, 2, psrs_kinds="quicksort")
    with pytest.raises(TypeError, match="largest must be a bool"):
        mt.topk(x, 2, largest="yes")
    with pytest.raises(ValueError, match="no fields"):
        mt.topk(x, 2, order="a")
    unknown = x[x > 0]
    with pytest.raises(ValueError, match="unknown until the input is executed"):
        mt.topk(unknown, 2)


def test_order_picks_the_fields_of_a_structured_array() -> None:
    a = np.array([(1, 2.0), (3, 1.0), (1, 5.0), (0, 2.0)], dtype=[("x", int), ("y", float)])
    for chunks in chunkings(a.shape):
        x = mt.tensor(a, chunk_size=chunks)
        assert_same(mt.topk(x, 3, order="y"), np.sort(a, order="y")[::-1][:3])
        assert_same(mt.argtopk(x, 2, order=["x", "y"], largest=False), np.array([3, 0]))


@pytest.mark.parametrize("dtype", [np.float64, np.int16, np.uint8, np.bool_])
def test_linear_time_selection_of_few_among_many_keeps_the_tie_order(dtype: Any) -> None:
    a = np.random.default_rng(3).integers(0, 4, size=(30, 200)).astype(dtype)
    if dtype == np.float64:
        a[a == 3] = np.nan
    x = mt.tensor(a, chunk_size=(13, 90))
    for axis, largest in [(1, True), (1, False), (0, True), (0, False)]:
        assert_same(
            mt.argtopk(x, 9, axis=axis, largest=largest), expected_argtopk(a, 9, axis, largest)
        )
        assert_same(mt.topk(x, 9, axis=axis, largest=largest), expected_topk(a, 9, axis, largest))
