"""fillna, ffill, bfill and dropna against pandas over several row chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
import jupyter_mars.dataframe.missing  # noqa: F401 - attaches the methods
from tests.dataframe.helpers import CHUNKS, lazy_copy


def _frame() -> pd.DataFrame:
    nan = np.nan
    return pd.DataFrame(
        {
            "f": [nan, 1.5, nan, nan, nan, 2.0, nan, nan, 4.0, nan],
            "g": [1.0, nan, nan, 3.0, nan, nan, nan, nan, nan, nan],
            "i": list(range(10)),
            "s": ["a", None, "c", None, None, "f", "g", None, "i", "j"],
        },
        index=[f"r{i}" for i in range(10)],
    )


FILLS: list[dict[str, Any]] = [
    {},
    {"limit": 1},
    {"limit": 2},
    {"limit": 4},
    {"limit_area": "inside"},
    {"limit_area": "outside"},
    {"limit_area": "inside", "limit": 1},
    {"limit_area": "outside", "limit": 2},
]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("how", ["ffill", "bfill"])
@pytest.mark.parametrize("kwargs", FILLS)
def test_ffill_bfill(chunk: int | None, how: str, kwargs: dict[str, Any]) -> None:
    df = _frame()
    got = getattr(lazy_copy(df, chunk), how)(**kwargs).to_pandas()
    pd.testing.assert_frame_equal(got, getattr(df, how)(**kwargs))
    series = getattr(lazy_copy(df["f"], chunk), how)(**kwargs).to_pandas()
    pd.testing.assert_series_equal(series, getattr(df["f"], how)(**kwargs))


@pytest.mark.parametrize("chunk", CHUNKS)
def test_fill_across_columns(chunk: int | None) -> None:
    df = _frame()[["f", "g"]]
    mdf: Any = lazy_copy(df, chunk)
    pd.testing.assert_frame_equal(mdf.ffill(axis=1).to_pandas(), df.ffill(axis=1))
    pd.testing.assert_frame_equal(mdf.bfill(axis="columns").to_pandas(), df.bfill(axis="columns"))
    pd.testing.assert_frame_equal(mdf.fillna(0.5, axis=1).to_pandas(), df.fillna(0.5, axis=1))


@pytest.mark.parametrize("chunk", CHUNKS)
def test_fillna_values(chunk: int | None) -> None:
    df = _frame()
    mdf: Any = lazy_copy(df, chunk)
    numbers = df[["f", "g", "i"]]
    pd.testing.assert_frame_equal(
        lazy_copy(numbers, chunk).fillna(0).to_pandas(),
        numbers.fillna(0),
    )
    values = {"f": -1.0, "s": "z"}
    pd.testing.assert_frame_equal(mdf.fillna(values).to_pandas(), df.fillna(values))
    per_column = pd.Series({"g": 7.0, "f": 8.0})
    pd.testing.assert_frame_equal(mdf.fillna(per_column).to_pandas(), df.fillna(per_column))
    lazy = md.Series(per_column, chunk_size=1)
    pd.testing.assert_frame_equal(mdf.fillna(lazy).to_pandas(), df.fillna(per_column))
    # a Series filled from another aligned on the index
    other = pd.Series(np.arange(10.0) * 10, index=df.index)
    got = lazy_copy(df["f"], chunk).fillna(lazy_copy(other, 4)).to_pandas()
    pd.testing.assert_series_equal(got, df["f"].fillna(other))


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("limit", [1, 2, 3, 9])
def test_fillna_limit(chunk: int | None, limit: int) -> None:
    df = _frame()
    mdf: Any = lazy_copy(df, chunk)
    numbers = df[["f", "g", "i"]]
    pd.testing.assert_frame_equal(
        mdf[["f", "g", "i"]].fillna(0.0, limit=limit).to_pandas(), numbers.fillna(0.0, limit=limit)
    )
    values = {"f": -1.0, "s": "z"}
    pd.testing.assert_frame_equal(
        mdf.fillna(values, limit=limit).to_pandas(), df.fillna(values, limit=limit)
    )
    got = lazy_copy(df["g"], chunk).fillna(5.0, limit=limit).to_pandas()
    pd.testing.assert_series_equal(got, df["g"].fillna(5.0, limit=limit))


DROPS: list[dict[str, Any]] = [
    {},
    {"how": "all"},
    {"thresh": 2},
    {"thresh": 3},
    {"subset": ["f"]},
    {"subset": ["f", "s"], "how": "all"},
]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("kwargs", DROPS)
def test_dropna_rows(chunk: int | None, kwargs: dict[str, Any]) -> None:
    df = _frame()
    result = lazy_copy(df, chunk).dropna(**kwargs)
    assert np.isnan(result.shape[0])
    pd.testing.assert_frame_equal(result.to_pandas(), df.dropna(**kwargs))


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("kwargs", [{}, {"how": "all"}, {"thresh": 3}, {"thresh": 5}])
def test_dropna_columns(chunk: int | None, kwargs: dict[str, Any]) -> None:
    df = _frame()
    df["n"] = np.nan
    result = lazy_copy(df, chunk).dropna(axis=1, **kwargs)
    expected = df.dropna(axis=1, **kwargs)
    assert list(result.columns) == list(expected.columns)
    pd.testing.assert_frame_equal(result.to_pandas(), expected)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_series_dropna(chunk: int | None) -> None:
    s = _frame()["f"]
    pd.testing.assert_series_equal(lazy_copy(s, chunk).dropna().to_pandas(), s.dropna())
    pd.testing.assert_series_equal(
        lazy_copy(s, chunk).dropna(ignore_index=True).to_pandas(), s.dropna(ignore_index=True)
    )


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("kwargs", [{}, {"how": "all"}, {"axis": 1}, {"subset": ["f"]}])
def test_dropna_ignore_index(chunk: int | None, kwargs: dict[str, Any]) -> None:
    """pandas numbers the rows 0, 1, ... afresh, even where columns were dropped."""
    df = _frame().set_axis(range(100, 100 + len(_frame())))
    result = lazy_copy(df, chunk).dropna(ignore_index=True, **kwargs)
    pd.testing.assert_frame_equal(result.to_pandas(), df.dropna(ignore_index=True, **kwargs))


@pytest.mark.parametrize("how", ["ffill", "bfill"])
def test_fill_after_empty_chunks(how: str) -> None:
    """Chunks emptied by a filter (lengths unknown) pass values across them."""
    df = pd.DataFrame(
        {
            "k": [1.0, np.nan, np.nan, np.nan, np.nan, 2.0, np.nan, 3.0],
            "v": [5.0, 1, 1, 1, 1, 6, 1, np.nan],
        }
    )
    mdf: Any = md.DataFrame(df, chunk_size=2)
    dropped = mdf.dropna(subset=["k"], how="all")
    shrunk = df.dropna(subset=["k"], how="all")
    pd.testing.assert_frame_equal(
        getattr(mdf.dropna(subset=["v"]), how)().to_pandas(),
        getattr(df.dropna(subset=["v"]), how)(),
    )
    pd.testing.assert_frame_equal(
        getattr(dropped, how)(limit=1).to_pandas(), getattr(shrunk, how)(limit=1)
    )
    source = pd.DataFrame(
        {
            "k": [np.nan, np.nan, 1.0, np.nan, np.nan, np.nan, np.nan, 2.0],
            "m": [1, 0, 0, 0, 0, 1, 1, 1],
        }
    )
    lazy: Any = md.DataFrame(source, chunk_size=2)
    kept = lazy.dropna(thresh=2)
    expected = source.dropna(thresh=2)
    pd.testing.assert_frame_equal(getattr(kept, how)().to_pandas(), getattr(expected, how)())


def test_errors_at_build_time() -> None:
    mdf: Any = md.DataFrame(_frame(), chunk_size=3)
    with pytest.raises(KeyError, match="zz"):
        mdf.dropna(subset=["zz"])
    with pytest.raises(TypeError, match="value"):
        mdf.fillna()
    with pytest.raises(ValueError, match="Limit must be greater than 0"):
        mdf.ffill(limit=0)
    with pytest.raises(ValueError, match="limit_area"):
        mdf.bfill(limit_area="middle")
    with pytest.raises(ValueError, match="how"):
        mdf.dropna(how="some")
    with pytest.raises(ValueError, match='"inplace" expected type bool'):
        mdf.ffill(inplace="yes")


_values = st.lists(
    st.one_of(st.none(), st.floats(-100, 100, allow_nan=False)), min_size=0, max_size=14
)


@given(
    values=_values,
    chunk=st.integers(1, 5),
    limit=st.one_of(st.none(), st.integers(1, 4)),
    area=st.sampled_from([None, "inside", "outside"]),
)
def test_fill_property(
    values: list[float | None], chunk: int, limit: int | None, area: str | None
) -> None:
    s = pd.Series(values, dtype=float)
    frame = pd.DataFrame({"a": s, "b": s[::-1].to_numpy()})
    lazy: Any = md.DataFrame(frame, chunk_size=chunk)
    for how in ("ffill", "bfill"):
        got = getattr(lazy, how)(limit=limit, limit_area=area).to_pandas()
        pd.testing.assert_frame_equal(got, getattr(frame, how)(limit=limit, limit_area=area))
    if limit is not None:
        pd.testing.assert_frame_equal(
            lazy.fillna(0.0, limit=limit).to_pandas(), frame.fillna(0.0, limit=limit)
        )


@pytest.mark.parametrize("chunk_size", [2, None])
def test_fillna_with_a_reduction_of_the_data_reads_it_as_an_input(chunk_size):
    floats = pd.Series([1.5, np.nan, 3.0, np.nan, 0.5])
    ints = pd.Series(pd.array([3, None, 1, 9, None], dtype="Int64"))
    dates = pd.Series(pd.to_datetime(["2020-01-01", None, "2021-03-04", None, "2019-05-06"]))
    for data in (floats, ints, dates):
        lazy = md.Series(data, chunk_size=chunk_size)
        for how in ("max", "min"):
            got = lazy.fillna(getattr(lazy, how)()).to_pandas()
            pd.testing.assert_series_equal(got, data.fillna(getattr(data, how)()))
        frame = pd.DataFrame({"a": data, "b": data})
        got = md.DataFrame(frame, chunk_size=chunk_size).fillna(lazy.max()).to_pandas()
        pd.testing.assert_frame_equal(got, frame.fillna(data.max()))
    lazy = md.Series(floats, chunk_size=chunk_size)
    pd.testing.assert_series_equal(
        lazy.fillna(lazy.mean()).to_pandas(), floats.fillna(floats.mean())
    )


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("limit", [1, 2, 9])
def test_fillna_limit_with_lazy_values(chunk: int | None, limit: int) -> None:
    df = _frame()[["f", "g", "i"]]
    mdf: Any = lazy_copy(df, chunk)
    cases = [
        lambda d: d.fillna(d["f"].max(), limit=limit),  # a lazy scalar
        lambda d: d["g"].fillna(d["f"].sum(), limit=limit),
        lambda d: d.fillna(d.max() * 10, limit=limit),  # a lazy Series: a value per column
        lambda d: d["g"].fillna(d["i"] * 100, limit=limit),  # aligned on the index
    ]
    for case in cases:
        expected = case(df)
        got = case(mdf).to_pandas()
        if isinstance(expected, pd.DataFrame):
            pd.testing.assert_frame_equal(got, expected)
        else:
            pd.testing.assert_series_equal(got, expected)
    # values on another index, read as one chunk, and in another order
    other = pd.Series(np.arange(10.0) + 50, index=df.index[::-1])
    got = mdf["f"].fillna(lazy_copy(other, 4), limit=limit).to_pandas()
    pd.testing.assert_series_equal(got, df["f"].fillna(other, limit=limit))


@pytest.mark.parametrize("chunk", CHUNKS)
def test_fillna_with_a_frame_fills_every_hole_it_covers_whatever_the_limit(
    chunk: int | None,
) -> None:
    df = _frame()[["f", "g"]]
    values = pd.DataFrame({"f": np.arange(10.0), "g": -np.arange(10.0)}, index=df.index)
    expected = df.fillna(values, limit=1)  # pandas ignores the limit for a frame of values
    mdf: Any = lazy_copy(df, chunk)
    pd.testing.assert_frame_equal(mdf.fillna(values, limit=1).to_pandas(), expected)
    lazy_values = lazy_copy(values, chunk)
    pd.testing.assert_frame_equal(mdf.fillna(lazy_values, limit=1).to_pandas(), expected)
