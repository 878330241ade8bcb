"""Date and time fields and methods of lazy date-like indexes, direct and through .dt."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tests.dataframe.index.helpers import CHUNKS, assert_index, ints, lazy_index


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("tz", [None, "UTC"])
def test_datetime_fields_and_methods(chunk: int | None, tz: str | None) -> None:
    p = pd.DatetimeIndex(
        ["2024-01-30 10:00", "2024-01-31", "2024-02-29 23:59", "2025-03-01"], name="d"
    ).tz_localize(tz)
    idx = lazy_index(p, chunk)
    # with a missing date pandas' fields turn float: the data agree, the meta (from a
    # sample) says int32
    gaps = p.insert(1, pd.NaT)
    pd.testing.assert_index_equal(lazy_index(gaps, chunk).year.to_pandas(), gaps.year)
    assert_index(idx.year, p.year)
    assert_index(idx.dt.month, p.month)
    assert_index(idx.day_of_week, p.day_of_week)
    assert_index(idx.strftime("%Y/%m"), p.strftime("%Y/%m"))
    assert_index(idx.normalize(), p.normalize().as_unit(p.unit))
    assert_index(idx.dt.floor("h"), p.floor("h"))
    np.testing.assert_array_equal(idx.is_month_end.to_numpy(), p.is_month_end)
    assert idx.tz == p.tz


@pytest.mark.parametrize("chunk", CHUNKS)
def test_timedelta_and_period_fields(chunk: int | None) -> None:
    td = pd.to_timedelta(["1 days 02:00:00", "3h", "10min"]).rename("t")
    assert_index(lazy_index(td, chunk).days, td.days)
    assert_index(lazy_index(td, chunk).total_seconds(), td.total_seconds())
    per = pd.period_range("2024-01", periods=4, freq="M", name="p")
    assert_index(lazy_index(per, chunk).month, per.month)
    assert_index(lazy_index(per, chunk).to_timestamp(), per.to_timestamp())


def test_non_dates_have_no_date_fields() -> None:
    idx = lazy_index(ints(), 2)
    with pytest.raises(AttributeError, match="datetimelike"):
        idx.dt  # noqa: B018
    with pytest.raises(AttributeError, match="year"):
        idx.year  # noqa: B018
    with pytest.raises(AttributeError, match="no_such_field"):
        lazy_index(pd.date_range("2024", periods=2), 1).no_such_field  # noqa: B018
