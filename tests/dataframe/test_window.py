"""rolling, expanding and ewm against pandas, over chunkings smaller than the window."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pandas.errors import DataError

import jupyter_mars.dataframe as md
import jupyter_mars.dataframe.missing  # noqa: F401 - dropna, for unknown lengths
import jupyter_mars.dataframe.window  # noqa: F401 - attaches the methods
from tests.dataframe.helpers import CHUNKS, assert_all_same, lazy_copy

ROLLING = ["sum", "mean", "min", "max", "std", "var", "count", "median"]
EXPANDING = ["sum", "mean", "min", "max", "std", "var", "count"]


def _frame(n: int = 17) -> pd.DataFrame:
    rng = np.random.default_rng(7)
    f = rng.normal(100, 5, n)
    f[[1, 2, 6, 7, 8, 12]] = np.nan
    return pd.DataFrame(
        {"f": f, "i": rng.integers(-5, 5, n), "b": rng.random(n) > 0.5},
        index=pd.date_range("2024-01-01", periods=n, freq="h"),
    )


def _same(got: Any, expected: Any) -> None:
    _all_same([(got, expected)])


_all_same = functools.partial(assert_all_same, tol=1e-10)


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("window", [1, 3, 7])
@pytest.mark.parametrize("center", [False, True])
def test_rolling(chunk: int | None, window: int, center: bool) -> None:
    df = _frame()
    mdf: Any = lazy_copy(df, chunk)
    pairs = [
        (
            getattr(mdf.rolling(window, center=center), how)(),
            getattr(df.rolling(window, center=center), how)(),
        )
        for how in ROLLING
    ]
    kwargs = {"min_periods": 1, "center": center}
    pairs.append((mdf.rolling(window, **kwargs).mean(), df.rolling(window, **kwargs).mean()))
    pairs.append(
        (mdf["f"].rolling(window, **kwargs).sum(), df["f"].rolling(window, **kwargs).sum())
    )
    _all_same(pairs)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_rolling_options(chunk: int | None) -> None:
    df = _frame()
    mdf: Any = lazy_copy(df, chunk)
    _same(
        mdf.rolling(3, min_periods=1, closed="left").sum(),
        df.rolling(3, min_periods=1, closed="left").sum(),
    )
    _same(mdf.rolling(3).apply(np.ptp, raw=True), df.rolling(3).apply(np.ptp, raw=True))
    _same(
        mdf["f"].rolling(4).apply(lambda w: w.iloc[-1] - w.iloc[0]),
        df["f"].rolling(4).apply(lambda w: w.iloc[-1] - w.iloc[0]),
    )
    _same(mdf.rolling(3).std(ddof=0), df.rolling(3).std(ddof=0))
    _same(mdf.rolling(5).quantile(0.25), df.rolling(5).quantile(0.25))
    _same(mdf.rolling(0).sum(), df.rolling(0).sum())


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("min_periods", [0, 1, 3])
def test_expanding(chunk: int | None, min_periods: int) -> None:
    df = _frame()
    mdf: Any = lazy_copy(df, chunk)
    _all_same(
        [
            (getattr(mdf.expanding(min_periods), how)(), getattr(df.expanding(min_periods), how)())
            for how in EXPANDING
        ]
    )
    _same(mdf.expanding(min_periods).var(ddof=0), df.expanding(min_periods).var(ddof=0))
    _same(mdf["f"].expanding(min_periods).std(), df["f"].expanding(min_periods).std())


DECAYS: list[dict[str, Any]] = [{"com": 0.5}, {"span": 3}, {"halflife": 2.0}]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("decay", DECAYS)
@pytest.mark.parametrize("adjust", [True, False])
@pytest.mark.parametrize("ignore_na", [True, False])
def test_ewm_mean(chunk: int | None, decay: dict[str, Any], adjust: bool, ignore_na: bool) -> None:
    df = _frame()
    mdf: Any = lazy_copy(df, chunk)
    for min_periods in (0, 3):
        kwargs = dict(decay, adjust=adjust, ignore_na=ignore_na, min_periods=min_periods)
        _same(mdf.ewm(**kwargs).mean(), df.ewm(**kwargs).mean())


def test_windows_after_empty_chunks() -> None:
    df = pd.DataFrame({"k": [np.nan, np.nan, 1.0, np.nan, 2.0, np.nan, np.nan, 3.0, 4.0, np.nan]})
    lazy: Any = md.DataFrame(df, chunk_size=2).dropna()
    kept = df.dropna()
    _same(lazy.rolling(2).sum(), kept.rolling(2).sum())
    _same(
        lazy.rolling(3, center=True, min_periods=1).mean(),
        kept.rolling(3, center=True, min_periods=1).mean(),
    )
    _same(lazy.expanding().mean(), kept.expanding().mean())
    _same(lazy.ewm(com=1.5).mean(), kept.ewm(com=1.5).mean())
    _same(lazy.ewm(alpha=0.4, adjust=False).mean(), kept.ewm(alpha=0.4, adjust=False).mean())


def test_errors_at_build_time() -> None:
    df = pd.DataFrame({"s": ["a", "b"], "x": [1.0, 2.0]})
    mdf: Any = md.DataFrame(df, chunk_size=1)
    with pytest.raises(ValueError, match="window"):
        mdf.rolling(-1)
    with pytest.raises(ValueError, match="window must be an integer"):
        mdf.rolling("2s")  # a time span needs a date-like index
    with pytest.raises(DataError):
        mdf.rolling(2).sum()
    with pytest.raises(DataError):
        mdf.expanding().mean()
    with pytest.raises(DataError):
        mdf.ewm(com=1).mean()
    with pytest.raises(ValueError, match="Must pass one of"):
        mdf[["x"]].ewm()
    with pytest.raises(ValueError, match="alpha"):
        mdf[["x"]].ewm(alpha=1.5)


_values = st.lists(
    st.one_of(st.none(), st.floats(-50, 50, allow_nan=False)), min_size=0, max_size=16
)


@given(
    values=_values,
    chunk=st.integers(1, 6),
    window=st.integers(1, 6),
    center=st.booleans(),
    min_periods=st.integers(0, 3),
)
def test_rolling_property(
    values: list[float | None], chunk: int, window: int, center: bool, min_periods: int
) -> None:
    s = pd.Series(values, dtype=float)
    lazy: Any = md.Series(s, chunk_size=chunk)
    minp = min(min_periods, window)
    for how in ("sum", "mean", "max", "std"):
        got = getattr(lazy.rolling(window, min_periods=minp, center=center), how)()
        expected = getattr(s.rolling(window, min_periods=minp, center=center), how)()
        pd.testing.assert_series_equal(got.to_pandas(), expected, rtol=1e-7, atol=1e-7)


@given(
    values=_values,
    chunk=st.integers(1, 6),
    alpha=st.floats(0.05, 0.95),
    adjust=st.booleans(),
    ignore_na=st.booleans(),
)
def test_ewm_property(
    values: list[float | None], chunk: int, alpha: float, adjust: bool, ignore_na: bool
) -> None:
    s = pd.Series(values, dtype=float)
    lazy: Any = md.Series(s, chunk_size=chunk)
    kwargs = {"alpha": alpha, "adjust": adjust, "ignore_na": ignore_na}
    pd.testing.assert_series_equal(
        lazy.ewm(**kwargs).mean().to_pandas(), s.ewm(**kwargs).mean(), rtol=1e-10, atol=1e-10
    )
    pd.testing.assert_series_equal(
        lazy.expanding().var().to_pandas(), s.expanding().var(), rtol=1e-8, atol=1e-8
    )
