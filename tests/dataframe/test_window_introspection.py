"""What window objects and resamplers say about themselves (``ndim``, ``exclusions``,
``pipe``, a resampler's ``groups``, ``indices``, ``ngroups``, ``get_group``, ``keys``,
``level``), against pandas, over one-row, uneven and single chunks."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

from tests.dataframe.helpers import CHUNKS, lazy_copy


def _times() -> pd.DataFrame:
    times = pd.date_range("2024-01-01", periods=7, freq="10h").delete([3, 4])
    return pd.DataFrame({"x": np.arange(5), "y": np.linspace(0, 1, 5), "t": times})


def _same(got: Any, expected: Any) -> None:
    if isinstance(expected, pd.Series):
        pd.testing.assert_series_equal(got, expected)
    else:
        pd.testing.assert_frame_equal(got, expected)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_window_ndim_exclusions_and_pipe(chunk: int | None) -> None:
    df = _times()[["x", "y"]]
    mdf: Any = lazy_copy(df, chunk)
    for make in (
        lambda f: f.rolling(2),
        lambda f: f.expanding(),
        lambda f: f.ewm(com=1),
        lambda f: f.x.rolling(3, min_periods=1),
    ):
        lazy, eager = make(mdf), make(df)
        assert lazy.ndim == eager.ndim
        assert lazy.exclusions == eager.exclusions
        if not hasattr(eager, "pipe"):
            assert not hasattr(lazy, "pipe")
            continue
        _same(
            lazy.pipe(lambda w, k: w.mean() * k, 2).to_pandas(),
            eager.pipe(lambda w, k: w.mean() * k, 2),
        )
        _same(
            lazy.pipe((lambda k, w: w.sum() + k, "w"), 1).to_pandas(),
            eager.pipe((lambda k, w: w.sum() + k, "w"), 1),
        )


@pytest.mark.parametrize("chunk", CHUNKS)
def test_resampler_bins(chunk: int | None) -> None:
    df = _times()
    indexed = df.set_index("t")
    mdf: Any = lazy_copy(df, chunk)
    mindexed: Any = lazy_copy(indexed, chunk)
    cases = [
        (mdf.resample("D", on="t"), df.resample("D", on="t")),
        (mindexed.resample("D"), indexed.resample("D")),
        (mindexed.resample("12h")["x"], indexed.resample("12h")["x"]),
        (mindexed.y.resample("D", closed="right"), indexed.y.resample("D", closed="right")),
    ]
    for lazy, eager in cases:
        assert lazy.groups == eager.groups
        assert dict(lazy.indices) == dict(eager.indices)
        assert lazy.ngroups == eager.ngroups
        assert (lazy.ndim, lazy.exclusions, lazy.keys, lazy.level) == (
            eager.ndim,
            eager.exclusions,
            eager.keys,
            eager.level,
        )
        first = next(iter(eager.indices))
        _same(lazy.get_group(first), eager.get_group(first))
    empty = pd.Timestamp("2024-01-02 12:00")
    lazy, eager = mindexed.resample("12h"), indexed.resample("12h")
    with pytest.raises(KeyError):
        eager.get_group(empty)
    with pytest.raises(KeyError):
        lazy.get_group(empty)
    _same(lazy.pipe(lambda r: r.sum()).to_pandas(), eager.pipe(lambda r: r.sum()))


@pytest.mark.parametrize("chunk", CHUNKS)
def test_resample_on_a_column_of_a_frame_without_times_in_its_index(chunk: int | None) -> None:
    df = _times()
    mdf: Any = lazy_copy(df, chunk)
    for how in ("sum", "mean", "first", "ohlc"):
        _same(
            getattr(mdf.resample("D", on="t"), how)().to_pandas(),
            getattr(df.resample("D", on="t"), how)(),
        )
    _same(mdf.resample("D", on="t").y.max().to_pandas(), df.resample("D", on="t").y.max())


@pytest.mark.parametrize("chunk", CHUNKS)
def test_window_column_selection(chunk: int | None) -> None:
    df = _times()
    mdf: Any = lazy_copy(df, chunk)
    on = {"on": "t"}
    cases = [
        (mdf.rolling("20h", **on)["x"].sum(), df.rolling("20h", **on)["x"].sum()),
        (mdf.rolling("20h", **on).y.mean(), df.rolling("20h", **on).y.mean()),
        (mdf.rolling("20h", **on)["y"].agg("max"), df.rolling("20h", **on)["y"].agg("max")),
        (mdf.rolling("20h", **on)[["x"]].sum(), df.rolling("20h", **on)[["x"]].sum()),
        (mdf.rolling("20h", **on)[["t", "y"]].max(), df.rolling("20h", **on)[["t", "y"]].max()),
        (mdf.rolling(2, min_periods=1).y.sum(), df.rolling(2, min_periods=1).y.sum()),
        (
            mdf.rolling(2)[["x", "y"]].agg(["sum", "max"]),
            df.rolling(2)[["x", "y"]].agg(["sum", "max"]),
        ),
        (mdf.rolling(3).x.corr(mdf.y), df.rolling(3).x.corr(df.y)),
        (mdf.expanding(2).y.median(), df.expanding(2).y.median()),
        (mdf.ewm(com=1)[["x", "y"]].mean(), df.ewm(com=1)[["x", "y"]].mean()),
    ]
    for got, expected in cases:
        _same(got.to_pandas(), expected)
    for window in (mdf.rolling(2), mdf.expanding(), mdf.ewm(com=1)):
        with pytest.raises(KeyError, match="zz"):
            window["zz"]
        with pytest.raises(AttributeError, match="zz"):
            window.zz  # noqa: B018
    with pytest.raises(KeyError):
        mdf.x.rolling(2)["x"]
