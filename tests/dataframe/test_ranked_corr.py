"""corr by ranks (spearman, kendall) and by a callable, against pandas."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from tests.dataframe.helpers import CHUNKS, lazy_copy

METHODS: list[Any] = ["spearman", "kendall", "pearson"]


def dot(x: np.ndarray, y: np.ndarray) -> float:
    return float(np.sum(x * y))


def _frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "a": [1.0, 2, 3, np.nan, 5, 2, 2, 8, np.nan, 1],
            "b": [3, 1, 2, 5, np.nan, 1, 0, 4, 4, 9],
            "i": [4, 4, 1, 2, 3, 9, 0, 7, 5, 5],
            "t": [True, False, True, True, False, True, False, False, True, True],
            "s": list("abcdefghij"),
        },
        index=pd.Index(np.arange(10) * 3, name="k"),
    )


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("method", [*METHODS, dot])
@pytest.mark.parametrize("min_periods", [1, 7])
def test_frame_corr(chunk: int | None, method: Any, min_periods: int) -> None:
    df = _frame()
    lazy: Any = lazy_copy(df, chunk)
    got = lazy.corr(method=method, min_periods=min_periods, numeric_only=True).to_pandas()
    expected = df.corr(method=method, min_periods=min_periods, numeric_only=True)
    pd.testing.assert_frame_equal(got, expected, rtol=1e-12)


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("method", [*METHODS, dot])
def test_series_corr(chunk: int | None, method: Any) -> None:
    df = _frame()
    a: Any = lazy_copy(df["a"], chunk)
    b: Any = lazy_copy(df["b"], chunk)
    for minp in (None, 6, 8):
        got = a.corr(b, method=method, min_periods=minp).to_numpy()
        np.testing.assert_allclose(got, df["a"].corr(df["b"], method=method, min_periods=minp))
    # other labels in another order: aligned as pandas aligns them
    other = df["i"].iloc[::-1].iloc[2:]
    got = a.corr(lazy_copy(other, 4), method=method).to_numpy()
    np.testing.assert_allclose(got, df["a"].corr(other, method=method))


@settings(max_examples=10, deadline=None)
@given(
    values=st.lists(
        st.tuples(
            st.one_of(st.none(), st.integers(-3, 3)), st.one_of(st.none(), st.integers(-3, 3))
        ),
        max_size=12,
    ),
    chunk=st.integers(1, 5),
    method=st.sampled_from(["spearman", "kendall"]),
)
def test_corr_any_values(values: list[tuple[Any, Any]], chunk: int, method: str) -> None:
    df = pd.DataFrame(values, columns=["x", "y"], dtype="float64")
    lazy: Any = md.DataFrame(df, chunk_size=chunk)
    pd.testing.assert_frame_equal(lazy.corr(method=method).to_pandas(), df.corr(method=method))


def test_corr_bad_input() -> None:
    df = _frame()
    lazy: Any = lazy_copy(df, 3)
    for bad in ("spearmann", 3):
        with pytest.raises(ValueError, match="method must be either"):
            lazy.corr(method=bad, numeric_only=True)
        with pytest.raises(ValueError, match="method must be either"):
            lazy["a"].corr(lazy["b"], method=bad)
    with pytest.raises(ValueError, match="s"):
        lazy.corr(method="spearman")
    with pytest.raises(TypeError, match="min_periods"):
        lazy.corr(method="kendall", min_periods=1.5, numeric_only=True)
    with pytest.raises(TypeError, match="numbers"):
        lazy["s"].corr(lazy["a"], method="spearman")
