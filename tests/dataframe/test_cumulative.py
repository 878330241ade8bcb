"""cumsum / cumprod / cummax / cummin, diff, shift and pct_change against pandas."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
import jupyter_mars.dataframe.cumulative  # noqa: F401 - attaches the methods
import jupyter_mars.dataframe.missing  # noqa: F401 - dropna, for unknown lengths
from tests.dataframe.helpers import CHUNKS, lazy_copy

CUMULATIVE = ["cumsum", "cumprod", "cummax", "cummin"]


def _frame() -> pd.DataFrame:
    nan = np.nan
    return pd.DataFrame(
        {
            "f": [nan, 1.5, -2.0, nan, nan, 3.0, 0.5, nan, 4.0, -1.0],
            "i": [3, -1, 4, 1, -5, 9, 2, -6, 5, 3],
            "b": [True, False, True, True, False, True, False, False, True, True],
            "n": [nan] * 10,
        },
        index=list(range(20, 0, -2)),
    )


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("how", CUMULATIVE)
@pytest.mark.parametrize("skipna", [True, False])
def test_cumulative_frame(chunk: int | None, how: str, skipna: bool) -> None:
    df = _frame()
    result = getattr(lazy_copy(df, chunk), how)(skipna=skipna)
    expected = getattr(df, how)(skipna=skipna)
    assert result.dtypes.equals(expected.dtypes)
    pd.testing.assert_frame_equal(result.to_pandas(), expected, rtol=1e-12)


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("how", CUMULATIVE)
@pytest.mark.parametrize("col", ["f", "i", "b"])
def test_cumulative_series(chunk: int | None, how: str, col: str) -> None:
    s = _frame()[col]
    for skipna in (True, False):
        got = getattr(lazy_copy(s, chunk), how)(skipna=skipna).to_pandas()
        pd.testing.assert_series_equal(got, getattr(s, how)(skipna=skipna), rtol=1e-12)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_cumulative_other_dtypes(chunk: int | None) -> None:
    df = _frame()
    df["s"] = list("abcdefghij")
    mdf: Any = lazy_copy(df, chunk)
    pd.testing.assert_frame_equal(
        mdf.cumsum(numeric_only=True).to_pandas(), df.cumsum(numeric_only=True)
    )
    pd.testing.assert_series_equal(mdf["s"].cumsum().to_pandas(), df["s"].cumsum())
    pd.testing.assert_series_equal(mdf["s"].cummax().to_pandas(), df["s"].cummax())
    pd.testing.assert_frame_equal(
        mdf[["f", "i"]].cumsum(axis=1).to_pandas(), df[["f", "i"]].cumsum(axis=1)
    )


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("periods", [1, 2, 4, 11, -1, -3, -11, 0])
def test_shift_diff_pct_change(chunk: int | None, periods: int) -> None:
    df = _frame()
    mdf: Any = lazy_copy(df, chunk)
    pd.testing.assert_frame_equal(mdf.shift(periods).to_pandas(), df.shift(periods))
    numbers = df[["f", "i"]]
    lazy_numbers: Any = lazy_copy(numbers, chunk)
    pd.testing.assert_frame_equal(
        lazy_numbers.shift(periods, fill_value=0).to_pandas(), numbers.shift(periods, fill_value=0)
    )
    pd.testing.assert_frame_equal(mdf.diff(periods).to_pandas(), df.diff(periods))
    pd.testing.assert_frame_equal(
        lazy_numbers.pct_change(periods).to_pandas(), numbers.pct_change(periods)
    )
    s = df["f"]
    pd.testing.assert_series_equal(lazy_copy(s, chunk).diff(periods).to_pandas(), s.diff(periods))
    pd.testing.assert_series_equal(lazy_copy(s, chunk).shift(periods).to_pandas(), s.shift(periods))


@pytest.mark.parametrize("chunk", CHUNKS)
def test_shift_across_columns_and_freq(chunk: int | None) -> None:
    df = pd.DataFrame(
        {"a": np.arange(6.0), "b": np.arange(6.0) ** 2},
        index=pd.date_range("2024-01-01", periods=6, freq="D"),
    )
    mdf: Any = lazy_copy(df, chunk)
    pd.testing.assert_frame_equal(mdf.shift(1, axis=1).to_pandas(), df.shift(1, axis=1))
    pd.testing.assert_frame_equal(mdf.diff(axis=1).to_pandas(), df.diff(axis=1))
    pd.testing.assert_frame_equal(mdf.shift(2, freq="D").to_pandas(), df.shift(2, freq="D"))


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize(
    "kwargs",
    [
        {"periods": [0, 1]},
        {"periods": [1, -2], "suffix": "_s"},
        {"periods": [3], "fill_value": 0},
        {"periods": True},
        {"periods": np.int64(2)},
    ],
)
def test_shift_by_several_periods(chunk: int | None, kwargs: dict[str, Any]) -> None:
    df = pd.DataFrame({"a": [1, 2, 3, 4, 5], "b": [4.0, 5, 6, 7, 8]}, index=list("vwxyz"))
    mdf: Any = lazy_copy(df, chunk)
    pd.testing.assert_frame_equal(mdf.shift(**kwargs).to_pandas(), df.shift(**kwargs))
    got, expected = mdf["a"].shift(**kwargs).to_pandas(), df["a"].shift(**kwargs)
    if isinstance(expected, pd.DataFrame):  # several periods: a column each
        pd.testing.assert_frame_equal(got, expected)
    else:
        pd.testing.assert_series_equal(got, expected)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"periods": "x"}, ValueError),
        ({"periods": 1.5}, TypeError),
        ({"periods": []}, ValueError),
        ({"periods": [1.5]}, TypeError),
        ({"periods": [1, 2], "axis": 1}, ValueError),
    ],
)
def test_shift_refuses_bad_periods_as_pandas(kwargs: dict[str, Any], error: type) -> None:
    df = pd.DataFrame({"a": [1, 2, 3], "b": [4.0, 5, 6]})
    with pytest.raises(error):
        df.shift(**kwargs)
    with pytest.raises(error):
        md.DataFrame(df, chunk_size=2).shift(**kwargs)
    if "axis" not in kwargs:
        with pytest.raises(error):
            md.Series(df["a"], chunk_size=2).shift(**kwargs)
    with pytest.raises(ValueError, match="suffix"):
        md.Series(df["a"], chunk_size=2).shift(1, suffix="_s")


def test_unknown_lengths_and_empty_chunks() -> None:
    df = pd.DataFrame({"k": [np.nan, np.nan, 1.0, np.nan, 2.0, np.nan, np.nan, 3.0], "v": range(8)})
    mdf: Any = md.DataFrame(df, chunk_size=2)
    lazy = mdf.dropna()
    kept = df.dropna()
    pd.testing.assert_frame_equal(lazy.cumsum().to_pandas(), kept.cumsum())
    pd.testing.assert_frame_equal(lazy.shift(2).to_pandas(), kept.shift(2))
    pd.testing.assert_frame_equal(lazy.diff(-2).to_pandas(), kept.diff(-2))


def test_errors_at_build_time() -> None:
    df = pd.DataFrame({"t": pd.to_datetime(["2020", "2021"]), "x": [1, 2]})
    mdf: Any = md.DataFrame(df, chunk_size=1)
    with pytest.raises(TypeError, match="cumsum"):
        mdf.cumsum()
    with pytest.raises(ValueError, match="periods must be an integer"):
        mdf.diff(1.5)
    with pytest.raises(ValueError, match="No axis named 2"):
        mdf.cummax(axis=2)


_values = st.lists(
    st.one_of(st.none(), st.floats(-10, 10, allow_nan=False)), min_size=0, max_size=14
)


@given(
    values=_values,
    chunk=st.integers(1, 5),
    how=st.sampled_from(CUMULATIVE),
    skipna=st.booleans(),
    periods=st.integers(-6, 6),
)
def test_property(
    values: list[float | None], chunk: int, how: str, skipna: bool, periods: int
) -> None:
    s = pd.Series(values, dtype=float)
    lazy: Any = md.Series(s, chunk_size=chunk)
    got = getattr(lazy, how)(skipna=skipna).to_pandas()
    pd.testing.assert_series_equal(got, getattr(s, how)(skipna=skipna), rtol=1e-9, atol=1e-9)
    pd.testing.assert_series_equal(lazy.shift(periods).to_pandas(), s.shift(periods))
    pd.testing.assert_series_equal(lazy.diff(periods).to_pandas(), s.diff(periods))
