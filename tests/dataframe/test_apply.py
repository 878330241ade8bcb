"""apply, map / applymap, transform, map_chunk and pipe against pandas."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
import jupyter_mars.dataframe.apply  # noqa: F401 - attaches the methods
from jupyter_mars.dataframe.apply import sample_like
from tests.dataframe.helpers import CHUNKS, lazy_copy


def _frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "f": [1.5, np.nan, 3.0, -4.0, 5.25, 0.0, 2.0],
            "i": [1, 2, 3, 4, 5, 6, 7],
            "s": ["a", "bb", "c", "dd", "e", "ff", "g"],
        },
        index=pd.Index([f"k{i}" for i in range(7)], name="key"),
    )


def _product(row: pd.Series) -> Any:
    return row["f"] * row["i"]


def _two(row: pd.Series) -> pd.Series:
    return pd.Series({"twice": row["i"] * 2, "label": row["s"] + "!"})


@pytest.mark.parametrize("chunk", CHUNKS)
def test_apply_rows(chunk: int | None) -> None:
    df = _frame()
    mdf: Any = lazy_copy(df, chunk)
    result = mdf.apply(_product, axis=1)
    expected = df.apply(_product, axis=1)
    assert result.dtype == expected.dtype
    pd.testing.assert_series_equal(result.to_pandas(), expected)
    pd.testing.assert_frame_equal(mdf.apply(_two, axis=1).to_pandas(), df.apply(_two, axis=1))
    numbers = df[["f", "i"]]
    lazy_numbers: Any = lazy_copy(numbers, chunk)
    expand = lazy_numbers.apply(lambda r: [r["f"], r["i"]], axis=1, result_type="expand")
    expected_expand = numbers.apply(lambda r: [r["f"], r["i"]], axis=1, result_type="expand")
    pd.testing.assert_frame_equal(expand.to_pandas(), expected_expand)
    raw = lazy_numbers.apply(np.sum, axis=1, raw=True)
    pd.testing.assert_series_equal(raw.to_pandas(), numbers.apply(np.sum, axis=1, raw=True))
    scaled = lazy_numbers.apply(lambda r, k: r * k, axis=1, args=(3,))
    pd.testing.assert_frame_equal(
        scaled.to_pandas(), numbers.apply(lambda r, k: r * k, axis=1, args=(3,))
    )


@pytest.mark.parametrize("chunk", CHUNKS)
def test_apply_columns(chunk: int | None) -> None:
    numbers = _frame()[["f", "i"]]
    lazy: Any = lazy_copy(numbers, chunk)
    pd.testing.assert_series_equal(lazy.apply(np.nansum).to_pandas(), numbers.apply(np.nansum))
    centred = lazy.apply(lambda c: c - c.mean())
    pd.testing.assert_frame_equal(centred.to_pandas(), numbers.apply(lambda c: c - c.mean()))


@pytest.mark.parametrize("chunk", CHUNKS)
def test_series_apply_and_map(chunk: int | None) -> None:
    df = _frame()
    i = lazy_copy(df["i"], chunk)
    s = lazy_copy(df["s"], chunk)
    f = lazy_copy(df["f"], chunk)
    pd.testing.assert_series_equal(
        i.apply(lambda v: v * 2.5).to_pandas(), df["i"].apply(lambda v: v * 2.5)
    )
    pd.testing.assert_series_equal(s.apply(len).to_pandas(), df["s"].apply(len))
    pairs = i.apply(lambda v: pd.Series({"a": v, "b": -v}))
    pd.testing.assert_frame_equal(
        pairs.to_pandas(), df["i"].apply(lambda v: pd.Series({"a": v, "b": -v}))
    )
    mapping = {1: "one", 3: "three", 7: "seven"}
    pd.testing.assert_series_equal(i.map(mapping).to_pandas(), df["i"].map(mapping))
    full = dict.fromkeys(range(1, 8), 10)
    assert i.map(full).dtype == df["i"].map(full).dtype
    pd.testing.assert_series_equal(i.map(full).to_pandas(), df["i"].map(full))
    table = pd.Series([10.0, 20.0], index=[2, 5])
    pd.testing.assert_series_equal(i.map(table).to_pandas(), df["i"].map(table))
    pd.testing.assert_series_equal(
        i.map(md.Series(table, chunk_size=1)).to_pandas(), df["i"].map(table)
    )
    pd.testing.assert_series_equal(s.map(str.upper).to_pandas(), df["s"].map(str.upper))
    pd.testing.assert_series_equal(
        f.map(lambda v: v * 10, na_action="ignore").to_pandas(),
        df["f"].map(lambda v: v * 10, na_action="ignore"),
    )


@pytest.mark.parametrize("chunk", CHUNKS)
def test_frame_map(chunk: int | None) -> None:
    df = _frame()
    mdf: Any = lazy_copy(df, chunk)
    pd.testing.assert_frame_equal(mdf.map(str).to_pandas(), df.map(str))
    pd.testing.assert_frame_equal(mdf.applymap(repr).to_pandas(), df.map(repr))
    numbers = df[["f", "i"]]
    lazy: Any = lazy_copy(numbers, chunk)
    doubled = lazy.map(lambda v: v * 2, na_action="ignore")
    pd.testing.assert_frame_equal(
        doubled.to_pandas(), numbers.map(lambda v: v * 2, na_action="ignore")
    )


@pytest.mark.parametrize("chunk", CHUNKS)
def test_transform(chunk: int | None) -> None:
    numbers = _frame()[["f", "i"]]
    lazy: Any = lazy_copy(numbers, chunk)
    pd.testing.assert_frame_equal(lazy.transform(np.sqrt).to_pandas(), numbers.transform(np.sqrt))
    ranked = lazy.transform(lambda c: c.rank())
    pd.testing.assert_frame_equal(ranked.to_pandas(), numbers.transform(lambda c: c.rank()))
    series = lazy["i"].transform(lambda c: c - c.min())
    pd.testing.assert_series_equal(
        series.to_pandas(), numbers["i"].transform(lambda c: c - c.min())
    )


def _keep_big(chunk: pd.DataFrame, at_least: int) -> pd.DataFrame:
    return chunk[chunk["i"] >= at_least]


@pytest.mark.parametrize("chunk", CHUNKS)
def test_map_chunk(chunk: int | None) -> None:
    df = _frame()
    mdf: Any = lazy_copy(df, chunk)
    kept = mdf.map_chunk(_keep_big, args=(4,))
    assert np.isnan(kept.shape[0])
    pd.testing.assert_frame_equal(kept.to_pandas(), _keep_big(df, 4))
    with_kwargs = mdf.map_chunk(_keep_big, kwargs={"at_least": 6})
    pd.testing.assert_frame_equal(with_kwargs.to_pandas(), _keep_big(df, 6))
    lengths = mdf.map_chunk(lambda c: c["s"].str.len())
    assert lengths.dtype == df["s"].str.len().dtype
    pd.testing.assert_series_equal(lengths.to_pandas(), df["s"].str.len())


def test_meta_given_by_the_caller() -> None:
    df = _frame()
    mdf: Any = md.DataFrame(df, chunk_size=2)

    def halves(chunk: pd.DataFrame) -> pd.DataFrame:
        # data-dependent: a sample of made-up values tells nothing useful
        return pd.DataFrame({"h": chunk["i"] / 2}, index=chunk.index)

    given = mdf.map_chunk(halves, dtypes={"h": np.dtype("float64")})
    assert list(given.dtypes) == [np.dtype("float64")]
    pd.testing.assert_frame_equal(given.to_pandas(), halves(df))
    as_meta = mdf.map_chunk(halves, meta=pd.DataFrame({"h": pd.Series([], dtype="float64")}))
    pd.testing.assert_frame_equal(as_meta.to_pandas(), halves(df))
    series = mdf.apply(_product, axis=1, dtypes=np.dtype("float64"), output_type="series")
    pd.testing.assert_series_equal(series.to_pandas(), df.apply(_product, axis=1))


def test_meta_inference_errors() -> None:
    mdf: Any = md.DataFrame(_frame(), chunk_size=2)
    with pytest.raises(KeyError, match="missing") as info:
        mdf.apply(lambda r: r["missing"], axis=1)
    assert any("meta=" in note for note in info.value.__notes__)
    with pytest.raises(TypeError, match="DataFrame or Series"):
        mdf.map_chunk(len)
    with pytest.raises(NotImplementedError, match="callable"):
        mdf.apply("sum")
    with pytest.raises(ValueError, match="na_action"):
        mdf.map(str, na_action="all")


def test_pipe() -> None:
    df = _frame()
    mdf: Any = md.DataFrame(df, chunk_size=3)

    def pick(frame: Any, column: str) -> Any:
        return frame[column]

    pd.testing.assert_series_equal(mdf.pipe(pick, "i").to_pandas(), df.pipe(pick, "i"))
    pd.testing.assert_series_equal(mdf.pipe(pick, column="f").to_pandas(), df["f"])

    def target(column: str, data: Any) -> Any:
        return data[column]

    pd.testing.assert_series_equal(mdf.pipe((target, "data"), "s").to_pandas(), df["s"])


def test_sample_keeps_dtypes_and_index() -> None:
    meta = pd.DataFrame(
        {
            "b": pd.Series([], dtype=bool),
            "t": pd.Series([], dtype="datetime64[ns, UTC]"),
            "d": pd.Series([], dtype="timedelta64[ns]"),
            "c": pd.Series([], dtype=pd.CategoricalDtype(["x", "y"])),
            "n": pd.Series([], dtype="Int64"),
            "s": pd.Series([], dtype="str"),
        },
        index=pd.DatetimeIndex([], name="when"),
    )
    sample = sample_like(meta)
    assert len(sample) == 2
    assert sample.dtypes.equals(meta.dtypes)
    assert isinstance(sample.index, pd.DatetimeIndex)
    assert sample.index.name == "when"


@given(
    values=st.lists(st.integers(-5, 5), min_size=0, max_size=12),
    chunk=st.integers(1, 4),
)
def test_map_property(values: list[int], chunk: int) -> None:
    s = pd.Series(values, dtype="int64")
    mapping = {v: v * 1.5 for v in range(-5, 1)}
    lazy: Any = md.Series(s, chunk_size=chunk)
    pd.testing.assert_series_equal(lazy.map(mapping).to_pandas(), s.map(mapping))
    pd.testing.assert_series_equal(lazy.apply(abs).to_pandas(), s.apply(abs))
