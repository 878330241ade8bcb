"""DatetimeIndex.normalize: pandas' values and the freq it infers from the whole index."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jupyter_mars.dataframe.index.normalize import expand, runs_of
from tests.dataframe.index.helpers import CHUNKS, lazy_index

INDEXES = {
    "daily-times": pd.date_range("2024-01-30 10:00", periods=10, freq="D", name="t"),
    "hourly": pd.date_range("2024-02-28 20:00", periods=9, freq="h"),
    "two-days": pd.date_range("2024-03-01", periods=7, freq="2D"),
    "weekly": pd.date_range("2024-03-04 06:30", periods=6, freq="7D"),
    "month-starts": pd.date_range("2024-01-01 08:00", periods=8, freq="MS"),
    "business": pd.date_range("2024-01-01", periods=12, freq="B"),
    "tz-dst": pd.date_range("2024-03-08 05:00", periods=6, freq="D", tz="US/Eastern"),
    "irregular": pd.DatetimeIndex(["2024-01-01", "2024-01-02", "2024-01-04", "2024-01-05"]),
    "with-nat": pd.DatetimeIndex(["2024-01-01", "NaT", "2024-01-03", "2024-01-04"]),
    "decreasing": pd.date_range("2024-01-01", periods=6, freq="D")[::-1],
    "two": pd.date_range("2024-01-01", periods=2, freq="D"),
    "seconds": pd.date_range("2024-01-01", periods=5, freq="D", unit="s"),
}


def _check(p: pd.DatetimeIndex, chunk: int | None) -> None:
    got = lazy_index(p, chunk).normalize().to_pandas()
    expected = p.normalize()
    pd.testing.assert_index_equal(got, expected, exact=True)
    assert got.freq == expected.freq


@pytest.mark.parametrize("chunk", [*CHUNKS, 4])
@pytest.mark.parametrize("name", list(INDEXES))
def test_normalize_keeps_pandas_freq(name: str, chunk: int | None) -> None:
    _check(INDEXES[name], chunk)


@settings(max_examples=15, deadline=None)
@given(
    days=st.lists(st.integers(0, 4), min_size=0, max_size=12),
    chunk=st.integers(1, 5),
    hour=st.integers(0, 23),
)
def test_normalize_any_steps(days: list[int], chunk: int, hour: int) -> None:
    start = pd.Timestamp("2024-02-27") + pd.Timedelta(hours=hour)
    p = pd.DatetimeIndex(start + pd.to_timedelta(np.cumsum(days), unit="D"))
    _check(p, chunk)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(-5, 5), max_size=12))
def test_runs_keep_every_value(values: list[int]) -> None:
    array = np.asarray(values, dtype=np.int64)
    np.testing.assert_array_equal(expand(runs_of(array)), array)


def test_normalize_of_a_non_datetime_index_is_missing() -> None:
    with pytest.raises(AttributeError):
        _ = lazy_index(pd.Index([1, 2]), None).normalize
