"""Grouped aggregations on generated frames against pandas: int, float, str and bool
keys, NaN in keys and values, duplicate keys, small chunks (empty ones after a filter)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars as mars
import jupyter_mars.dataframe as md
import jupyter_mars.dataframe.groupby  # noqa: F401 - attaches groupby

KEYS = {
    "int": st.integers(-2, 3),
    "float": st.sampled_from([0.5, -1.0, 2.0, np.nan, 0.0]),
    "str": st.sampled_from(["a", "b", "c", None]),
    "bool": st.booleans(),
}
VALUE = st.one_of(st.floats(-100, 100, allow_nan=False), st.just(np.nan))
AGGS = ["sum", "mean", "count", "min", "max", "var", "first", "last", "size"]


@st.composite
def frames(draw: Any) -> tuple[pd.DataFrame, str]:
    kind = draw(st.sampled_from(sorted(KEYS)))
    n = draw(st.integers(0, 25))
    keys = draw(st.lists(KEYS[kind], min_size=n, max_size=n))
    other = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    values = draw(st.lists(VALUE, min_size=n, max_size=n))
    ints = draw(st.lists(st.integers(-5, 5), min_size=n, max_size=n))
    key = pd.Series(keys, dtype="float64" if kind == "float" else None)
    df = pd.DataFrame({"k": key, "o": other, "v": pd.Series(values, dtype="float64"), "i": ints})
    return df, kind


def _same(got: Any, expected: Any) -> None:
    if isinstance(expected, pd.Series):
        pd.testing.assert_series_equal(got, expected, rtol=1e-7, atol=1e-9)
    else:
        pd.testing.assert_frame_equal(got, expected, rtol=1e-7, atol=1e-9)


@given(
    data=frames(),
    chunk=st.integers(1, 7),
    dropna=st.booleans(),
    sort=st.booleans(),
    how=st.lists(st.sampled_from(AGGS), min_size=1, max_size=3, unique=True),
    method=st.sampled_from(["auto", "tree", "shuffle"]),
    two_keys=st.booleans(),
    filtered=st.booleans(),
)
def test_aggregations_match_pandas(
    data: tuple[pd.DataFrame, str],
    chunk: int,
    dropna: bool,
    sort: bool,
    how: list[str],
    method: str,
    two_keys: bool,
    filtered: bool,
) -> None:
    df, _ = data
    mdf = md.DataFrame(df, chunk_size=chunk)
    if filtered:  # some chunks become empty
        df, mdf = df[df["i"] > 0], mdf[mdf["i"] > 0]
    by: Any = ["k", "o"] if two_keys else "k"
    gb = df.groupby(by, dropna=dropna, sort=sort)
    mgb = mdf.groupby(by, dropna=dropna, sort=sort)
    pairs = [
        (mgb[["v", "i"]].agg(how, method=method), gb[["v", "i"]].agg(how)),
        (mgb.v.median(), gb.v.median()),
    ]
    mars.execute(*(r for r, _ in pairs))
    for lazy_result, expected in pairs:
        got = lazy_result.to_pandas()
        if not sort:  # a shuffle gives groups in hash-partition order
            got, expected = got.sort_index(), expected.sort_index()
        _same(got, expected)


@given(data=frames(), chunk=st.integers(1, 7), dropna=st.booleans())
def test_cumcount_and_transform_match_pandas(
    data: tuple[pd.DataFrame, str], chunk: int, dropna: bool
) -> None:
    df, _ = data
    mdf = md.DataFrame(df, chunk_size=chunk)
    pairs = [
        (mdf.groupby("k", dropna=dropna).cumcount(), df.groupby("k", dropna=dropna).cumcount()),
        (
            mdf.groupby(["k", "o"], dropna=dropna).v.transform("mean"),
            df.groupby(["k", "o"], dropna=dropna).v.transform("mean"),
        ),
    ]
    mars.execute(*(p for p, _ in pairs))
    for lazy_result, expected in pairs:
        _same(lazy_result.to_pandas(), expected)
