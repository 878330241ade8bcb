"""sort_values, sort_index, nlargest, nsmallest and rank against pandas over chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
import jupyter_mars.dataframe.sort  # noqa: F401 - attaches the methods
from jupyter_mars.dataframe.sort._order import SortSpec
from jupyter_mars.dataframe.sort.values import part_of_rows, pick_boundaries, sample_keys
from tests.dataframe.helpers import CHUNKS, lazy_copy


def _frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "i": [3, 1, 3, 2, 1, 3, 2, 1, 2, 3, 1],
            "f": [0.5, np.nan, 2.0, -1.0, 0.5, np.nan, 7.0, 0.5, -0.0, 3.0, 2.0],
            "s": ["b", "a", None, "c", "a", "b", "c", None, "a", "b", "z"],
            "d": pd.date_range("2020-01-01", periods=11, freq="7h"),
            "b": [True, False, True, True, False, False, True, False, True, False, True],
        },
        index=[10, 4, 7, 1, 9, 0, 3, 8, 2, 6, 5],
    )


@st.composite
def frames(draw: st.DrawFn) -> pd.DataFrame:
    n = draw(st.integers(0, 14))
    ints = draw(st.lists(st.integers(-2, 2), min_size=n, max_size=n))
    floats = draw(st.lists(st.sampled_from([0.5, -1.0, 2.0, np.nan, 0.0]), min_size=n, max_size=n))
    strs = draw(st.lists(st.sampled_from(["x", "y", "zz", None]), min_size=n, max_size=n))
    return pd.DataFrame(
        {"i": pd.Series(ints, dtype="int64"), "f": pd.Series(floats, dtype="float64"), "s": strs}
    )


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize(
    ("by", "ascending", "na_position"),
    [
        ("i", True, "last"),
        ("f", False, "first"),
        ("s", True, "first"),
        ("d", False, "last"),
        (["i", "f"], [True, False], "last"),
        (["s", "i"], False, "first"),
        (["b", "s", "f"], [False, True, True], "last"),
    ],
)
def test_sort_values_frame_matches_pandas(
    chunk: int | None, by: Any, ascending: Any, na_position: str
) -> None:
    df = _frame()
    got = lazy_copy(df, chunk).sort_values(
        by, ascending=ascending, na_position=na_position, kind="stable"
    )
    expected = df.sort_values(by, ascending=ascending, na_position=na_position, kind="stable")
    pd.testing.assert_frame_equal(got.to_pandas(), expected)


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("ascending", [True, False])
@pytest.mark.parametrize("na_position", ["last", "first"])
def test_sort_values_series_and_ignore_index(
    chunk: int | None, ascending: bool, na_position: str
) -> None:
    s = _frame()["f"].rename("x")
    got = lazy_copy(s, chunk).sort_values(
        ascending=ascending, na_position=na_position, kind="mergesort", ignore_index=True
    )
    expected = s.sort_values(
        ascending=ascending, na_position=na_position, kind="mergesort", ignore_index=True
    )
    pd.testing.assert_series_equal(got.to_pandas(), expected)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_sort_values_default_kind_orders_the_values(chunk: int | None) -> None:
    df = _frame()
    got = lazy_copy(df, chunk).sort_values("i").to_pandas()
    expected = df.sort_values("i")
    pd.testing.assert_series_equal(
        got["i"].reset_index(drop=True), expected["i"].reset_index(drop=True)
    )
    pd.testing.assert_frame_equal(got.sort_index(), df.sort_index())


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("ascending", [True, False])
def test_sort_index_matches_pandas(chunk: int | None, ascending: bool) -> None:
    df = _frame()
    got = lazy_copy(df, chunk).sort_index(ascending=ascending)
    pd.testing.assert_frame_equal(got.to_pandas(), df.sort_index(ascending=ascending))
    s = df["s"]
    pd.testing.assert_series_equal(
        lazy_copy(s, chunk).sort_index(ascending=ascending).to_pandas(),
        s.sort_index(ascending=ascending),
    )


@pytest.mark.parametrize("chunk", CHUNKS)
def test_sort_index_multiindex_with_missing_labels(chunk: int | None) -> None:
    df = _frame().set_index(["s", "i"])
    for asc, na in [(True, "last"), ([False, True], "first")]:
        got = lazy_copy(df, chunk).sort_index(ascending=asc, na_position=na, kind="stable")
        pd.testing.assert_frame_equal(
            got.to_pandas(), df.sort_index(ascending=asc, na_position=na, kind="stable")
        )


def test_sort_of_a_repeated_key_is_spread_and_stable() -> None:
    rng = np.random.default_rng(1)
    df = pd.DataFrame({"k": np.r_[np.zeros(900, dtype=int), rng.integers(0, 5, 100)]})
    df["v"] = np.arange(len(df))
    got = md.DataFrame(df, chunk_size=100).sort_values("k", kind="stable")
    pd.testing.assert_frame_equal(got.to_pandas(), df.sort_values("k", kind="stable"))
    # the boundaries split the repeated key: no part takes (nearly) every row
    spec = SortSpec("columns", ("k",), (True,), "last", "stable")
    chunks = [df.iloc[i : i + 100] for i in range(0, len(df), 100)]
    samples = [sample_keys(spec, c, i, 64) for i, c in enumerate(chunks)]
    bounds = pick_boundaries(spec, len(chunks), *samples)
    sizes = np.zeros(len(chunks), dtype=int)
    for i, c in enumerate(chunks):
        sizes += np.bincount(part_of_rows(spec, c, i, bounds), minlength=len(chunks))
    assert sizes.sum() == len(df)
    assert sizes.max() <= 2 * len(df) // len(chunks)


def test_sort_values_bad_arguments_raise_at_build() -> None:
    mdf = lazy_copy(_frame(), 3)
    with pytest.raises(KeyError, match="nope"):
        mdf.sort_values("nope")
    with pytest.raises(ValueError, match="na_position"):
        mdf.sort_values("i", na_position="middle")
    with pytest.raises(ValueError, match="kind"):
        mdf.sort_values("i", kind="bogo")
    with pytest.raises(ValueError, match="ascending"):
        mdf.sort_values(["i", "f"], ascending=[True])


@given(frames(), st.sampled_from([1, 2, 3, None]), st.booleans(), st.booleans())
def test_sort_values_hypothesis(
    df: pd.DataFrame, chunk: int | None, asc: bool, first: bool
) -> None:
    na = "first" if first else "last"
    for by in (["s", "f"], ["f", "i"], "i"):
        got = lazy_copy(df, chunk).sort_values(by, ascending=asc, na_position=na, kind="stable")
        expected = df.sort_values(by, ascending=asc, na_position=na, kind="stable")
        pd.testing.assert_frame_equal(got.to_pandas(), expected)


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("keep", ["first", "last", "all"])
@pytest.mark.parametrize("how", ["nlargest", "nsmallest"])
def test_top_rows_match_pandas(chunk: int | None, keep: str, how: str) -> None:
    df = _frame()
    for n, cols in [(3, "i"), (4, ["i", "f"]), (0, "f"), (20, "f")]:
        got = getattr(lazy_copy(df, chunk), how)(n, cols, keep=keep)
        pd.testing.assert_frame_equal(got.to_pandas(), getattr(df, how)(n, cols, keep=keep))
        s = df["i"]
        got_s = getattr(lazy_copy(s, chunk), how)(n, keep=keep)
        pd.testing.assert_series_equal(got_s.to_pandas(), getattr(s, how)(n, keep=keep))


def test_top_rows_bad_arguments_raise_at_build() -> None:
    mdf = lazy_copy(_frame(), 3)
    with pytest.raises(KeyError):
        mdf.nlargest(2, "nope")
    with pytest.raises(ValueError, match="keep"):
        mdf.nlargest(2, "i", keep="middle")
    with pytest.raises(TypeError):
        mdf["s"].nlargest(2)


@given(
    frames(),
    st.sampled_from([1, 3, None]),
    st.integers(0, 5),
    st.sampled_from(["first", "last", "all"]),
)
def test_top_rows_hypothesis(df: pd.DataFrame, chunk: int | None, n: int, keep: str) -> None:
    got = lazy_copy(df, chunk).nsmallest(n, ["i", "f"], keep=keep)
    pd.testing.assert_frame_equal(got.to_pandas(), df.nsmallest(n, ["i", "f"], keep=keep))


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("method", ["average", "min", "max", "first", "dense"])
def test_rank_matches_pandas(chunk: int | None, method: str) -> None:
    df = _frame()[["i", "f", "b"]]
    for kwargs in [
        {},
        {"ascending": False, "na_option": "top"},
        {"pct": True, "na_option": "bottom"},
    ]:
        got = lazy_copy(df, chunk).rank(method=method, **kwargs)
        pd.testing.assert_frame_equal(got.to_pandas(), df.rank(method=method, **kwargs))
        got_s = lazy_copy(df["f"], chunk).rank(method=method, **kwargs)
        pd.testing.assert_series_equal(got_s.to_pandas(), df["f"].rank(method=method, **kwargs))


def test_rank_keeps_the_chunking_and_checks_arguments() -> None:
    df = _frame()
    mdf = lazy_copy(df, 3)
    ranked = mdf.rank(numeric_only=True)
    pd.testing.assert_frame_equal(
        (ranked + mdf[ranked.columns]).to_pandas(), df.rank(numeric_only=True) + df[ranked.columns]
    )
    for obj in (df, df["f"]):  # pandas' own type: its table of methods has no such key
        with pytest.raises(KeyError, match="bogus"):
            obj.rank(method="bogus")
    for lazy in (mdf, mdf["f"]):
        with pytest.raises(KeyError, match="method must be one of .*bogus"):
            lazy.rank(method="bogus")
