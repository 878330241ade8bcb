"""Grouped listings run on each group's rows (``nlargest``, ``nsmallest``, ``unique``,
``take``, ``corrwith``, ``is_monotonic_*``) against pandas, over several chunkings and
pandas' ``sort`` / ``as_index`` / ``group_keys`` flags."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

from tests.dataframe.helpers import assert_same, lazy_copy

CHUNKS = [3, None]
"""Several uneven chunks; one chunk."""


def _frame() -> pd.DataFrame:
    rng = np.random.default_rng(7)
    n = 14
    return pd.DataFrame(
        {
            "k": rng.integers(0, 4, n),
            "s": rng.choice(["p", "q"], n),
            "x": np.where(rng.random(n) > 0.8, np.nan, rng.normal(size=n).round(2)),
            "y": rng.integers(0, 9, n),
        },
        index=pd.Index(np.arange(n) * 5 + 3, name="i"),
    )


CALLS = {
    "nlargest": lambda g: g["y"].nlargest(2),
    "nsmallest": lambda g: g["x"].nsmallest(1),
    "unique": lambda g: g["s"].unique(),
    "take": lambda g: g.take([0, -1]),
    "take_selected": lambda g: g[["x", "y"]].take([-1]),
    "take_series": lambda g: g["y"].take([0]),
    "increasing": lambda g: g["y"].is_monotonic_increasing,
    "decreasing": lambda g: g["x"].is_monotonic_decreasing,
}
FLAGS = {
    "sorted": {},
    "unsorted": {"sort": False},
    "no_group_keys": {"group_keys": False},
    "two_keys": {"by": ["k", "s"]},
    "as_index_false": {"as_index": False},
    "as_index_false_two_keys": {"by": ["k", "s"], "as_index": False},
}


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("flags", list(FLAGS))
@pytest.mark.parametrize("call", list(CALLS))
def test_grouped_listing_matches_pandas(chunk: int | None, flags: str, call: str) -> None:
    data = _frame()
    kwargs: dict[str, Any] = {"by": "k", **FLAGS[flags]}
    expected = CALLS[call](data.groupby(**kwargs))
    got = CALLS[call](lazy_copy(data, chunk).groupby(**kwargs)).execute().fetch()
    assert_same(got, expected)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_take_with_as_index_false_and_series_grouped(chunk: int | None) -> None:
    data = _frame()
    lazy = lazy_copy(data, chunk)
    got = lazy.groupby("k", as_index=False).take([0]).execute().fetch()
    assert_same(got, data.groupby("k", as_index=False).take([0]))
    got = lazy.groupby(["s", "k"], as_index=False)[["s", "x"]].take([0]).execute().fetch()
    assert_same(got, data.groupby(["s", "k"], as_index=False)[["s", "x"]].take([0]))
    got = lazy.groupby("s", as_index=False)["s"].unique().execute().fetch()
    assert_same(got, data.groupby("s", as_index=False)["s"].unique())
    got = lazy["y"].groupby(lazy["k"]).nlargest(1).execute().fetch()
    assert_same(got, data["y"].groupby(data["k"]).nlargest(1))


@pytest.mark.parametrize("chunk", CHUNKS)
def test_corrwith_matches_pandas_and_warns_as_pandas(chunk: int | None) -> None:
    data = _frame()[["k", "x", "y"]]
    other = data[["x", "y"]] * 2 + 1
    with pytest.warns(pd.errors.Pandas4Warning, match="corrwith"):
        expected = data.groupby("k").corrwith(other)
    with pytest.warns(pd.errors.Pandas4Warning, match="corrwith"):
        lazy = lazy_copy(data, chunk).groupby("k").corrwith(other)
    assert_same(lazy.execute().fetch(), expected)


def test_bad_arguments_raise_as_pandas_at_the_call() -> None:
    lazy = lazy_copy(_frame(), 3)
    with pytest.raises(KeyError):
        lazy.groupby("k")["nope"].nlargest(1)
    with pytest.raises(TypeError):
        lazy.groupby("k")["y"].nlargest("two")
    with pytest.raises(AttributeError):
        lazy.groupby("k").nlargest  # noqa: B018 - a DataFrameGroupBy has none
    with pytest.raises(AttributeError):
        lazy.groupby("k")["x"].corrwith  # noqa: B018 - pandas' SeriesGroupBy has none
    with pytest.raises(TypeError, match="pandas DataFrame or Series as other"):
        lazy.groupby("k").corrwith(lazy[["x"]])
    with pytest.raises(IndexError, match="out-of-bounds"):  # as pandas, when it runs
        lazy.groupby("k").take([50]).execute()
