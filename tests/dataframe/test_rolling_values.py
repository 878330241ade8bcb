"""rolling ``first``, ``last``, ``nunique`` and ``rank`` and ``ewm().sum()`` against
pandas, over chunkings smaller than the window, with missing values."""

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


def _frame(n: int = 14) -> pd.DataFrame:
    rng = np.random.default_rng(5)
    df = pd.DataFrame(
        {"a": rng.integers(0, 4, n).astype(float), "b": rng.normal(size=n)},
        index=pd.date_range("2024-01-01", periods=n, freq="h"),
    )
    df.iloc[[0, 4, 5, 9], 0] = np.nan
    df.iloc[[3], 1] = np.nan
    return df


_all_same = functools.partial(assert_all_same, tol=1e-10)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_rolling_values(chunk: int | None) -> None:
    df = _frame()
    mdf: Any = lazy_copy(df, chunk)
    pairs = []
    for window, minp, center in [(3, None, False), (4, 1, True), ("3h", None, False)]:
        kwargs = {"min_periods": minp, "center": center}
        lazy, eager = mdf.rolling(window, **kwargs), df.rolling(window, **kwargs)
        pairs += [(getattr(lazy, h)(), getattr(eager, h)()) for h in ("first", "last", "nunique")]
        for rank in [{}, {"method": "min", "pct": True}, {"method": "max", "ascending": False}]:
            pairs.append((lazy.rank(**rank), eager.rank(**rank)))
    _all_same(pairs)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_ewm_sum(chunk: int | None) -> None:
    df = _frame()
    mdf: Any = lazy_copy(df, chunk)
    pairs = []
    for kwargs in [{"com": 1.0}, {"alpha": 0.3, "ignore_na": True}, {"span": 3, "min_periods": 3}]:
        pairs += [
            (mdf.ewm(**kwargs).sum(), df.ewm(**kwargs).sum()),
            (mdf.b.ewm(**kwargs).sum(), df.b.ewm(**kwargs).sum()),
        ]
    _all_same(pairs)


def test_bad_arguments_raise_at_the_call() -> None:
    mdf: Any = md.DataFrame(_frame(), chunk_size=3)
    with pytest.raises(NotImplementedError, match="adjust=False"):
        mdf.ewm(com=1, adjust=False).sum()
    with pytest.raises(ValueError, match="dense"):
        mdf.rolling(3).rank(method="dense")


@given(
    values=st.lists(st.one_of(st.none(), st.integers(-3, 3)), max_size=14),
    chunk=st.integers(1, 5),
    window=st.integers(1, 5),
    min_periods=st.integers(0, 3),
    method=st.sampled_from(["average", "min", "max"]),
    ascending=st.booleans(),
    pct=st.booleans(),
)
def test_rolling_rank_property(
    values: list[int | None],
    chunk: int,
    window: int,
    min_periods: int,
    method: str,
    ascending: bool,
    pct: bool,
) -> None:
    s = pd.Series(values, dtype=float)
    lazy: Any = md.Series(s, chunk_size=chunk)
    kwargs = {"method": method, "ascending": ascending, "pct": pct}
    minp = min(min_periods, window)
    got = lazy.rolling(window, min_periods=minp).rank(**kwargs).to_pandas()
    pd.testing.assert_series_equal(got, s.rolling(window, min_periods=minp).rank(**kwargs))
