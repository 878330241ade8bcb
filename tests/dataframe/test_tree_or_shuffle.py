"""Mars's method='tree'|'shuffle' on drop_duplicates, duplicated and nunique, grouped
nunique included: both give pandas' result over several chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from tests.dataframe.helpers import CHUNKS, lazy_copy

METHODS = ["tree", "shuffle", "auto"]


def _frame() -> pd.DataFrame:
    return pd.DataFrame(
        {"a": [1, 2, 2, 3, 1, np.nan, np.nan, 4], "b": list("xyyzxwwq")},
        index=list("ABCDEFGH"),
    )


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("keep", ["first", "last", False])
def test_drop_duplicates_and_duplicated_by_either_method(
    chunk: int | None, method: str, keep: str | bool
) -> None:
    data = _frame()
    lazy = lazy_copy(data, chunk)
    for subset in (None, "a", ["b"]):
        got = lazy.drop_duplicates(subset, keep=keep, method=method).execute().fetch()
        pd.testing.assert_frame_equal(got, data.drop_duplicates(subset, keep=keep))
    got = lazy.drop_duplicates(keep=keep, ignore_index=True, method=method).execute().fetch()
    pd.testing.assert_frame_equal(got, data.drop_duplicates(keep=keep, ignore_index=True))
    got = lazy["a"].drop_duplicates(keep=keep, method=method).execute().fetch()
    pd.testing.assert_series_equal(got, data["a"].drop_duplicates(keep=keep))
    got = lazy.duplicated(keep=keep, method=method).execute().fetch()
    pd.testing.assert_series_equal(got, data.duplicated(keep=keep))


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dropna", [True, False])
def test_nunique_by_either_method(chunk: int | None, method: str, dropna: bool) -> None:
    data = _frame()
    lazy = lazy_copy(data, chunk)
    assert lazy["a"].nunique(dropna=dropna, method=method).execute().fetch() == data["a"].nunique(
        dropna=dropna
    )
    got = lazy.nunique(dropna=dropna, method=method).execute().fetch()
    pd.testing.assert_series_equal(got, data.nunique(dropna=dropna))
    got = lazy.groupby("b")["a"].nunique(dropna=dropna, method=method).execute().fetch()
    pd.testing.assert_series_equal(got, data.groupby("b")["a"].nunique(dropna=dropna))


def test_unknown_method_is_refused_at_the_call() -> None:
    lazy = lazy_copy(_frame(), 3)
    for call in (
        lambda: lazy.drop_duplicates(method="hash"),
        lambda: lazy.duplicated(method="hash"),
        lambda: lazy.nunique(method="hash"),
        lambda: lazy["a"].nunique(method="hash"),
        lambda: lazy.groupby("b").nunique(method="hash"),
    ):
        with pytest.raises(ValueError, match="method"):
            call()


@settings(max_examples=20, deadline=None)
@given(
    values=st.lists(st.one_of(st.none(), st.integers(0, 3)), max_size=12),
    chunk=st.integers(1, 4),
    keep=st.sampled_from(["first", "last", False]),
)
def test_tree_drop_duplicates_over_chunkings(
    values: list[int | None], chunk: int, keep: str | bool
) -> None:
    data = pd.Series([np.nan if v is None else v for v in values], dtype=np.float64)
    got = lazy_copy(data, chunk).drop_duplicates(keep=keep, method="tree").execute().fetch()
    pd.testing.assert_series_equal(got, data.drop_duplicates(keep=keep))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("how", ["size", "count", "sum", "mean", "max", "std", "median"])
def test_grouped_reductions_take_either_method(method: str, how: str) -> None:
    data = _frame()
    lazy = lazy_copy(data, 3)
    got = getattr(lazy.groupby("b"), how)(method=method).execute().fetch()
    expected = getattr(data.groupby("b"), how)()
    if isinstance(expected, pd.DataFrame):
        pd.testing.assert_frame_equal(got, expected)
    else:
        pd.testing.assert_series_equal(got, expected)


VALUE_SERIES = [
    pd.Series([3, 1, 2, 3, 4, np.nan, 3, 1], name="x"),
    pd.Series(np.random.default_rng(0).integers(0, 20, 60)),
    pd.Series(list("abcabcaad"), name="letters"),
]
COUNT_FLAGS: list[dict[str, Any]] = [
    {},
    {"normalize": True},
    {"dropna": False},
    {"ascending": True},
    {"sort": False},
]


@pytest.mark.parametrize("data", VALUE_SERIES, ids=["floats", "ints", "strings"])
@pytest.mark.parametrize("chunk_size", [2, 7, 1000])
@pytest.mark.parametrize("flags", COUNT_FLAGS, ids=repr)
def test_value_counts_by_shuffle_counts_as_pandas(
    data: pd.Series, chunk_size: int, flags: dict[str, Any]
) -> None:
    lazy = md.Series(data, chunk_size=chunk_size).value_counts(method="shuffle", **flags)
    got, expected = lazy.execute().fetch(), data.value_counts(**flags)
    # ties come in the values' order, where pandas keeps their first occurrence's
    pd.testing.assert_series_equal(got.sort_index(), expected.sort_index())
    if flags.get("sort", True):
        steps = np.diff(got.to_numpy())
        assert (steps >= 0).all() if flags.get("ascending") else (steps <= 0).all()
    tree = md.Series(data, chunk_size=chunk_size).value_counts(method="tree", **flags)
    pd.testing.assert_series_equal(tree.execute().fetch(), expected)


def test_value_counts_names_a_wrong_method() -> None:
    with pytest.raises(ValueError, match="method must be one of auto, tree, shuffle"):
        md.Series(pd.Series([1, 2])).value_counts(method="hash")
