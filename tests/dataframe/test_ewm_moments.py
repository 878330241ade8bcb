"""ewm(...).var() and .std() against pandas to 1e-9, over chunkings down to one row,
with chunks that hold no value at all."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pandas.errors import DataError

import jupyter_mars as mars
import jupyter_mars.dataframe as md
from tests.dataframe.helpers import CHUNKS, lazy_copy

DECAYS: list[dict[str, float]] = [{"com": 0.5}, {"span": 4}, {"halflife": 2.5}, {"alpha": 0.9}]
DECAYS.append({"com": 1})  # pandas 3 weighs a mean's values after a gap differently here


def _frame(n: int = 21) -> pd.DataFrame:
    rng = np.random.default_rng(5)
    x = rng.normal(5, 2, (n, 3))
    x[[1, 2, 3, 7, 8, 15, 16, 17, 18], 0] = np.nan  # chunks of 3 with no value
    x[:6, 1] = np.nan  # nothing in the first chunks
    x[10:, 2] = np.nan  # nothing after a while
    return pd.DataFrame(x, columns=["a", "b", "c"], index=pd.RangeIndex(n) * 2)


def _check(pairs: list[tuple[Any, Any]]) -> None:
    mars.execute(*(got for got, _ in pairs))
    for got, expected in pairs:
        if isinstance(expected, pd.Series):
            pd.testing.assert_series_equal(got.fetch(), expected, rtol=1e-9, atol=0)
        else:
            pd.testing.assert_frame_equal(got.fetch(), expected, rtol=1e-9, atol=0)


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("decay", DECAYS, ids=lambda d: "-".join(f"{k}{v}" for k, v in d.items()))
def test_var_and_std(chunk: int | None, decay: dict[str, float]) -> None:
    df = _frame()
    lazy: Any = lazy_copy(df, chunk)
    pairs = []
    for adjust, ignore_na, bias in itertools.product([True, False], repeat=3):
        for min_periods in (0, 3):
            kwargs = {**decay, "adjust": adjust, "ignore_na": ignore_na, "min_periods": min_periods}
            for how in ("var", "std"):
                pairs.append(
                    (
                        getattr(lazy.ewm(**kwargs), how)(bias=bias),
                        getattr(df.ewm(**kwargs), how)(bias=bias),
                    )
                )
    _check(pairs)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_constant_and_lonely_values(chunk: int | None) -> None:
    # one value then only gaps: pandas' correction is 0 or NaN by the rounding of d**k
    frame = pd.DataFrame(
        {
            "lonely": [1.0] + [np.nan] * 11,
            "constant": [3.0] * 12,
            "pair": [1.0, np.nan, np.nan, np.nan, np.nan, 2.0] + [np.nan] * 6,
        }
    )
    lazy: Any = lazy_copy(frame, chunk)
    pairs = []
    for com, adjust in itertools.product([0.5, 0.7, 2.3, 9], [True, False]):
        window, expected = lazy.ewm(com=com, adjust=adjust), frame.ewm(com=com, adjust=adjust)
        pairs += [(window.var(), expected.var()), (window.std(bias=True), expected.std(bias=True))]
    _check(pairs)


@settings(max_examples=15, deadline=None)
@given(
    values=st.lists(st.one_of(st.none(), st.floats(-20, 20, allow_nan=False)), max_size=14),
    chunk=st.integers(1, 5),
    alpha=st.floats(0.05, 1.0),
    adjust=st.booleans(),
    ignore_na=st.booleans(),
    bias=st.booleans(),
)
def test_any_values(
    values: list[float | None], chunk: int, alpha: float, adjust: bool, ignore_na: bool, bias: bool
) -> None:
    s = pd.Series(values, dtype="float64", name="v")
    kwargs = {"alpha": alpha, "adjust": adjust, "ignore_na": ignore_na}
    got = md.Series(s, chunk_size=chunk).ewm(**kwargs).var(bias=bias).to_pandas()
    pd.testing.assert_series_equal(got, s.ewm(**kwargs).var(bias=bias), rtol=1e-9, atol=1e-12)


def test_series_agg_and_numeric_only() -> None:
    df = _frame().assign(s=list("abcdefghijklmnopqrstu"))
    lazy: Any = lazy_copy(df, 4)
    _check(
        [
            (lazy["a"].ewm(span=3).std(), df["a"].ewm(span=3).std()),
            (lazy["a"].ewm(span=3).agg(["mean", "var"]), df["a"].ewm(span=3).agg(["mean", "var"])),
            (lazy.ewm(com=2).var(numeric_only=True), df.ewm(com=2).var(numeric_only=True)),
        ]
    )
    with pytest.raises(DataError):
        lazy.ewm(com=2).var()
    with pytest.raises(DataError):
        lazy["s"].ewm(com=2).std()
    with pytest.raises(ValueError, match="comass"):
        lazy.ewm(com=-2)


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("adjust", [True, False])
@pytest.mark.parametrize("ignore_na", [True, False])
def test_cov_and_corr(chunk: int | None, adjust: bool, ignore_na: bool) -> None:
    df = _frame()
    rng = np.random.default_rng(8)
    other = pd.DataFrame(rng.normal(size=(len(df), 2)), columns=["b", "z"], index=df.index)
    other.iloc[[5, 6, 12], 0] = np.nan
    lazy: Any = lazy_copy(df, chunk)
    lazy_other: Any = lazy_copy(other, chunk)
    kwargs = {"com": 1.5, "adjust": adjust, "ignore_na": ignore_na, "min_periods": 2}
    window, expected = lazy.ewm(**kwargs), df.ewm(**kwargs)
    a, pa = lazy["a"].ewm(**kwargs), df["a"].ewm(**kwargs)
    _check(
        [
            (a.cov(lazy["c"]), pa.cov(df["c"])),
            (a.cov(lazy["b"], bias=True), pa.cov(df["b"], bias=True)),
            (a.cov(), pa.cov()),
            (a.corr(lazy["c"]), pa.corr(df["c"])),
            (window.cov(lazy["c"]), expected.cov(df["c"])),
            (window.cov(lazy_other), expected.cov(other)),
            (window.corr(lazy_other), expected.corr(other)),
            (window.corr(lazy["a"]), expected.corr(df["a"])),
        ]
    )


def test_cov_on_other_rows_and_bad_input() -> None:
    df = _frame()
    shifted = df["b"].iloc[::2].set_axis(df.index[::2] + 1)  # other labels: a union
    a: Any = lazy_copy(df["a"], 4)
    _check(
        [
            (a.ewm(com=1).cov(lazy_copy(shifted, 3)), df["a"].ewm(com=1).cov(shifted)),
            (a.ewm(com=1).corr(shifted), df["a"].ewm(com=1).corr(shifted)),
        ]
    )
    lazy: Any = lazy_copy(df, 4)
    # the pairwise table (tests/dataframe/test_window_pairs.py); a Series pairs as it is
    _check(
        [
            (lazy.ewm(com=1).cov(), df.ewm(com=1).cov()),
            (lazy.ewm(com=1).corr(lazy["a"], pairwise=True), df.ewm(com=1).corr(df["a"])),
        ]
    )
    with pytest.raises(ValueError, match="other must be"):
        a.ewm(com=1).cov(3)


def test_cov_numeric_only() -> None:
    df = pd.DataFrame({"a": [1.0, 2, 3, 5, 4], "s": list("vwxyz"), "b": [2, 1, 4, 4, 0]})
    other = df.assign(a=[1.0, 0, 3, 5, 2], b=[2, 1, 4, 9, 9])
    lazy: Any = lazy_copy(df, 2)
    window, expected = lazy.ewm(com=1), df.ewm(com=1)
    _check(
        [
            (
                window.cov(lazy_copy(other, 3), numeric_only=True),
                expected.cov(other, numeric_only=True),
            ),
            (window.corr(lazy["b"], numeric_only=True), expected.corr(df["b"], numeric_only=True)),
        ]
    )
