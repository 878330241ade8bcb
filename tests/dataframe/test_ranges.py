"""``md.timedelta_range``, ``period_range``, ``interval_range`` and ``bdate_range`` against
pandas, over several chunkings."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from jupyter_mars.dataframe.ranges import GeneratedIndex, period_chunk, timedelta_chunk

CHUNKS = [1, 3, None]


def _same(got: Any, expected: pd.Index) -> None:
    assert got.shape == expected.shape
    assert got.dtype == expected.dtype
    assert got.name == expected.name
    pd.testing.assert_index_equal(got.to_pandas(), expected)


TIMEDELTAS: list[dict[str, Any]] = [
    {"start": "1 day", "periods": 10},
    {"start": "1 day", "end": "2 days", "freq": "6h", "name": "t"},
    {"start": "1 day", "end": "2 days 5h", "freq": "7h"},
    {"end": "10 days", "periods": 4, "freq": "2D"},
    {"start": "0s", "periods": 7, "freq": "90s", "unit": "s"},
    {"start": "1 day", "end": "2 days", "periods": 5},
    {"start": "1 day", "end": "2 days", "freq": "6h", "closed": "left"},
    {"start": "3 days", "end": "1 day"},
]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("kwargs", TIMEDELTAS)
def test_timedelta_range(chunk: int | None, kwargs: dict[str, Any]) -> None:
    _same(md.timedelta_range(**kwargs, chunk_size=chunk), pd.timedelta_range(**kwargs))


PERIODS: list[dict[str, Any]] = [
    {"start": "2020-01", "periods": 10, "freq": "M"},
    {"start": "2020-01", "end": "2021-06", "freq": "2M", "name": "p"},
    {"start": "2020-01-01", "end": "2020-01-20", "freq": "W"},
    {"end": "2020-12", "periods": 5, "freq": "Q"},
    {"start": pd.Period("2020-01", freq="M"), "periods": 4},
    {"start": "2020", "end": "2019", "freq": "Y"},
    {"start": "2020-01-01 00:00", "periods": 30, "freq": "15min"},
]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("kwargs", PERIODS)
def test_period_range(chunk: int | None, kwargs: dict[str, Any]) -> None:
    _same(md.period_range(**kwargs, chunk_size=chunk), pd.period_range(**kwargs))


INTERVALS: list[dict[str, Any]] = [
    {"start": 0, "end": 5},
    {"start": 0.0, "end": 1.0, "periods": 4, "closed": "left", "name": "bins"},
    {"start": pd.Timestamp("2020-01-01"), "periods": 3, "freq": "MS"},
    {"end": 10, "periods": 5, "freq": 2},
]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("kwargs", INTERVALS)
def test_interval_range(chunk: int | None, kwargs: dict[str, Any]) -> None:
    _same(md.interval_range(**kwargs, chunk_size=chunk), pd.interval_range(**kwargs))


BUSINESS_DAYS: list[dict[str, Any]] = [
    {"start": "2024-01-01", "end": "2024-02-15"},
    {"start": "2024-01-05 10:00", "periods": 9, "normalize": False, "name": "b"},
    {"end": "2024-03-01", "periods": 12, "tz": "UTC"},
    {
        "start": "2024-12-20",
        "end": "2025-01-10",
        "freq": "C",
        "holidays": ["2024-12-25", "2025-01-01"],
    },
    {"start": "2024-01-01", "periods": 10, "freq": "C", "weekmask": "Mon Wed Fri"},
    {"start": "2024-01-01", "end": "2024-01-12", "inclusive": "neither"},
]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("kwargs", BUSINESS_DAYS)
def test_bdate_range(chunk: int | None, kwargs: dict[str, Any]) -> None:
    _same(md.bdate_range(**kwargs, chunk_size=chunk), pd.bdate_range(**kwargs))


def test_regular_ranges_step_from_each_chunks_start() -> None:
    deltas = md.timedelta_range("0s", periods=10_000_000, freq="s", chunk_size=1_000_000)
    periods = md.period_range("2000-01", periods=5_000, freq="M", chunk_size=1_000)
    for got, kernel in ((deltas, timedelta_chunk), (periods, period_chunk)):
        op = got.node.op
        assert isinstance(op, GeneratedIndex)
        assert op.make.func is kernel  # type: ignore[attr-defined]
    assert len(deltas.node.op.splits) == 10  # type: ignore[attr-defined]
    assert deltas.shape == (10_000_000,)
    assert periods.to_pandas()[-1] == pd.Period("2416-08", freq="M")


@given(
    periods=st.integers(0, 40),
    chunk=st.integers(1, 9),
    freq=st.sampled_from(["h", "D", "2D", "W", "ME", "QE", "YE", "15min"]),
    use_end=st.booleans(),
)
def test_period_range_hypothesis(periods: int, chunk: int, freq: str, use_end: bool) -> None:
    period_freq = {"ME": "M", "QE": "Q", "YE": "Y"}.get(freq, freq)
    kwargs: dict[str, Any] = {"start": "1999-11-27 13:00", "freq": period_freq}
    if use_end:
        kwargs["end"] = pd.Timestamp(
            "1999-11-27 13:00"
        ) + periods * pd.tseries.frequencies.to_offset(freq)
    else:
        kwargs["periods"] = periods
    expected = pd.period_range(**kwargs)
    pd.testing.assert_index_equal(md.period_range(**kwargs, chunk_size=chunk).to_pandas(), expected)


@given(
    periods=st.integers(0, 40),
    chunk=st.integers(1, 9),
    freq=st.sampled_from(["s", "7min", "h", "D", "3D"]),
    use_end=st.booleans(),
)
def test_timedelta_range_hypothesis(periods: int, chunk: int, freq: str, use_end: bool) -> None:
    kwargs: dict[str, Any] = {"start": "1 day 3h", "freq": freq}
    if use_end:
        kwargs["end"] = pd.Timedelta("1 day 3h") + pd.Timedelta(minutes=periods * 97)
    else:
        kwargs["periods"] = periods
    expected = pd.timedelta_range(**kwargs)
    got = md.timedelta_range(**kwargs, chunk_size=chunk).to_pandas()
    pd.testing.assert_index_equal(got, expected)


@pytest.mark.parametrize(
    ("func", "kwargs"),
    [
        ("timedelta_range", {"start": "1 day", "end": "2 days", "periods": 3, "freq": "h"}),
        ("timedelta_range", {"start": "1 day", "periods": 3, "freq": "ME"}),
        ("period_range", {"start": "2020-01", "periods": 3, "freq": "bogus"}),
        ("period_range", {"start": "2020-01", "end": "2020-05", "periods": 3, "freq": "M"}),
        (
            "period_range",
            {"start": pd.Period("2020-01", "M"), "end": pd.Period("2020-05-01", "D")},
        ),
        ("interval_range", {"start": 0, "end": 5, "periods": 2, "freq": 1}),
        ("bdate_range", {"start": "2024-01-01", "periods": 3, "freq": None}),
        ("bdate_range", {"start": "2024-01-01", "periods": 3, "holidays": ["2024-01-02"]}),
        ("bdate_range", {"start": "2024-01-01", "periods": 3, "freq": "Cxx"}),
    ],
)
def test_ranges_raise_pandas_errors_at_the_call(func: str, kwargs: dict[str, Any]) -> None:
    with pytest.raises(Exception) as expected:  # noqa: PT011 - the type is pandas' to say
        getattr(pd, func)(**kwargs)
    with pytest.raises(expected.type):
        getattr(md, func)(**kwargs)
