"""Sorting and searching against NumPy: sort, argsort, partition, unique, searchsorted, isin."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from jupyter_mars.tensor import sorting
from tests.conftest import assert_same, chunkings

RNG = np.random.default_rng(42)


def _data(shape: tuple[int, ...], dup: bool = True) -> np.ndarray:
    """Floats with many duplicates and a few NaNs (the awkward cases for a sample sort)."""
    a = RNG.integers(0, 5 if dup else 1000, size=shape).astype(float)
    if a.size > 3:
        a.flat[RNG.choice(a.size, 2, replace=False)] = np.nan
    return a


def _nsplits(session: Any, t: mt.Tensor) -> tuple[tuple[float, ...], ...]:
    nsplits: tuple[tuple[float, ...], ...] = session.engine.executed[t.key].nsplits
    return nsplits


@st.composite
def arrays_and_chunks(draw: Any, max_ndim: int = 3) -> tuple[np.ndarray, tuple[int, ...]]:
    ndim = draw(st.integers(1, max_ndim))
    shape = tuple(draw(st.lists(st.integers(0, 7), min_size=ndim, max_size=ndim)))
    chunks = tuple(draw(st.integers(1, max(n, 1))) for n in shape)
    values = RNG.integers(0, draw(st.integers(1, 20)), size=shape).astype(float)
    if values.size and draw(st.booleans()):
        values.flat[0] = np.nan
    return values, chunks


# ---- sort / argsort -------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(17,), (6, 7), (4, 5, 3)])
def test_sort_matches_numpy_on_every_axis_and_chunking(shape: tuple[int, ...]) -> None:
    a = _data(shape)
    for chunks in chunkings(shape):
        x = mt.tensor(a, chunk_size=chunks)
        for axis in [None, *range(-len(shape), len(shape))]:
            assert_same(mt.sort(x, axis=axis), np.sort(a, axis=axis))


@pytest.mark.parametrize("shape", [(17,), (6, 7), (4, 5, 3)])
def test_argsort_equals_numpy_stable_argsort(shape: tuple[int, ...]) -> None:
    a = _data(shape)
    for chunks in chunkings(shape):
        x = mt.tensor(a, chunk_size=chunks)
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


def test_sort_along_split_axis_keeps_the_input_chunks(session: Any) -> None:
    a = _data((9, 8))
    x = mt.tensor(a, chunk_size=(4, 3))
    s = mt.sort(x, axis=0).execute()
    assert _nsplits(session, s) == ((4, 4, 1), (3, 3, 2))
    flat = mt.sort(x, axis=None).execute()
    # one output chunk per input chunk, same sizes, in grid order
    assert _nsplits(session, flat) == ((12, 12, 8, 12, 12, 8, 3, 3, 2),)
    np.testing.assert_array_equal(flat.fetch(), np.sort(a, axis=None))


def test_sort_of_all_equal_values_spreads_over_buckets() -> None:
    """Ties are broken by position, so one value does not end up in a single bucket."""
    chunks = [np.zeros((1, 50)) for _ in range(4)]
    locals_ = [sorting.psrs_local_axis(c, 1, 50 * i, False) for i, c in enumerate(chunks)]
    samples = [sorting.psrs_sample(loc, 10) for loc in locals_]
    pivots = sorting.psrs_pivots(4, *samples)
    cuts = [sorting.psrs_cuts(loc, pivots) for loc in locals_]
    bucket_sizes = np.diff(sorting.psrs_offsets(*cuts), axis=1)[0]
    assert bucket_sizes.sum() == 200
    assert bucket_sizes.max() <= 2 * 200 // 4


def test_sort_of_many_chunks_with_heavy_duplicates() -> None:
    a = RNG.integers(0, 3, size=300)
    x = mt.tensor(a, chunk_size=13)
    assert_same(mt.sort(x), np.sort(a))
    assert_same(mt.argsort(x), np.argsort(a, kind="stable"))


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
    a = _data((5, 6))
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


# ---- partition / argpartition ---------------------------------------------------------------


def _check_partition(result: np.ndarray, a: np.ndarray, kth: Any, axis: int | None) -> None:
    if axis is None:
        a, axis = a.ravel(), 0
    expected = np.sort(a, axis=axis)
    n = a.shape[axis]
    for k in np.atleast_1d(kth):
        k = int(k) % n
        at_k = np.take(result, [k], axis=axis)
        np.testing.assert_array_equal(at_k, np.take(expected, [k], axis=axis))
        before = np.take(result, range(k), axis=axis)
        after = np.take(result, range(k + 1, n), axis=axis)
        with np.errstate(invalid="ignore"):
            assert not np.any(before > at_k)
            assert not np.any(after < at_k)


@pytest.mark.parametrize("kth", [0, 3, -1, [1, 4], (0, 2, 5)])
def test_partition_has_the_partition_property(kth: Any) -> None:
    a = RNG.integers(0, 9, size=(7, 6)).astype(float)
    for chunks in chunkings(a.shape):
        x = mt.tensor(a, chunk_size=chunks)
        for axis in [0, 1, None]:
            result = mt.partition(x, kth, axis=axis).execute().fetch()
            assert result.shape == ((a.size,) if axis is None else a.shape)
            _check_partition(result, a, kth, axis)
            index = mt.argpartition(x, kth, axis=axis).execute().fetch()
            assert index.dtype == np.intp
            if axis is None:
                picked = a.ravel()[index]
            else:
                picked = np.take_along_axis(a, index, axis=axis)
            _check_partition(picked, a, kth, axis)


def test_partition_along_single_chunk_axis_equals_numpy() -> None:
    a = RNG.random((6, 9))
    x = mt.tensor(a, chunk_size=(2, 9))
    assert_same(mt.partition(x, [2, 5], axis=1), np.partition(a, [2, 5], axis=1))
    assert_same(mt.argpartition(x, 4), np.argpartition(a, 4))


def test_partition_method_is_in_place() -> None:
    a = RNG.random(10)
    x = mt.tensor(a, chunk_size=3)
    assert x.partition(4) is None
    _check_partition(x.execute().fetch(), a, 4, 0)
    y = mt.tensor(a, chunk_size=3)
    _check_partition(a[y.argpartition(2).execute().fetch()], a, 2, 0)


def test_partition_bad_kth_and_axis_raise_at_call() -> None:
    x = mt.tensor(np.arange(5.0), chunk_size=2)
    with pytest.raises(ValueError, match="out of bounds"):
        mt.partition(x, 5)
    with pytest.raises(ValueError, match="out of bounds"):
        mt.argpartition(x, [-6])
    with pytest.raises(TypeError, match="kth"):
        mt.partition(x, 1.5)
    with pytest.raises(np.exceptions.AxisError):
        mt.partition(x, 1, axis=1)
    with pytest.raises(ValueError, match="kind"):
        mt.partition(x, 1, kind="quick")


# ---- unique --------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(23,), (5, 6), (3, 4, 2)])
def test_unique_with_every_return_flag(shape: tuple[int, ...]) -> None:
    a = _data(shape)
    expected = np.unique(a, return_index=True, return_inverse=True, return_counts=True)
    for chunks in chunkings(shape):
        x = mt.tensor(a, chunk_size=chunks)
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


# ---- searchsorted ---------------------------------------------------------------------------


@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_on_chunked_sorted_data(side: str) -> None:
    a = np.sort(RNG.integers(0, 20, size=25)).astype(float)
    v = RNG.integers(-2, 23, size=(4, 5)).astype(float)
    for a_chunks in chunkings(a.shape):
        for v_chunks in chunkings(v.shape):
            got = mt.searchsorted(
                mt.tensor(a, chunk_size=a_chunks), mt.tensor(v, chunk_size=v_chunks), side
            )
            assert_same(got, np.searchsorted(a, v, side=side))  # type: ignore[call-overload]


def test_searchsorted_with_scalar_nan_and_method() -> None:
    a = np.array([1.0, 2.0, 2.0, 5.0, np.nan, np.nan])
    x = mt.tensor(a, chunk_size=4)
    assert_same(mt.searchsorted(x, 2.0), np.searchsorted(a, 2.0))
    assert_same(
        mt.searchsorted(x, [np.nan, 9.0], side="right"), np.searchsorted(a, [np.nan, 9.0], "right")
    )
    assert_same(x.searchsorted(np.array([0.0, 3.0])), np.searchsorted(a, [0.0, 3.0]))


def test_searchsorted_with_sorter() -> None:
    a = RNG.permutation(30).astype(float)
    sorter = np.argsort(a)
    v = np.array([-1.0, 0.0, 4.5, 29.0, 31.0])
    for chunks in chunkings(a.shape):
        got = mt.searchsorted(
            mt.tensor(a, chunk_size=chunks), v, sorter=mt.tensor(sorter, chunk_size=chunks)
        )
        assert_same(got, np.searchsorted(a, v, sorter=sorter))


def test_searchsorted_bad_arguments_raise_at_call() -> None:
    with pytest.raises(ValueError, match="1-dimensional"):
        mt.searchsorted(mt.tensor(np.ones((2, 2))), 1)
    x = mt.tensor(np.arange(5), chunk_size=2)
    with pytest.raises(ValueError, match="side"):
        mt.searchsorted(x, 1, side="middle")
    with pytest.raises(ValueError, match="sorter"):
        mt.searchsorted(x, 1, sorter=np.arange(4))
    with pytest.raises(TypeError, match="sorter"):
        mt.searchsorted(x, 1, sorter=np.arange(5.0))


# ---- isin / in1d ---------------------------------------------------------------------------


@pytest.mark.parametrize("invert", [False, True])
def test_isin_over_chunkings(invert: bool) -> None:
    element = RNG.integers(0, 12, size=(5, 6))
    test = RNG.integers(0, 12, size=(2, 4))
    for e_chunks in chunkings(element.shape):
        for t_chunks in chunkings(test.shape):
            got = mt.isin(
                mt.tensor(element, chunk_size=e_chunks),
                mt.tensor(test, chunk_size=t_chunks),
                invert=invert,
            )
            assert_same(got, np.isin(element, test, invert=invert))


def test_isin_with_scalar_element_and_list_test() -> None:
    assert_same(mt.isin(3, [1, 3, 5]), np.isin(3, [1, 3, 5]))
    assert_same(
        mt.isin(mt.tensor([1.0, np.nan, 2.0], chunk_size=1), [2.0]), np.array([0, 0, 1], bool)
    )


def test_in1d_flattens_like_numpy() -> None:
    element = RNG.integers(0, 8, size=(4, 5))
    test = [1, 2, 7]
    expected = np.isin(element, test).ravel()
    for chunks in chunkings(element.shape):
        got = mt.in1d(mt.tensor(element, chunk_size=chunks), test)
        assert got.shape == expected.shape
        assert_same(got, expected)
    assert_same(mt.in1d(element[0], test, invert=True), ~np.isin(element[0], test))


def test_isin_bad_kind_raises() -> None:
    with pytest.raises(ValueError, match="kind"):
        mt.isin([1, 2], [1], kind="hash")
