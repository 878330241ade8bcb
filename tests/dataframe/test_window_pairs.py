"""rolling and expanding ``cov`` / ``corr`` with another Series or DataFrame, and the
pairwise tables of rolling, expanding and ewm, against pandas, over chunkings smaller
than the window, with missing values on both sides."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from tests.dataframe.helpers import CHUNKS, assert_all_same, lazy_copy


def _frame(n: int = 15) -> pd.DataFrame:
    rng = np.random.default_rng(3)
    df = pd.DataFrame({"a": rng.normal(50, 4, n), "b": rng.normal(size=n), "c": rng.random(n)})
    df.iloc[[1, 6, 7], 0] = np.nan
    df.iloc[[2, 7], 1] = np.nan
    return df


_all_same = functools.partial(assert_all_same, tol=1e-9)


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("how", ["cov", "corr"])
def test_rolling_pairs(chunk: int | None, how: str) -> None:
    df = _frame()
    mdf: Any = lazy_copy(df, chunk)
    other = df[["b", "a"]] * 2 + df[["c", "c"]].to_numpy()
    pairs = []
    for window, minp, center in [(3, None, False), (4, 2, True), (1, None, False)]:
        kwargs = {"min_periods": minp, "center": center}
        lazy, eager = mdf.rolling(window, **kwargs), df.rolling(window, **kwargs)
        lazy_a, eager_a = mdf.a.rolling(window, **kwargs), df.a.rolling(window, **kwargs)
        pairs += [
            (getattr(lazy_a, how)(mdf.b), getattr(eager_a, how)(df.b)),
            (getattr(lazy, how)(mdf.c, pairwise=False), getattr(eager, how)(df.c, pairwise=False)),
            (getattr(lazy, how)(other, pairwise=False), getattr(eager, how)(other, pairwise=False)),
            (getattr(lazy_a, how)(df.b, ddof=0), getattr(eager_a, how)(df.b, ddof=0)),
        ]
    s = mdf.a.rolling(3)
    pairs.append((getattr(s, how)(), getattr(df.a.rolling(3), how)()))
    _all_same(pairs)


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("how", ["cov", "corr"])
def test_expanding_pairs(chunk: int | None, how: str) -> None:
    df = _frame()
    mdf: Any = lazy_copy(df, chunk)
    pairs = []
    for minp in (1, 4):
        lazy, eager = mdf.expanding(minp), df.expanding(minp)
        lazy_a, eager_a = mdf.a.expanding(minp), df.a.expanding(minp)
        lazy_b, eager_b = mdf.b.expanding(minp), df.b.expanding(minp)
        pairs += [
            (getattr(lazy_a, how)(mdf.b), getattr(eager_a, how)(df.b)),
            (getattr(lazy, how)(mdf * 3 - 1, pairwise=False), getattr(eager, how)(df * 3 - 1)),
            (getattr(lazy_b, how)(ddof=0), getattr(eager_b, how)(ddof=0)),
        ]
    _all_same(pairs)


def test_pairs_of_other_rows_align_as_pandas() -> None:
    df = _frame()
    other = df.b.iloc[3:12].rename("z")
    for chunk in (2, None):
        mdf: Any = lazy_copy(df, chunk)
        _all_same(
            [
                (mdf.a.rolling(3).corr(other), df.a.rolling(3).corr(other)),
                (mdf.a.expanding().cov(lazy_copy(other, 4)), df.a.expanding().cov(other)),
            ]
        )


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("how", ["cov", "corr"])
def test_pairwise_tables(chunk: int | None, how: str) -> None:
    df = _frame().set_axis(pd.Index(np.arange(15) * 2, name="r"))
    other = pd.DataFrame({"x": np.cos(np.arange(15.0)), "a": np.arange(15.0) % 4}, index=df.index)
    mdf: Any = lazy_copy(df, chunk)
    mother: Any = lazy_copy(other, 4)
    pairs = []
    for make in (
        lambda f: f.rolling(3),
        lambda f: f.rolling(4, min_periods=2, center=True),
        lambda f: f.expanding(2),
        lambda f: f.ewm(com=1.5),
    ):
        lazy, eager = getattr(make(mdf), how), getattr(make(df), how)
        pairs += [
            (lazy(), eager()),
            (lazy(mother, pairwise=True), eager(other, pairwise=True)),
            (lazy(other, pairwise=True), eager(other, pairwise=True)),
            (lazy(pairwise=False), eager(pairwise=False)),
        ]
    mixed = df.assign(s=list("abcdefghijklmno"))
    lazy_mixed: Any = lazy_copy(mixed, chunk)
    pairs.append(
        (
            getattr(lazy_mixed.rolling(3), how)(numeric_only=True),
            getattr(mixed.rolling(3), how)(numeric_only=True),
        )
    )
    _all_same(pairs)


def test_bad_other_raises_at_the_call() -> None:
    mdf: Any = md.DataFrame(_frame(), chunk_size=4)
    for window in (mdf.rolling(3), mdf.expanding()):
        with pytest.raises(ValueError, match="other must be"):
            window.cov(5)


_values = st.lists(st.one_of(st.none(), st.floats(-20, 20, allow_nan=False)), max_size=14)


@given(
    x=_values,
    y=_values,
    chunk=st.integers(1, 5),
    window=st.integers(1, 5),
    min_periods=st.integers(0, 3),
    center=st.booleans(),
)
def test_rolling_and_expanding_corr_property(
    x: list[float | None],
    y: list[float | None],
    chunk: int,
    window: int,
    min_periods: int,
    center: bool,
) -> None:
    n = min(len(x), len(y))
    a, b = pd.Series(x[:n], dtype=float), pd.Series(y[:n], dtype=float)
    # rounded values: pandas' own sums leave rounding noise where a window is constant
    a, b = a.round(1), b.round(1)
    la: Any = md.Series(a, chunk_size=chunk)
    minp = min(min_periods, window)
    got = la.rolling(window, min_periods=minp, center=center).corr(b).to_pandas()
    expected = a.rolling(window, min_periods=minp, center=center).corr(b)
    pd.testing.assert_series_equal(got, expected, rtol=1e-6, atol=1e-6)
    for how in ("cov", "corr"):
        got = getattr(la.expanding(min_periods), how)(b).to_pandas()
        expected = getattr(a.expanding(min_periods), how)(b)
        pd.testing.assert_series_equal(got, expected, rtol=1e-6, atol=1e-6)
