"""resample against pandas over several row chunkings: bins that cross chunks, empty
bins, origins, sides, calendar rules, ``on=`` and the functions that run on one chunk."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from jupyter_mars.dataframe.timeseries.sorted_bins import sorted_partial
from tests.dataframe.helpers import lazy_copy

CHUNKS = [1, 4, None]
MERGED = ["sum", "mean", "min", "max", "count", "first", "last", "ohlc", "size"]


def _frame(tz: str | None = None) -> pd.DataFrame:
    index = pd.date_range("2020-01-01 00:03", periods=40, freq="7min", tz=tz, name="at")
    n = np.arange(40)
    pdf = pd.DataFrame(
        {"a": n, "b": np.where(n % 5 == 0, np.nan, n * 1.5), "t": index.tz_localize(None)},
        index=index,
    )
    return pdf.drop(pdf.index[10:20])  # some empty bins


def _same(got: Any, expected: Any) -> None:
    if isinstance(expected, pd.DataFrame):
        pd.testing.assert_frame_equal(got.to_pandas(), expected)
    else:
        pd.testing.assert_series_equal(got.to_pandas(), expected)


@pytest.mark.parametrize("chunk", [4, None])  # one row per chunk: in the Hypothesis test
@pytest.mark.parametrize("rule", ["17min", "2D", "W-MON", "QE"])
def test_merged_functions_match_pandas(chunk: int | None, rule: str) -> None:
    pdf = _frame()[["a", "b"]]
    df = lazy_copy(pdf, chunk)
    for how in MERGED:
        _same(getattr(df.resample(rule), how)(), getattr(pdf.resample(rule), how)())
    _same(df.b.resample(rule).mean(), pdf.b.resample(rule).mean())


BIN_ARGUMENTS: list[dict[str, Any]] = [
    {"origin": "start"},
    {"origin": "end"},
    {"origin": "end_day"},
    {"origin": "epoch"},
    {"closed": "right", "label": "right"},
    {"offset": "2min"},
    {"origin": pd.Timestamp("2019-12-31 23:01", tz="Europe/Paris")},
]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("kwargs", BIN_ARGUMENTS)
def test_origins_and_sides_match_pandas(chunk: int | None, kwargs: dict[str, Any]) -> None:
    pdf = _frame("Europe/Paris")[["a", "b"]]
    df = lazy_copy(pdf, chunk)
    _same(df.resample("17min", **kwargs).sum(), pdf.resample("17min", **kwargs).sum())
    _same(df.resample("17min", **kwargs)["b"].max(), pdf.resample("17min", **kwargs)["b"].max())


@pytest.mark.parametrize("chunk", CHUNKS)
def test_on_column_and_selection_match_pandas(chunk: int | None) -> None:
    pdf = _frame()
    df = lazy_copy(pdf, chunk)
    _same(df.resample("17min", on="t").sum(), pdf.resample("17min", on="t").sum())
    _same(df.resample("17min", on="t").a.max(), pdf.resample("17min", on="t").a.max())
    _same(df.resample("h")[["a", "b"]].ohlc(), pdf.resample("h")[["a", "b"]].ohlc())


ONE_CHUNK: list[Callable[[Any], Any]] = [
    lambda r: r.median(),
    lambda r: r.std(),
    lambda r: r.agg(["sum", "max"]),
    lambda r: r.agg("mean"),
    lambda r: r.apply(lambda x: x.sum()),
    lambda r: r.asfreq(),
]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("call", ONE_CHUNK)
def test_other_functions_match_pandas(chunk: int | None, call: Callable[[Any], Any]) -> None:
    pdf = _frame()[["a", "b"]]
    _same(call(lazy_copy(pdf, chunk).resample("30min")), call(pdf.resample("30min")))


def test_bad_arguments_raise_at_the_call() -> None:
    df = md.DataFrame(_frame(), chunk_size=4)
    with pytest.raises(ValueError, match="Invalid frequency"):
        df.resample("5 bananas")
    with pytest.raises(KeyError):
        df.resample("h")["nope"]
    with pytest.raises(TypeError):
        md.DataFrame(pd.DataFrame({"x": [1]}), chunk_size=1).resample("h")


def test_resample_of_empty_frame_is_empty() -> None:
    pdf = _frame().iloc[:0][["a", "b"]]
    got = md.DataFrame(pdf, chunk_size=1).resample("h").sum().to_pandas()
    assert got.empty
    assert list(got.columns) == ["a", "b"]


@settings(max_examples=15)
@given(
    st.lists(st.integers(0, 500), min_size=1, max_size=25, unique=True),
    st.integers(1, 6),
    st.sampled_from(["7min", "1h", "45min", "D"]),
    st.sampled_from(["sum", "mean", "max", "first", "last", "count", "ohlc"]),
)
def test_any_chunking_of_unsorted_times(
    minutes: list[int], chunk: int, rule: str, how: str
) -> None:
    index = pd.Timestamp("2022-05-01 03:00") + pd.to_timedelta(minutes, unit="min")
    s = pd.Series(np.arange(len(minutes), dtype=float), index=index)
    _same(
        getattr(md.Series(s, chunk_size=chunk).resample(rule), how)(),
        getattr(s.resample(rule), how)(),
    )


AGGREGATIONS: list[Any] = [
    ["sum", "max"],
    {"a": "sum", "b": ["mean", "first"]},
    {"a": "count"},
    ["mean"],
]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("func", AGGREGATIONS)
def test_lists_and_dicts_of_functions_merge_per_bin(chunk: int | None, func: Any) -> None:
    pdf = _frame()[["a", "b"]]
    got = lazy_copy(pdf, chunk).resample("17min").agg(func)
    assert type(got.op).__name__ == "ResampleMerge"  # chunk by chunk, not on one chunk
    _same(got, pdf.resample("17min").agg(func))
    _same(
        lazy_copy(pdf.b, chunk).resample("h").agg(["min", "size"]),
        pdf.b.resample("h").agg(["min", "size"]),
    )


def _sorted_frame(tz: str | None = None) -> pd.DataFrame:
    """Sorted times, no NaN: every chunk's partials come from ``sorted_bins``."""
    index = pd.date_range("2020-01-01 00:03", periods=40, freq="7min", tz=tz, name="at")
    n = np.arange(40)
    pdf = pd.DataFrame({"a": n * 3 - 50, "b": np.sin(n) * 10}, index=index)
    return pdf.drop(pdf.index[10:20])  # some empty bins


