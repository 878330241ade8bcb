"""duplicated, drop_duplicates, unique, nunique and value_counts against pandas."""

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
            "f": [0.5, np.nan, 0.5, -0.0, 0.0, np.nan, 7.0, 0.5, 0.0, 3.0, 2.0],
            "s": ["b", "a", "b", "c", "a", "b", None, None, "a", "b", "z"],
        },
        index=[10, 4, 7, 1, 9, 0, 3, 8, 2, 6, 5],
    )


@st.composite
def frames(draw: st.DrawFn) -> pd.DataFrame:
    n = draw(st.integers(0, 14))
    ints = draw(st.lists(st.integers(-1, 1), min_size=n, max_size=n))
    floats = draw(st.lists(st.sampled_from([0.5, np.nan, 0.0, -0.0]), min_size=n, max_size=n))
    strs = draw(st.lists(st.sampled_from(["x", "y", None]), min_size=n, max_size=n))
    return pd.DataFrame(
        {"i": pd.Series(ints, dtype="int64"), "f": pd.Series(floats, dtype="float64"), "s": strs}
    )


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("keep", ["first", "last", False])
@pytest.mark.parametrize("subset", [None, "i", ["f", "s"]])
def test_duplicated_and_drop_duplicates(chunk: int | None, keep: Any, subset: Any) -> None:
    df = _frame()
    mdf = lazy_copy(df, chunk)
    pd.testing.assert_series_equal(
        mdf.duplicated(subset, keep=keep).to_pandas(), df.duplicated(subset, keep=keep)
    )
    pd.testing.assert_frame_equal(
        mdf.drop_duplicates(subset, keep=keep).to_pandas(), df.drop_duplicates(subset, keep=keep)
    )
    pd.testing.assert_frame_equal(
        mdf.drop_duplicates(subset, keep=keep, ignore_index=True).to_pandas(),
        df.drop_duplicates(subset, keep=keep, ignore_index=True),
    )


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("keep", ["first", "last", False])
def test_series_duplicates(chunk: int | None, keep: Any) -> None:
    s = _frame()["f"].rename("x")
    ms = lazy_copy(s, chunk)
    pd.testing.assert_series_equal(ms.duplicated(keep=keep).to_pandas(), s.duplicated(keep=keep))
    pd.testing.assert_series_equal(
        ms.drop_duplicates(keep=keep).to_pandas(), s.drop_duplicates(keep=keep)
    )


def test_duplicates_bad_arguments_raise_at_build() -> None:
    mdf = lazy_copy(_frame(), 3)
    with pytest.raises(KeyError):
        mdf.duplicated(["nope"])
    with pytest.raises(ValueError, match="keep"):
        mdf.drop_duplicates(keep="middle")


@given(frames(), st.sampled_from([1, 2, 5, None]), st.sampled_from(["first", "last", False]))
def test_duplicates_hypothesis(df: pd.DataFrame, chunk: int | None, keep: Any) -> None:
    mdf = lazy_copy(df, chunk)
    for subset in (None, ["f"], ["s", "i"]):
        pd.testing.assert_frame_equal(
            mdf.drop_duplicates(subset, keep=keep).to_pandas(),
            df.drop_duplicates(subset, keep=keep),
        )


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("col", ["i", "f", "s"])
def test_unique_and_nunique(chunk: int | None, col: str) -> None:
    df = _frame()
    s = df[col]
    ms = lazy_copy(s, chunk)
    got = ms.unique().to_numpy()
    expected = np.asarray(s.unique(), dtype=s.dtype if isinstance(s.dtype, np.dtype) else object)
    assert got.dtype == expected.dtype
    assert pd.isna(got).tolist() == pd.isna(expected).tolist()
    assert got[~pd.isna(got)].tolist() == expected[~pd.isna(expected)].tolist()
    for dropna in (True, False):
        assert ms.nunique(dropna=dropna).to_numpy() == s.nunique(dropna=dropna)
        pd.testing.assert_series_equal(
            lazy_copy(df, chunk).nunique(dropna=dropna).to_pandas(), df.nunique(dropna=dropna)
        )


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("col", ["i", "f", "s"])
@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"dropna": False},
        {"normalize": True, "ascending": True, "dropna": False},
        {"sort": False, "dropna": False},
    ],
)
def test_value_counts(chunk: int | None, col: str, kwargs: dict[str, Any]) -> None:
    s = _frame()[col]
    got = lazy_copy(s, chunk).value_counts(**kwargs).to_pandas()
    pd.testing.assert_series_equal(got, s.value_counts(**kwargs))


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("kwargs", [{}, {"subset": ["i", "s"], "dropna": False}, {"sort": False}])
def test_frame_value_counts(chunk: int | None, kwargs: dict[str, Any]) -> None:
    df = _frame()
    got = lazy_copy(df, chunk).value_counts(**kwargs).to_pandas()
    pd.testing.assert_series_equal(got, df.value_counts(**kwargs))


@given(frames(), st.sampled_from([1, 3, None]), st.booleans(), st.booleans(), st.booleans())
def test_value_counts_hypothesis(
    df: pd.DataFrame, chunk: int | None, sort: bool, ascending: bool, dropna: bool
) -> None:
    for col in ("i", "f", "s"):
        s = df[col]
        kwargs = {"sort": sort, "ascending": ascending, "dropna": dropna}
        got = lazy_copy(s, chunk).value_counts(**kwargs).to_pandas()
        pd.testing.assert_series_equal(got, s.value_counts(**kwargs))
