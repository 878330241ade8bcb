"""DataFrame.from_records / from_dict and date_range against pandas."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from jupyter_mars.dataframe.construct import DateRange, date_range

CHUNKS = [1, 3, None]

RANGES: list[dict[str, Any]] = [
    {"start": "2000-01-01", "periods": 10, "freq": "D"},
    {"start": "2000-01-03 05:00", "end": "2000-03-01", "freq": "W"},
    {"start": "2000-01-31", "periods": 7, "freq": "ME", "tz": "Europe/Paris", "name": "t"},
    {"end": "2001-01-01", "periods": 5, "freq": "B"},
    {"start": "2000-01-01", "end": "2000-01-02", "periods": 7},
    {"start": "2000-01-01", "end": "2000-01-05", "freq": "h", "inclusive": "left"},
    {"start": "2000-03-25", "periods": 50, "freq": "h", "tz": "Europe/Paris"},
    {"start": "2000-10-28 12:00", "periods": 5, "freq": "D", "tz": "Europe/Paris"},
    {"start": "2000-01-01 10:30", "end": "2000-01-09", "normalize": True},
    {"start": "2000-01-05", "end": "2000-01-01"},
    {"start": "2000-01-01", "periods": 0, "freq": "min"},
    {"start": "2000-01-01", "periods": 4, "freq": "-1D"},
]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("kwargs", RANGES)
def test_date_range(chunk: int | None, kwargs: dict[str, Any]) -> None:
    expected = pd.date_range(**kwargs)
    got = date_range(**kwargs, chunk_size=chunk)
    assert got.shape == expected.shape
    assert got.dtype == expected.dtype
    assert got.name == expected.name
    pd.testing.assert_index_equal(got.to_pandas(), expected)


def test_date_range_chunks_step_from_their_own_start() -> None:
    got = date_range("2000-01-01", periods=10_000_000, freq="s", chunk_size=1_000_000)
    op = got.node.op
    assert isinstance(op, DateRange)
    assert op.first is not None
    assert len(op.splits) == 10
    assert got.shape == (10_000_000,)


def test_date_range_bad_arguments() -> None:
    with pytest.raises(ValueError, match="exactly three"):
        date_range("2000-01-01", "2000-02-01", periods=3, freq="D")
    with pytest.raises(ValueError, match="Invalid frequency"):
        date_range("2000-01-01", periods=3, freq="not a freq")


@given(
    periods=st.integers(0, 40),
    chunk=st.integers(1, 9),
    freq=st.sampled_from(["h", "D", "2D", "W", "ME", "MS", "B", "15min", "QE", "YS"]),
    tz=st.sampled_from([None, "UTC", "America/New_York"]),
    use_end=st.booleans(),
)
def test_date_range_hypothesis(
    periods: int, chunk: int, freq: str, tz: str | None, use_end: bool
) -> None:
    kwargs: dict[str, Any] = {"start": "1999-11-27 13:00", "freq": freq, "tz": tz}
    if use_end:
        kwargs["end"] = pd.Timestamp("1999-11-27 13:00") + pd.Timedelta(hours=periods * 37)
    else:
        kwargs["periods"] = periods
    expected = pd.date_range(**kwargs)
    pd.testing.assert_index_equal(date_range(**kwargs, chunk_size=chunk).to_pandas(), expected)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_from_records(chunk: int | None) -> None:
    records = [(1, "a", 2.5), (2, "b", 3.5), (3, "c", np.nan), (4, None, 0.0)]
    got = md.DataFrame.from_records(records, columns=["x", "y", "z"], chunk_size=chunk)  # type: ignore[attr-defined]
    pd.testing.assert_frame_equal(
        got.to_pandas(), pd.DataFrame.from_records(records, columns=["x", "y", "z"])
    )
    dicts = [{"x": 1, "y": "a"}, {"x": 2, "z": 1.5}]
    got = md.DataFrame.from_records(dicts, index="x", chunk_size=chunk)  # type: ignore[attr-defined]
    pd.testing.assert_frame_equal(got.to_pandas(), pd.DataFrame.from_records(dicts, index="x"))
    array = np.array([(1, 2.0), (3, 4.0)], dtype=[("a", "i4"), ("b", "f8")])
    got = md.DataFrame.from_records(array, chunk_size=chunk)  # type: ignore[attr-defined]
    pd.testing.assert_frame_equal(got.to_pandas(), pd.DataFrame.from_records(array))


@pytest.mark.parametrize("chunk", CHUNKS)
def test_from_dict(chunk: int | None) -> None:
    data = {"r1": {"a": 1, "b": 2.5}, "r2": {"a": 3, "b": np.nan}, "r3": {"a": 5, "b": 1.0}}
    for orient in ("columns", "index"):
        got = md.DataFrame.from_dict(data, orient=orient, chunk_size=chunk)  # type: ignore[attr-defined]
        pd.testing.assert_frame_equal(got.to_pandas(), pd.DataFrame.from_dict(data, orient=orient))
    with pytest.raises(ValueError, match="orient"):
        md.DataFrame.from_dict(data, orient="sideways")  # type: ignore[attr-defined]
