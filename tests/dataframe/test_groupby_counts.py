"""Grouped ``value_counts`` against pandas: counts' order (by count, ties in order of
first appearance, then by group keys), ``normalize``, ``dropna``, ``subset``,
``as_index=False``, over several chunkings and on generated frames."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from tests.dataframe.helpers import CHUNKS, assert_same, lazy_copy


def _frame() -> pd.DataFrame:
    rng = np.random.default_rng(5)
    n = 16
    return pd.DataFrame(
        {
            "k": rng.choice([1.0, 2.0, 3.0, np.nan], n),
            "j": rng.choice(["a", "b", None], n),
            "x": rng.choice([0.5, 1.5, np.nan], n),
            "y": rng.integers(0, 3, n),
        },
        index=pd.Index(np.arange(n) + 40, name="i"),
    )


CALLS = {
    "frame": lambda g: g.value_counts(),
    "series": lambda g: g["j"].value_counts(),
    "normalize_keep_missing": lambda g: g.value_counts(normalize=True, dropna=False),
    "unsorted_counts": lambda g: g[["j", "y"]].value_counts(sort=False),
    "ascending_series": lambda g: g["x"].value_counts(ascending=True, normalize=True),
    "subset": lambda g: g.value_counts(subset=["y", "x"]),
}
FLAGS = {
    "sorted": {"by": "k"},
    "unsorted": {"by": "k", "sort": False},
    "as_index_false": {"by": "k", "as_index": False},
    "keep_missing_keys": {"by": "k", "dropna": False},
    "two_keys": {"by": ["k", "y"]},
}


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("flags", list(FLAGS))
@pytest.mark.parametrize("call", list(CALLS))
def test_value_counts_matches_pandas(chunk: int | None, flags: str, call: str) -> None:
    data = _frame()
    kwargs = FLAGS[flags]
    lazy = lazy_copy(data, chunk).groupby(**kwargs)
    if flags == "two_keys" and call == "subset":
        with pytest.raises(ValueError, match="cannot be in the groupby column keys"):
            CALLS[call](lazy)
        return
    assert_same(CALLS[call](lazy).execute().fetch(), CALLS[call](data.groupby(**kwargs)))


@pytest.mark.parametrize("chunk", [3, None])
def test_value_counts_of_a_series_grouped_and_of_a_key_column(chunk: int | None) -> None:
    data = _frame()
    lazy = lazy_copy(data, chunk)
    got = lazy["y"].groupby(lazy["j"]).value_counts().execute().fetch()
    assert_same(got, data["y"].groupby(data["j"]).value_counts())
    got = lazy.groupby("y")["y"].value_counts().execute().fetch()
    assert_same(got, data.groupby("y")["y"].value_counts())


def test_value_counts_bad_arguments() -> None:
    lazy = lazy_copy(_frame(), 3).groupby("k")
    with pytest.raises(ValueError, match="do not exist"):
        lazy.value_counts(subset=["nope"])
    with pytest.raises(ValueError, match="bins"):
        lazy["x"].value_counts(bins=0)
    with pytest.raises(TypeError):
        lazy["j"].value_counts(bins=2)  # strings cannot be cut into bins, as in pandas
    with pytest.raises(ValueError, match="names"):  # pandas' own refusal
        lazy_copy(_frame(), 3).groupby("k", as_index=False)["x"].value_counts(bins=2)


@pytest.mark.parametrize("chunk", [4, None])
def test_binned_value_counts_of_two_keys(chunk: int | None) -> None:
    data = _frame()
    lazy = (
        lazy_copy(data, chunk)
        .groupby(["y", "j"])["x"]
        .value_counts(bins=[0.0, 1.0, 2.0], dropna=False)
    )
    assert_same(
        lazy.execute().fetch(),
        data.groupby(["y", "j"])["x"].value_counts(bins=[0.0, 1.0, 2.0], dropna=False),
    )


BINNED = {
    "equal_width": {"bins": 2},
    "edges_normalized": {"bins": [0.0, 1.0, 2.0], "normalize": True},
    "ascending_unsorted": {"bins": 3, "ascending": True, "sort": False},
    "keep_missing": {"bins": 2, "dropna": False},
}


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("sort", [True, False])
@pytest.mark.parametrize("case", list(BINNED))
def test_binned_value_counts_cut_each_group_on_its_own(
    chunk: int | None, sort: bool, case: str
) -> None:
    data = _frame()
    kwargs = BINNED[case]
    lazy = lazy_copy(data, chunk).groupby("y", sort=sort)["x"].value_counts(**kwargs)
    assert_same(lazy.execute().fetch(), data.groupby("y", sort=sort)["x"].value_counts(**kwargs))


@settings(max_examples=15)
@given(
    keys=st.lists(st.sampled_from([0, 1, 2]), max_size=18),
    values=st.lists(st.sampled_from(["p", "q", "r", None]), min_size=18, max_size=18),
    chunk=st.integers(1, 6),
    sort=st.booleans(),
    normalize=st.booleans(),
)
def test_value_counts_on_generated_frames(
    keys: list[int], values: list[Any], chunk: int, sort: bool, normalize: bool
) -> None:
    data = pd.DataFrame({"k": keys, "v": values[: len(keys)]}, dtype=None)
    data["v"] = data["v"].astype(object)
    expected = data.groupby("k", sort=sort)["v"].value_counts(normalize=normalize)
    lazy = md.DataFrame(data, chunk_size=chunk).groupby("k", sort=sort)["v"]
    assert_same(lazy.value_counts(normalize=normalize).execute().fetch(), expected)
