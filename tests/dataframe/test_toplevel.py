"""pandas' top-level names on ``md``: the re-exported types, helpers and options are
pandas' own and work with lazy objects, ``md.testing`` takes lazy objects, ``md.pivot``,
and no re-export hides one of ``md``'s lazy classes."""

from __future__ import annotations

import types

import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md
from jupyter_mars.dataframe import pandas_names
from jupyter_mars.dataframe.core import DataFrame, Index, MultiIndex, Series


def test_reexports_are_pandas_own_objects() -> None:
    for name in pandas_names.__all__:
        assert getattr(md, name) is getattr(pd, name), name
        assert name in md.__all__


def test_lazy_classes_are_not_shadowed() -> None:
    assert (md.DataFrame, md.Series, md.Index, md.MultiIndex) == (
        DataFrame,
        Series,
        Index,
        MultiIndex,
    )
    assert isinstance(md.testing, types.ModuleType)
    assert md.testing is not pd.testing


def _times() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "t": pd.date_range("2024-01-01", periods=12, freq="7h"),
            "g": list("abcabcabcabc"),
            "v": np.arange(12.0),
        }
    )


@pytest.mark.parametrize("chunk", [1, 5])
def test_dtypes_cast_lazy_objects_as_pandas(chunk: int) -> None:
    frame = _times()
    lazy = md.DataFrame(frame, chunk_size=chunk)
    categories = md.CategoricalDtype(["c", "b", "a"], ordered=True)
    got = lazy.astype({"g": categories})
    assert got.dtypes["g"] == categories
    md.testing.assert_frame_equal(got, frame.astype({"g": categories}))
    for dtype in (md.Int64Dtype(), md.Float32Dtype(), md.StringDtype("python")):
        md.testing.assert_series_equal(lazy["v"].astype(dtype), frame["v"].astype(dtype))
    periods = md.Series(frame["t"], chunk_size=chunk).dt.to_period("D")
    assert periods.dtype == md.PeriodDtype("D")
    assert periods.to_pandas().iloc[0] == md.Period("2024-01-01", "D")


@pytest.mark.parametrize("chunk", [1, 5])
def test_grouper_index_slice_and_col_work_on_lazy_frames(chunk: int) -> None:
    frame = _times()
    lazy = md.DataFrame(frame, chunk_size=chunk)
    md.testing.assert_series_equal(
        lazy.groupby(md.Grouper(key="t", freq="D"))["v"].sum(),
        frame.groupby(pd.Grouper(key="t", freq="D"))["v"].sum(),
    )
    indexed = frame.set_index(["g", "t"]).sort_index()
    lazy_indexed = md.DataFrame(indexed, chunk_size=chunk)
    selection = md.IndexSlice["b", pd.Timestamp("2024-01-02") :]
    md.testing.assert_frame_equal(lazy_indexed.loc[selection, :], indexed.loc[selection, :])
    md.testing.assert_frame_equal(lazy.assign(w=md.col("v") * 2), frame.assign(w=pd.col("v") * 2))
    md.testing.assert_frame_equal(
        lazy.groupby("g").agg(total=md.NamedFunc("v", "sum")),
        frame.groupby("g").agg(total=pd.NamedFunc("v", "sum")),
    )


def test_range_index_and_flags_build_lazy_frames() -> None:
    frame = md.DataFrame({"a": [1, 2, 3]}, index=md.RangeIndex(10, 13), chunk_size=2)
    pd.testing.assert_index_equal(frame.to_pandas().index, pd.RangeIndex(10, 13))
    flags = md.Flags(pd.DataFrame(), allows_duplicate_labels=False)
    assert not flags.allows_duplicate_labels


def test_options_are_pandas_settings() -> None:
    before = md.get_option("display.max_rows")
    with md.option_context("display.max_rows", 7):
        assert pd.get_option("display.max_rows") == 7
        assert md.options.display.max_rows == 7
    md.set_option("display.max_rows", 11)
    try:
        assert pd.get_option("display.max_rows") == 11
    finally:
        md.reset_option("display.max_rows")
    assert md.get_option("display.max_rows") == before
    assert "display.max_rows" in md.describe_option("display.max_rows", _print_desc=False)
    with pytest.warns(md.errors.Pandas4Warning, match="deprecated"):  # as pandas' warns
        md.set_eng_float_format(accuracy=1)
    try:
        assert "E+03" in repr(pd.Series([1500.0]))  # engineering notation
    finally:
        md.reset_option("display.float_format")


def test_errors_are_what_lazy_calls_raise() -> None:
    left, right = pd.DataFrame({"a": [1]}), pd.DataFrame({"b": [1]})
    with pytest.raises(md.errors.MergeError):
        md.merge_ordered(md.DataFrame(left), md.DataFrame(right))
    assert md.api.types.is_integer_dtype(md.Series(left["a"]).dtype)
    assert md.tseries.frequencies.to_offset("D") == pd.offsets.Day()


def test_testing_asserts_on_lazy_objects() -> None:
    frame = _times()
    lazy = md.DataFrame(frame, chunk_size=5)
    md.testing.assert_frame_equal(lazy, frame)
    md.testing.assert_frame_equal(frame, lazy)
    md.testing.assert_series_equal(lazy["v"], frame["v"])
    md.testing.assert_index_equal(md.Index(frame["g"]), pd.Index(frame["g"]))
    with pytest.raises(AssertionError):
        md.testing.assert_frame_equal(lazy, frame.assign(v=frame["v"] + 1))
    with pytest.raises(AssertionError):
        md.testing.assert_series_equal(lazy["v"], frame["v"].rename("w"))


@pytest.mark.parametrize("chunk", [1, 4])
def test_pivot_is_the_frame_method(chunk: int) -> None:
    frame = pd.DataFrame(
        {"k": ["one", "one", "two", "two"], "c": list("abab"), "v": [1.0, 2.0, 3.0, 4.0]}
    )
    got = md.pivot(md.DataFrame(frame, chunk_size=chunk), columns="c", index="k", values="v")
    md.testing.assert_frame_equal(got, pd.pivot(frame, columns="c", index="k", values="v"))
