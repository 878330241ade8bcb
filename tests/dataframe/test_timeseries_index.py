"""Time-index methods against pandas over several row chunkings, and md's scalars."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md
from tests.dataframe.helpers import CHUNKS, lazy_copy


def _frame(tz: str | None = None) -> pd.DataFrame:
    index = pd.date_range("2021-03-27 22:00", periods=12, freq="97min", tz=tz, name="when")
    return pd.DataFrame({"x": np.arange(12.0), "y": list("abcdefghijkl")}, index=index)


def _same(got: Any, expected: Any) -> None:
    assert type(got.meta) is type(expected)
    if isinstance(expected, pd.DataFrame):
        pd.testing.assert_frame_equal(got.to_pandas(), expected)
    else:
        pd.testing.assert_series_equal(got.to_pandas(), expected)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_time_zone_methods_match_pandas(chunk: int | None) -> None:
    pdf = _frame()
    df = lazy_copy(pdf, chunk)
    local = df.tz_localize("Europe/Paris", nonexistent="shift_forward")  # crosses DST
    expected = pdf.tz_localize("Europe/Paris", nonexistent="shift_forward")
    _same(local, expected)
    _same(local.tz_convert("UTC"), expected.tz_convert("UTC"))
    _same(df.x.tz_localize("UTC"), pdf.x.tz_localize("UTC"))
    assert local.node.index_key != df.node.index_key  # new labels: aligned on labels


@pytest.mark.parametrize("chunk", CHUNKS)
def test_periods_round_trip_like_pandas(chunk: int | None) -> None:
    pdf = _frame()
    df = lazy_copy(pdf, chunk)
    _same(df.to_period("h"), pdf.to_period("h"))
    _same(df.to_period("D").to_timestamp(how="end"), pdf.to_period("D").to_timestamp(how="end"))
    _same(df.x.to_period("h"), pdf.x.to_period("h"))


@pytest.mark.parametrize("chunk", CHUNKS)
def test_time_of_day_filters_match_pandas(chunk: int | None) -> None:
    pdf = _frame("UTC")
    df = lazy_copy(pdf, chunk)
    _same(df.at_time("01:13"), pdf.at_time("01:13"))
    _same(df.between_time("01:00", "06:00"), pdf.between_time("01:00", "06:00"))
    _same(
        df.x.between_time("22:00", "03:00", inclusive="left"),
        pdf.x.between_time("22:00", "03:00", inclusive="left"),
    )


@pytest.mark.parametrize("chunk", CHUNKS)
def test_asfreq_matches_pandas(chunk: int | None) -> None:
    pdf = _frame()
    df = lazy_copy(pdf, chunk)
    _same(df.asfreq("30min"), pdf.asfreq("30min"))
    _same(df.x.asfreq("2h", method="ffill"), pdf.x.asfreq("2h", method="ffill"))


def test_bad_time_arguments_raise_at_the_call() -> None:
    df = md.DataFrame(_frame(), chunk_size=4)
    with pytest.raises(TypeError, match="tz-naive"):
        df.tz_convert("UTC")
    with pytest.raises(TypeError):
        md.DataFrame(pd.DataFrame({"x": [1]}), chunk_size=1).at_time("01:00")


def test_scalars_are_pandas_own() -> None:
    assert md.Timestamp is pd.Timestamp
    assert md.Timedelta is pd.Timedelta
    assert md.DateOffset is pd.DateOffset
    assert md.offsets is pd.offsets
    assert md.NaT is pd.NaT
    assert md.NA is pd.NA
    assert md.Interval is pd.Interval
    assert md.Timestamp("2020-01-01") + md.offsets.MonthEnd() == pd.Timestamp("2020-01-31")
