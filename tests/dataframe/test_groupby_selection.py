"""Rows picked from groups (``nth``, ``get_group``), group numbers (``ngroup``), ``ohlc``,
and what a grouping says about itself (``groups``, ``indices``, ``ngroups``, ``dtype``,
``ndim``, ``keys``, ``pipe``), against pandas over several chunkings and flags."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from tests.dataframe.helpers import assert_same, lazy_copy

CHUNKS = [3, None]
"""Several uneven chunks; one chunk (the generated frames below try chunks of one row)."""


def _frame() -> pd.DataFrame:
    rng = np.random.default_rng(11)
    n = 12
    return pd.DataFrame(
        {
            "k": rng.choice([2.0, 1.0, np.nan, 3.0], n),
            "s": rng.choice(["p", "q"], n),
            "x": np.where(rng.random(n) > 0.7, np.nan, rng.normal(size=n).round(2)),
            "y": rng.integers(0, 9, n),
        },
        index=pd.Index(np.arange(n)[::-1] * 3, name="i"),
    )


CALLS = {
    "nth": lambda g: g.nth(1),
    "nth_list": lambda g: g.nth([0, -1]),
    "nth_slice": lambda g: g[["x", "y"]].nth(slice(0, 2)),
    "nth_series_dropna": lambda g: g["x"].nth(0, dropna="any"),
    "ngroup": lambda g: g.ngroup(),
    "ngroup_descending": lambda g: g["x"].ngroup(ascending=False),
    "ohlc": lambda g: g[["x", "y"]].ohlc(),
    "ohlc_series": lambda g: g["y"].ohlc(),
}
FLAGS = {
    "sorted": {"by": "k"},
    "unsorted": {"by": "k", "sort": False},
    "keep_missing": {"by": "k", "dropna": False},
    "as_index_false": {"by": "k", "as_index": False},
    "two_keys": {"by": ["k", "s"]},
}


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("flags", list(FLAGS))
@pytest.mark.parametrize("call", list(CALLS))
def test_grouped_pick_matches_pandas(chunk: int | None, flags: str, call: str) -> None:
    data = _frame()
    kwargs = FLAGS[flags]
    if call == "nth_series_dropna" and flags == "as_index_false":
        with pytest.raises(TypeError, match="as_index=False"):
            CALLS[call](lazy_copy(data, chunk).groupby(**kwargs))
        return
    expected = CALLS[call](data.groupby(**kwargs))
    got = CALLS[call](lazy_copy(data, chunk).groupby(**kwargs)).execute().fetch()
    assert_same(got, expected)


@pytest.mark.parametrize("chunk", [3, None])
def test_get_group_is_a_lazy_filter(chunk: int | None) -> None:
    data = _frame()
    lazy = lazy_copy(data, chunk)
    assert_same(
        lazy.groupby("k").get_group(2.0).execute().fetch(), data.groupby("k").get_group(2.0)
    )
    got = lazy.groupby(["k", "s"])["x"].get_group((1.0, "q")).execute().fetch()
    assert_same(got, data.groupby(["k", "s"])["x"].get_group((1.0, "q")))
    got = lazy.groupby("k", dropna=False)[["y"]].get_group(np.nan).execute().fetch()
    assert_same(got, data.groupby("k", dropna=False)[["y"]].get_group(np.nan))
    got = lazy["y"].groupby(level="i").get_group(6).execute().fetch()
    assert_same(got, data["y"].groupby(level="i").get_group(6))


def test_get_group_of_a_missing_key_raises_key_error() -> None:
    lazy = lazy_copy(_frame(), 3)
    missing = lazy.groupby("k").get_group(9.0)  # lazy: nothing is known yet
    with pytest.raises(KeyError, match="9.0"):
        missing.execute()
    with pytest.raises(KeyError):  # a list of keys takes a tuple, as in pandas
        lazy.groupby(["k"]).get_group(2.0)


@pytest.mark.parametrize("chunk", [3, None])
@pytest.mark.parametrize("flags", ["sorted", "unsorted", "keep_missing", "two_keys"])
def test_fetched_descriptions_match_pandas(chunk: int | None, flags: str) -> None:
    data = _frame()
    kwargs = FLAGS[flags]
    gb, lazy = data.groupby(**kwargs), lazy_copy(data, chunk).groupby(**kwargs)
    assert repr(lazy.groups) == repr(gb.groups)
    assert repr(lazy.indices) == repr(gb.indices)
    assert lazy.ngroups == gb.ngroups
    assert_same(lazy["x"].dtype, gb["x"].dtype)
    assert (lazy.ndim, lazy["x"].ndim) == (gb.ndim, gb["x"].ndim)
    assert lazy.keys == gb.keys


def test_groups_of_a_series_grouped_by_a_lazy_series() -> None:
    data = _frame()
    lazy = lazy_copy(data, 5)
    gb = data["y"].groupby(data["s"])
    lazy_gb = lazy["y"].groupby(lazy["s"])
    assert repr(lazy_gb.groups) == repr(gb.groups)
    assert lazy_gb.ngroups == gb.ngroups == 2


def test_pipe_passes_the_grouping_as_pandas_does() -> None:
    lazy = lazy_copy(_frame(), 3).groupby("k")
    assert lazy.pipe(lambda g, n: (g, n), 2) == (lazy, 2)
    assert lazy.pipe((lambda n, grouped: (grouped, n), "grouped"), 2) == (lazy, 2)
    with pytest.raises(ValueError, match="grouped is both the pipe target"):
        lazy.pipe((lambda grouped: grouped, "grouped"), grouped=1)
    got = lazy.pipe(lambda g: g.y.max() - g.y.min()).execute().fetch()
    gb = _frame().groupby("k")
    assert_same(got, gb.pipe(lambda g: g.y.max() - g.y.min()))


def test_bad_arguments_raise_as_pandas_at_the_call() -> None:
    gb = lazy_copy(_frame(), 3).groupby("k")
    with pytest.raises(TypeError, match="Invalid index"):
        gb.nth("a")
    with pytest.raises(ValueError, match="dropna"):
        gb["x"].nth(0, dropna="sometimes")
    with pytest.raises(pd.errors.DataError):
        gb[["s"]].ohlc()


@settings(max_examples=15)
@given(
    keys=st.lists(st.sampled_from([0, 1, 2, 3]), max_size=16),
    chunk=st.integers(1, 5),
    n=st.one_of(st.integers(-3, 3), st.lists(st.integers(-2, 2), min_size=1, max_size=3)),
    sort=st.booleans(),
)
def test_nth_and_ngroup_on_generated_frames(
    keys: list[int], chunk: int, n: Any, sort: bool
) -> None:
    data = pd.DataFrame({"k": keys, "v": np.arange(len(keys), dtype=np.float64)})
    data.index = data.index * 2 + 1
    lazy = md.DataFrame(data, chunk_size=chunk).groupby("k", sort=sort)
    assert_same(lazy.nth(n).execute().fetch(), data.groupby("k", sort=sort).nth(n))
    assert_same(lazy.ngroup().execute().fetch(), data.groupby("k", sort=sort).ngroup())


@pytest.mark.parametrize("chunk", [3, None])
@pytest.mark.parametrize(
    "grouping",
    [
        lambda d: d.groupby("k"),
        lambda d: d.groupby("k", sort=False, dropna=False)["x"],
        lambda d: d.groupby(["k"])[["x", "y"]],
        lambda d: d.groupby(["k", "s"]),
    ],
)
def test_iterating_and_len_of_a_grouping_fetch_pandas_groups(
    chunk: int | None, grouping: Any
) -> None:
    data = _frame()
    expected, lazy = grouping(data), grouping(lazy_copy(data, chunk))
    pairs = list(lazy)
    assert len(lazy) == len(expected) == len(pairs)
    for (key, group), (expected_key, expected_group) in zip(pairs, expected, strict=True):
        assert repr(key) == repr(expected_key)
        assert_same(group, expected_group)
    with warnings.catch_warnings():  # pandas warns of a list of one key, for both
        warnings.simplefilter("ignore", pd.errors.Pandas4Warning)
        assert repr(grouping(lazy_copy(data, chunk)).groups) == repr(expected.groups)
