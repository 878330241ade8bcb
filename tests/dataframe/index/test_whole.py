"""Index methods on the whole index: set operations, sorting, duplicates and edits."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.dataframe.index.helpers import CHUNKS, assert_index, floats, ints, lazy_index, strings

SET_OPERATIONS = ["union", "intersection", "difference", "symmetric_difference"]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("name", SET_OPERATIONS)
@pytest.mark.parametrize("sort", [None, False])
def test_set_operations_with_lazy_and_pandas_others(
    chunk: int | None, name: str, sort: Any
) -> None:
    p, other = ints(), pd.Index([3, 8, 1, 1], name="k")
    idx = lazy_index(p, chunk)
    expected = getattr(p, name)(other, sort=sort)
    assert_index(getattr(idx, name)(other, sort=sort), expected)
    assert_index(getattr(idx, name)(lazy_index(other, 2), sort=sort), expected)


@settings(max_examples=15)
@given(
    left=st.lists(st.integers(0, 6), max_size=8),
    right=st.lists(st.integers(0, 6), max_size=8),
    chunk=st.integers(1, 4),
    name=st.sampled_from(SET_OPERATIONS),
)
def test_set_operations_hypothesis(
    left: list[int], right: list[int], chunk: int, name: str
) -> None:
    p, other = pd.Index(left, dtype="int64"), pd.Index(right, dtype="int64")
    got = getattr(lazy_index(p, chunk), name)(lazy_index(other, chunk)).to_pandas()
    pd.testing.assert_index_equal(got, getattr(p, name)(other))


@pytest.mark.parametrize("chunk", CHUNKS)
def test_sorting_and_duplicates(chunk: int | None) -> None:
    p = ints()
    idx = lazy_index(p, chunk)
    assert_index(idx.sort_values(), p.sort_values())
    assert len(idx.sort_values()) == len(p)
    assert idx.argsort().shape == (len(p),)
    assert_index(idx.sort_values(ascending=False), p.sort_values(ascending=False))
    got, indexer = idx.sort_values(return_indexer=True)
    expected, expected_indexer = p.sort_values(return_indexer=True)
    pd.testing.assert_index_equal(got, expected)
    np.testing.assert_array_equal(indexer, expected_indexer)
    np.testing.assert_array_equal(idx.argsort().to_numpy(), p.argsort())
    assert_index(idx.unique(), p.unique())
    for keep in ("first", "last", False):
        assert_index(idx.drop_duplicates(keep=keep), p.drop_duplicates(keep=keep))
        np.testing.assert_array_equal(idx.duplicated(keep=keep).to_numpy(), p.duplicated(keep))
    pd.testing.assert_series_equal(idx.value_counts().to_pandas(), p.value_counts())
    assert_index(lazy_index(floats(), chunk).dropna(), floats().dropna())


@pytest.mark.parametrize("chunk", CHUNKS)
def test_edits_by_position_and_label(chunk: int | None) -> None:
    p = ints()
    idx = lazy_index(p, chunk)
    assert_index(idx.append(pd.Index([4], name="k")), p.append(pd.Index([4], name="k")))
    assert_index(idx.append([lazy_index(p, 2), p]), p.append([p, p]))
    assert len(idx.append([p, p])) == 3 * len(p)
    assert_index(idx.append(pd.Index([0.5], name="k")), p.append(pd.Index([0.5], name="k")))
    assert_index(idx.append(pd.Index(["z"])), p.append(pd.Index(["z"])))
    assert_index(idx.insert(2, 42), p.insert(2, 42))
    assert_index(idx.insert(0, "x"), p.insert(0, "x"))
    assert_index(idx.delete(1), p.delete(1))
    assert_index(idx.delete([0, 2]), p.delete([0, 2]))
    assert_index(idx.drop([3, 9]), p.drop([3, 9]))
    assert_index(idx.drop([3, 99], errors="ignore"), p.drop([3, 99], errors="ignore"))
    assert_index(idx.repeat(2), p.repeat(2))
    assert_index(idx.repeat(np.arange(7)), p.repeat(np.arange(7)))
    lengths = [idx.insert(2, 42), idx.delete([0, -1]), idx.take([1, 1, 1]), idx.repeat(3)]
    assert [len(x) for x in lengths] == [8, 5, 3, 21]
    with pytest.raises(IndexError):
        idx.delete(7)
    assert_index(idx.take([4, 0, 0]), p.take([4, 0, 0]))
    assert_index(idx.diff(), p.diff())
    mask = np.array([True, False, True, True, False, True, False])
    assert_index(idx.where(mask), p.where(mask))
    assert_index(idx.where(mask, -1), p.where(mask, -1))
    assert_index(idx.putmask(mask, 0), p.putmask(mask, 0))
    assert_index(
        idx.join(pd.Index([1, 3, 4], name="k"), how="inner"),
        p.join(pd.Index([1, 3, 4], name="k"), how="inner"),
    )


def test_shift_of_datetimes_and_its_error_elsewhere() -> None:
    p = pd.date_range("2024-01-01", periods=5, freq="D", name="d")
    assert_index(lazy_index(p, 2).shift(2), p.shift(2))
    with pytest.raises(NotImplementedError):
        lazy_index(ints(), 2).shift(1)


def test_bad_arguments_raise_at_the_call() -> None:
    idx = lazy_index(strings(), 2)
    with pytest.raises(ValueError, match="keep"):
        idx.drop_duplicates(keep="middle")
    with pytest.raises(ValueError, match="axis"):
        idx.take([0], axis=1)


@settings(max_examples=15)
@given(
    labels=st.lists(st.sampled_from([0.5, np.nan, 2.0, -1.0]), max_size=9),
    chunk=st.integers(1, 4),
)
def test_sorting_and_uniques_hypothesis(labels: list[float], chunk: int) -> None:
    p = pd.Index(labels, dtype="float64", name="h")
    idx = lazy_index(p, chunk)
    pd.testing.assert_index_equal(idx.sort_values().to_pandas(), p.sort_values())
    pd.testing.assert_index_equal(idx.unique().to_pandas(), p.unique())
    pd.testing.assert_index_equal(idx.drop_duplicates().to_pandas(), p.drop_duplicates())
    np.testing.assert_array_equal(idx.duplicated().to_numpy(), p.duplicated())
    assert idx.nunique().execute().fetch() == p.nunique()
    assert idx.is_unique == p.is_unique
    assert idx.is_monotonic_increasing == p.is_monotonic_increasing


@pytest.mark.parametrize("chunk", CHUNKS)
def test_level_sorting_joins_and_other_calls(chunk: int | None) -> None:
    p = ints()
    idx = lazy_index(p, chunk)
    sorted_, indexer = idx.sortlevel()
    expected, expected_indexer = p.sortlevel()
    pd.testing.assert_index_equal(sorted_, expected)
    np.testing.assert_array_equal(indexer, expected_indexer)
    other = pd.Index([1, 3, 4], name="k")
    assert_index(idx.join(lazy_index(other, 2), how="left"), p.join(other, how="left"))
    joined, left, right = idx.join(other, how="outer", return_indexers=True)
    expected_joined, expected_left, expected_right = p.join(
        other, how="outer", return_indexers=True
    )
    pd.testing.assert_index_equal(joined, expected_joined)
    np.testing.assert_array_equal(left, expected_left)
    np.testing.assert_array_equal(right, expected_right)
    assert_index(idx.replace(3, 30), p.replace(3, 30))
    assert_index(idx.view(), p.view())
    assert_index(idx.ravel(), p.ravel())
    mixed = pd.Index([1, 2], dtype=object)
    assert_index(lazy_index(mixed, chunk).infer_objects(), mixed.infer_objects())
    dates = pd.date_range("2024-01-01", periods=4, name="d")
    where, mask = pd.DatetimeIndex(["2024-01-02", "2024-01-04"]), np.array([1, 1, 0, 1], bool)
    np.testing.assert_array_equal(
        lazy_index(dates, chunk).asof_locs(where, mask), dates.asof_locs(where, mask)
    )
