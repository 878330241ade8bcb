"""median, quantile and describe against pandas over chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.dataframe.sort  # noqa: F401 - attaches the methods
from tests.dataframe.helpers import CHUNKS, lazy_copy


def _frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "i": [3, 1, 3, 2, 1, 3, 2, 1, 2, 3, 1],
            "f": [0.5, np.nan, 2.25, -1.0, 0.5, np.nan, 7.0, 0.5, -0.0, 3.0, 2.0],
            "s": ["b", "a", None, "c", "a", "b", "c", None, "a", "b", "z"],
        },
        index=[10, 4, 7, 1, 9, 0, 3, 8, 2, 6, 5],
    )


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("q", [0.5, 0.1, [0.0, 0.25, 0.9, 1.0]])
@pytest.mark.parametrize("interpolation", ["linear", "lower", "higher", "midpoint", "nearest"])
def test_quantile_matches_pandas(chunk: int | None, q: Any, interpolation: str) -> None:
    df = _frame()
    mdf = lazy_copy(df, chunk)
    got = mdf.quantile(q, numeric_only=True, interpolation=interpolation).to_pandas()
    expected = df.quantile(q, numeric_only=True, interpolation=interpolation)
    if isinstance(expected, pd.DataFrame):
        pd.testing.assert_frame_equal(got, expected, rtol=1e-12)
    else:
        pd.testing.assert_series_equal(got, expected, rtol=1e-12)
    s = df["f"]
    got_s = lazy_copy(s, chunk).quantile(q, interpolation=interpolation)
    expected_s = s.quantile(q, interpolation=interpolation)
    if isinstance(expected_s, pd.Series):
        pd.testing.assert_series_equal(got_s.to_pandas(), expected_s, rtol=1e-12)
    else:
        np.testing.assert_allclose(got_s.to_numpy(), expected_s, rtol=1e-12)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_median_matches_pandas(chunk: int | None) -> None:
    df = _frame()
    pd.testing.assert_series_equal(
        lazy_copy(df, chunk).median(numeric_only=True).to_pandas(), df.median(numeric_only=True)
    )
    for col in ("i", "f"):
        got = lazy_copy(df[col], chunk).median().to_numpy()
        assert got == df[col].median()


@pytest.mark.parametrize("chunk", [*CHUNKS, (3, 1)])
@pytest.mark.parametrize("skipna", [True, False])
def test_median_of_every_value(chunk: Any, skipna: bool) -> None:
    df = _frame().assign(b=[True, False] * 5 + [True])
    lazy = lazy_copy(df, chunk)
    got = lazy.median(axis=None, numeric_only=True, skipna=skipna).to_numpy()
    np.testing.assert_equal(got, df.median(axis=None, numeric_only=True, skipna=skipna))
    got = lazy[["i", "f"]].median(axis=None, skipna=skipna).to_numpy()
    np.testing.assert_equal(got, df[["i", "f"]].median(axis=None, skipna=skipna))
    with pytest.raises(TypeError):
        lazy.median(axis=None)  # text, as pandas refuses it


def test_quantile_bad_input_raises_at_build() -> None:
    mdf = lazy_copy(_frame(), 3)
    with pytest.raises(TypeError):
        mdf.median()
    with pytest.raises(ValueError, match="percentiles"):
        mdf.quantile(1.5)
    with pytest.raises(ValueError, match="interpolation"):
        mdf["f"].quantile(0.5, interpolation="cubic")


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize(
    "kwargs", [{}, {"include": "all"}, {"include": ["object", "str"]}, {"percentiles": [0.1, 0.9]}]
)
def test_describe_matches_pandas(chunk: int | None, kwargs: dict[str, Any]) -> None:
    df = _frame()
    got = lazy_copy(df, chunk).describe(**kwargs).to_pandas()
    pd.testing.assert_frame_equal(got, df.describe(**kwargs), rtol=1e-12)
    for col in ("f", "s"):
        got_s = lazy_copy(df[col], chunk).describe().to_pandas()
        pd.testing.assert_series_equal(got_s, df[col].describe(), rtol=1e-12)


@given(
    st.lists(st.sampled_from([0.5, -1.0, 2.0, np.nan, 1e9]), max_size=14),
    st.sampled_from([1, 2, 5, None]),
    st.lists(st.floats(0, 1), min_size=1, max_size=3),
)
def test_quantile_hypothesis(values: list[float], chunk: int | None, q: list[float]) -> None:
    df = pd.DataFrame({"a": pd.Series(values, dtype="float64"), "b": np.arange(len(values))})
    got = lazy_copy(df, chunk).quantile(q).to_pandas()
    pd.testing.assert_frame_equal(got, df.quantile(q), rtol=1e-12)
    got_d = lazy_copy(df, chunk).describe().to_pandas()
    pd.testing.assert_frame_equal(got_d, df.describe(), rtol=1e-12)
