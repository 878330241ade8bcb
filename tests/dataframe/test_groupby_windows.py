"""Windows over groups (``gb.rolling``, ``gb.expanding``, ``gb.ewm`` and their
aggregations) and time bins of groups (``gb.resample``) against pandas: fixed frames
over several chunkings and flags, and generated frames with Hypothesis."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from tests.dataframe.helpers import assert_same, lazy_copy


def _frame() -> pd.DataFrame:
    rng = np.random.default_rng(3)
    n = 13
    return pd.DataFrame(
        {
            "k": rng.integers(0, 3, n),
            "j": rng.choice(["a", "b"], n),
            "x": np.where(rng.random(n) > 0.8, np.nan, rng.normal(size=n)),
            "y": rng.integers(0, 9, n),
        },
        index=pd.Index(np.arange(n)[::-1] * 2, name="i"),
    )


CALLS = {
    "rolling_sum": lambda g: g[["x", "y"]].rolling(2).sum(),
    "rolling_mean": lambda g: g["x"].rolling(3, min_periods=1).mean(),
    "rolling_min": lambda g: g["y"].rolling(2).min(),
    "rolling_std": lambda g: g[["x", "y"]].rolling(3, min_periods=2).std(),
    "rolling_count": lambda g: g["x"].rolling(2).count(),
    "rolling_agg": lambda g: g[["x", "y"]].rolling(2).agg(["sum", "max"]),
    "expanding_max": lambda g: g[["x", "y"]].expanding().max(),
    "expanding_var": lambda g: g["x"].expanding(min_periods=2).var(),
    "ewm_mean": lambda g: g[["x", "y"]].ewm(com=1).mean(),
    "ewm_sum": lambda g: g["y"].ewm(alpha=0.5).sum(),
    "ewm_std": lambda g: g["x"].ewm(span=3).std(),
}
FLAGS = {
    "sorted": {"by": "k"},
    "unsorted": {"by": "k", "sort": False},
    "as_index_false": {"by": "k", "as_index": False},
    "two_keys": {"by": ["k", "j"]},
}


@pytest.mark.parametrize("chunk", [4, None])
@pytest.mark.parametrize("flags", list(FLAGS))
@pytest.mark.parametrize("call", list(CALLS))
def test_grouped_window_matches_pandas(chunk: int | None, flags: str, call: str) -> None:
    data = _frame()
    kwargs = FLAGS[flags]
    expected = CALLS[call](data.groupby(**kwargs))
    got = CALLS[call](lazy_copy(data, chunk).groupby(**kwargs)).execute().fetch()
    assert_same(got, expected)


def test_window_arguments_are_checked_at_the_call() -> None:
    gb = lazy_copy(_frame(), 4).groupby("k")
    with pytest.raises(ValueError, match="min_periods"):
        gb.rolling(2, min_periods=3)
    with pytest.raises(ValueError, match="one of comass, span, halflife, or alpha"):
        gb.ewm()
    with pytest.raises(AttributeError):
        gb.ewm(com=1).median  # noqa: B018 - pandas' grouped ewm has none
    assert "mean" in dir(gb.rolling(2))


@st.composite
def frames(draw: Any) -> pd.DataFrame:
    n = draw(st.integers(0, 20))
    keys = draw(st.lists(st.sampled_from([0, 1, 2]), min_size=n, max_size=n))
    values = draw(st.lists(st.one_of(st.floats(-9, 9), st.just(np.nan)), min_size=n, max_size=n))
    return pd.DataFrame({"k": keys, "v": pd.Series(values, dtype="float64")}, dtype=None)


@settings(max_examples=15)
@given(
    data=frames(),
    chunk=st.integers(1, 6),
    window=st.integers(1, 3),
    sort=st.booleans(),
    how=st.sampled_from(["sum", "mean", "max", "count"]),
)
def test_rolling_on_generated_frames_matches_pandas(
    data: pd.DataFrame, chunk: int, window: int, sort: bool, how: str
) -> None:
    expected = getattr(data.groupby("k", sort=sort)["v"].rolling(window, min_periods=1), how)()
    lazy = md.DataFrame(data, chunk_size=chunk).groupby("k", sort=sort)["v"]
    got = getattr(lazy.rolling(window, min_periods=1), how)().execute().fetch()
    pd.testing.assert_series_equal(got, expected, rtol=1e-9, atol=1e-9)


def _timed() -> pd.DataFrame:
    rng = np.random.default_rng(1)
    n = 20
    hours = np.sort(rng.integers(0, 240, n))
    return pd.DataFrame(
        {
            "k": rng.integers(0, 3, n),
            "t": pd.Timestamp("2024-01-01") + pd.to_timedelta(hours, unit="h"),
            "x": rng.normal(size=n),
            "y": rng.integers(0, 5, n),
        }
    )


RESAMPLES = {
    "sum_on": lambda g: g.resample("D", on="t").sum(),
    "mean_selected": lambda g: g.resample("12h", on="t")[["x", "y"]].mean(),
    "size": lambda g: g.resample("D", on="t").size(),
    "attribute_selected": lambda g: g.resample("D", on="t").x.max(),
    "agg_dict": lambda g: g.resample("D", on="t").agg({"x": "max", "y": "sum"}),
    "ohlc": lambda g: g.resample("2D", on="t")["x"].ohlc(),
}


@pytest.mark.parametrize("chunk", [3, None])
@pytest.mark.parametrize("sort", [True, False])
@pytest.mark.parametrize("call", list(RESAMPLES))
def test_grouped_resample_matches_pandas(chunk: int | None, sort: bool, call: str) -> None:
    data = _timed()
    expected = RESAMPLES[call](data.groupby("k", sort=sort))
    got = RESAMPLES[call](lazy_copy(data, chunk).groupby("k", sort=sort)).execute().fetch()
    assert_same(got, expected)


@pytest.mark.parametrize("chunk", [3, None])
def test_grouped_resample_of_a_datetime_index(chunk: int | None) -> None:
    data = _timed().set_index("t")
    got = lazy_copy(data, chunk).groupby("k")["x"].resample("D").max().execute().fetch()
    assert_same(got, data.groupby("k")["x"].resample("D").max())
    got = lazy_copy(data, chunk).groupby("k").rolling(2)[["x"]].sum().execute().fetch()
    assert_same(got, data.groupby("k").rolling(2)[["x"]].sum())