SORTED_CASES: list[tuple[str, dict[str, Any]]] = [
    ("17min", {}),
    ("17min", {"closed": "right"}),
    ("17min", {"closed": "right", "label": "right"}),
    ("17min", {"label": "right"}),
    ("17min", {"origin": "end"}),
    ("17min", {"origin": "epoch", "offset": "2min"}),
    ("2h", {"origin": "start"}),
    ("D", {}),
]


@pytest.mark.parametrize("chunk", [1, 3, 7, None])
@pytest.mark.parametrize(("rule", "kwargs"), SORTED_CASES)
def test_sorted_times_by_numpy_match_pandas(
    chunk: int | None, rule: str, kwargs: dict[str, Any]
) -> None:
    pdf = _sorted_frame()
    df = lazy_copy(pdf, chunk)
    for how in ["sum", "mean", "count", "min", "max"]:
        _same(
            getattr(df.resample(rule, **kwargs), how)(),
            getattr(pdf.resample(rule, **kwargs), how)(),
        )
    _same(df.resample(rule, **kwargs)["b"].min(), pdf.resample(rule, **kwargs)["b"].min())
    _same(df.resample(rule, **kwargs)[["a"]].mean(), pdf.resample(rule, **kwargs)[["a"]].mean())


@pytest.mark.parametrize("chunk", [3, None])
def test_sorted_times_with_a_time_zone_match_pandas(chunk: int | None) -> None:
    pdf = _sorted_frame("Europe/Paris")
    _same(lazy_copy(pdf, chunk).resample("17min").mean(), pdf.resample("17min").mean())
    _same(lazy_copy(pdf.b, chunk).resample("h").sum(), pdf.b.resample("h").sum())


def test_sorted_partials_are_pandas_partials() -> None:
    """The NumPy partial of a chunk is pandas' resampler result on it, or None where it
    declines: NaN, NaT, unsorted times, other dtypes."""
    pdf = _sorted_frame()
    grid = pdf.resample("17min").sum().index
    step = pd.Timedelta("17min")
    chunk = pdf.iloc[3:17]
    origin = {"origin": grid[0], "offset": None}
    for how in ["sum", "count", "min", "max"]:
        part = chunk if how in ("sum", "count") else chunk[["b"]]  # int minima: pandas'
        got = sorted_partial(part, how, grid, step, "left", "left")
        pd.testing.assert_frame_equal(got, getattr(part.resample("17min", **origin), how)())
    sums, counts = sorted_partial(chunk, "mean", grid, step, "left", "left")
    pd.testing.assert_frame_equal(sums, chunk.resample("17min", **origin).sum())
    with_nan = chunk.assign(b=chunk.b.where(chunk.a > 0))
    assert sorted_partial(with_nan, "sum", grid, step, "left", "left") is None
    assert sorted_partial(chunk.iloc[::-1], "sum", grid, step, "left", "left") is None
    with_nat = chunk.set_axis(chunk.index.where(chunk.a > 0))
    assert sorted_partial(with_nat, "sum", grid, step, "left", "left") is None
    assert sorted_partial(chunk.astype("float32"), "sum", grid, step, "left", "left") is None
    assert sorted_partial(chunk.a, "min", grid, step, "left", "left") is None  # int minima
    assert sorted_partial(chunk, "first", grid, step, "left", "left") is None


@pytest.mark.parametrize("chunk", [1, 4, None])
def test_sorted_times_declined_chunks_still_match_pandas(chunk: int | None) -> None:
    pdf = _sorted_frame()
    pdf.iloc[5, 1] = np.nan  # one chunk with NaN goes to pandas, the others do not
    pdf["c"] = pdf.b.astype("float32")
    df = lazy_copy(pdf, chunk)
    for how in ["sum", "max"]:
        _same(getattr(df.resample("17min"), how)(), getattr(pdf.resample("17min"), how)())
    # (the mean of float32 is float64 here, float32 in pandas, with or without NumPy)
    _same(df[["a", "b"]].resample("17min").mean(), pdf[["a", "b"]].resample("17min").mean())
