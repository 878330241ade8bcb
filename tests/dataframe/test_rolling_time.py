"""rolling over a time span ("2D", "90min", a Timedelta) against pandas, over chunkings
whose chunks are much shorter than the span and ones much longer."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars as mars
import jupyter_mars.dataframe as md
from tests.dataframe.helpers import CHUNKS, lazy_copy

AGGREGATIONS = ["sum", "mean", "count", "min", "max", "std", "var", "median", "skew", "kurt"]
AGGREGATIONS += ["sem"]


def _frame(n: int = 16) -> pd.DataFrame:
    rng = np.random.default_rng(3)
    minutes = np.cumsum(rng.integers(0, 150, n))  # repeated times too
    x = rng.normal(10, 3, n)
    x[[2, 3, 9]] = np.nan
    return pd.DataFrame(
        {"x": x, "i": rng.integers(-4, 4, n)},
        index=pd.DatetimeIndex(pd.Timestamp("2024-03-01") + pd.to_timedelta(minutes, "min")),
    )


def _check(pairs: list[tuple[Any, Any]]) -> None:
    mars.execute(*(got for got, _ in pairs))
    for got, expected in pairs:
        if isinstance(expected, pd.Series):
            pd.testing.assert_series_equal(got.fetch(), expected, rtol=1e-9, atol=1e-9)
        else:
            pd.testing.assert_frame_equal(got.fetch(), expected, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize(
    ("window", "closed"),
    [("2h", None), ("90min", "left"), (pd.Timedelta("5h"), "both"), ("2h", "neither")],
)
def test_every_aggregation(chunk: int | None, window: Any, closed: str | None) -> None:
    df = _frame()
    lazy: Any = lazy_copy(df, chunk)
    pairs = [
        (
            getattr(lazy.rolling(window, closed=closed), how)(),
            getattr(df.rolling(window, closed=closed), how)(),
        )
        for how in AGGREGATIONS
    ]
    pairs.append(
        (
            lazy.rolling(window, closed=closed).quantile(0.25),
            df.rolling(window, closed=closed).quantile(0.25),
        )
    )
    _check(pairs)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_center_min_periods_apply_and_agg(chunk: int | None) -> None:
    df = _frame()
    lazy: Any = lazy_copy(df, chunk)
    s, ls = df["x"], lazy["x"]

    def spread(v: np.ndarray) -> float:
        return float(v.max() - v.min())

    _check(
        [
            (lazy.rolling("3h", center=True).mean(), df.rolling("3h", center=True).mean()),
            (
                lazy.rolling("3h", center=True, closed="both").max(),
                df.rolling("3h", center=True, closed="both").max(),
            ),
            (lazy.rolling("4h", min_periods=3).sum(), df.rolling("4h", min_periods=3).sum()),
            (ls.rolling("2h").apply(spread, raw=True), s.rolling("2h").apply(spread, raw=True)),
            (ls.rolling("2h").agg(["sum", "std"]), s.rolling("2h").agg(["sum", "std"])),
            (lazy.rolling("2h").agg(["mean", "count"]), df.rolling("2h").agg(["mean", "count"])),
        ]
    )


@pytest.mark.parametrize("chunk", CHUNKS)
def test_on_a_column_and_decreasing_times(chunk: int | None) -> None:
    df = _frame().rename_axis("t").reset_index()
    lazy: Any = lazy_copy(df, chunk)
    backwards = _frame().iloc[::-1]
    lazy_back: Any = lazy_copy(backwards, chunk)
    _check(
        [
            (lazy.rolling("2h", on="t").sum(), df.rolling("2h", on="t").sum()),
            (
                lazy.rolling("3h", on="t", closed="left").mean(),
                df.rolling("3h", on="t", closed="left").mean(),
            ),
            (lazy_back.rolling("2h").sum(), backwards.rolling("2h").sum()),
        ]
    )


@settings(max_examples=12, deadline=None)
@given(
    gaps=st.lists(st.integers(0, 5), max_size=14),
    chunk=st.integers(1, 5),
    hours=st.integers(1, 6),
    closed=st.sampled_from([None, "left", "right", "both", "neither"]),
    center=st.booleans(),
)
def test_any_spacing(gaps: list[int], chunk: int, hours: int, closed: Any, center: bool) -> None:
    index = pd.DatetimeIndex(pd.Timestamp("2024-01-01") + pd.to_timedelta(np.cumsum(gaps), "h"))
    s = pd.Series(np.arange(len(gaps), dtype=float) ** 1.5, index=index, name="v")
    lazy: Any = md.Series(s, chunk_size=chunk)
    window = lazy.rolling(f"{hours}h", closed=closed, center=center)
    expected = s.rolling(f"{hours}h", closed=closed, center=center)
    _check([(window.sum(), expected.sum()), (window.std(), expected.std())])


def _raises_like_pandas(data: Any, build: Any, chunk: int) -> None:
    with pytest.raises(ValueError, match="monotonic|NaT") as expected:
        build(data)
    with pytest.raises(ValueError, match=str(expected.value)):
        build(lazy_copy(data, chunk)).to_pandas()


@pytest.mark.parametrize("chunk", [1, 3])
def test_bad_times_raise_when_computed(chunk: int) -> None:
    s = _frame()["x"]
    turns = s.set_axis(s.index[:8].append(s.index[:8][::-1]))  # up, then down
    late = s.set_axis(s.index[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 11, 13, 14, 15]])
    missing = s.set_axis(s.index.where(np.arange(len(s)) != 5, pd.NaT))
    for data in (turns, late, missing):
        _raises_like_pandas(data, lambda d: d.rolling("2h").sum(), chunk)
    on = _frame().reset_index(names="t").iloc[[0, 1, 2, 3, 5, 4, 6, 7]]
    _raises_like_pandas(on, lambda d: d.rolling("2h", on="t").sum(), chunk)


def test_bad_arguments_raise_at_the_call() -> None:
    df = _frame()
    lazy: Any = lazy_copy(df, 3)
    plain: Any = lazy_copy(df.reset_index(drop=True), 3)
    with pytest.raises(ValueError, match="window must be an integer"):
        plain.rolling("2h")
    with pytest.raises(ValueError, match="non-fixed"):
        lazy.rolling("1ME")
    with pytest.raises(ValueError, match="window must be an integer"):
        lazy.rolling("2h", on="x")
    with pytest.raises(ValueError, match="min_periods"):
        lazy.rolling("2h", min_periods=-1)
    with pytest.raises(NotImplementedError, match="step"):
        lazy.rolling("2h", step=2)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_other_time_indexes_filters_and_on_with_rows(chunk: int | None) -> None:
    n = 15
    values = np.arange(n, dtype=float)
    periods = pd.Series(values, index=pd.period_range("2024-01-01", periods=n, freq="D"))
    spans = pd.Series(values, index=pd.timedelta_range("1h", periods=n, freq="50min"))
    df = pd.DataFrame({"x": values, "t": pd.date_range("2024-01-01", periods=n, freq="5h")})
    lazy: Any = lazy_copy(df, chunk)
    kept, none = lazy[lazy["x"] % 3 != 1], lazy[lazy["x"] > 100]  # lengths known once run
    _check(
        [
            (lazy_copy(periods, chunk).rolling("3D").sum(), periods.rolling("3D").sum()),
            (lazy_copy(spans, chunk).rolling("2h").max(), spans.rolling("2h").max()),
            (
                kept.rolling("11h", on="t").mean(),
                df[df["x"] % 3 != 1].rolling("11h", on="t").mean(),
            ),
            (none.rolling("11h", on="t").sum(), df[df["x"] > 100].rolling("11h", on="t").sum()),
            (lazy.rolling(3, on="t").sum(), df.rolling(3, on="t").sum()),
        ]
    )
