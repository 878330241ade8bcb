"""Index methods that keep the rows, df.index / s.index, and to_series / to_frame."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from tests.dataframe.helpers import CHUNKS as FRAME_CHUNKS
from tests.dataframe.helpers import labelled_frame, lazy_copy
from tests.dataframe.index.helpers import CHUNKS, assert_index, floats, ints, lazy_index, strings


@pytest.mark.parametrize("chunk", FRAME_CHUNKS)
def test_frame_and_series_index_are_lazy_indexes(chunk: int | None) -> None:
    df = labelled_frame()
    mdf = lazy_copy(df, chunk)
    assert isinstance(mdf.index, md.Index)
    assert_index(mdf.index, df.index)
    assert_index(mdf["b"].index, df["b"].index)
    assert_index(mdf[mdf["a"] > 1].index, df[df["a"] > 1].index)
    pd.testing.assert_index_equal(mdf.columns, df.columns)
    with pytest.raises(NotImplementedError, match="rename"):
        mdf.index.name = "other"


@pytest.mark.parametrize("chunk", CHUNKS)
def test_elementwise_methods_match_pandas(chunk: int | None) -> None:
    p = floats()
    idx = lazy_index(p, chunk)
    assert_index(idx.fillna(0.0), p.fillna(0.0))
    assert_index(idx.astype("float32"), p.astype("float32"))
    assert_index(idx.round(0), p.round(0))
    assert_index(idx.rename("g"), p.rename("g"))
    assert_index(idx.set_names("h"), p.set_names("h"))
    assert_index(idx.copy(), p.copy())
    assert_index(idx.T, p.T)
    assert_index(idx.transpose(), p.transpose())
    assert_index(idx.map(lambda v: v * 2), p.map(lambda v: v * 2))
    assert_index(lazy_index(ints(), chunk).map(lambda v: f"v{v}"), ints().map(lambda v: f"v{v}"))
    mapper = pd.Series(["one", "five"], index=[1, 5])
    assert_index(lazy_index(ints(), chunk).map(md.Series(mapper), dtype="str"), ints().map(mapper))
    assert idx.names == p.names
    assert idx.nlevels == 1
    renamed, expected = lazy_index(p, chunk), p.copy()
    renamed.name, expected.name = "new", "new"
    assert_index(renamed, expected)
    renamed.names = ["newer"]
    expected.names = ["newer"]
    assert_index(renamed, expected)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_boolean_methods_give_lazy_tensors(chunk: int | None) -> None:
    p = floats()
    idx = lazy_index(p, chunk)
    for name in ("isna", "isnull", "notna", "notnull"):
        np.testing.assert_array_equal(getattr(idx, name)().to_numpy(), getattr(p, name)())
    np.testing.assert_array_equal(idx.isin([2.5, 4.0]).to_numpy(), p.isin([2.5, 4.0]))
    np.testing.assert_array_equal(idx.values.to_numpy(), p.values)
    np.testing.assert_array_equal(idx.to_numpy(), p.to_numpy())
    assert idx.to_list() == p.to_list() or np.allclose(idx.tolist(), p.tolist(), equal_nan=True)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_to_series_to_frame_and_series_from_index(chunk: int | None) -> None:
    p = ints()
    idx = lazy_index(p, chunk)
    pd.testing.assert_series_equal(idx.to_series().to_pandas(), p.to_series())
    pd.testing.assert_series_equal(idx.to_series(name="z").to_pandas(), p.to_series(name="z"))
    pd.testing.assert_frame_equal(idx.to_frame().to_pandas(), p.to_frame())
    pd.testing.assert_frame_equal(
        idx.to_frame(index=False, name="v").to_pandas(), p.to_frame(index=False, name="v")
    )
    pd.testing.assert_series_equal(md.series_from_index(idx).to_pandas(), p.to_series())
    pd.testing.assert_series_equal(
        md.series_from_index(p, name="w").to_pandas(), p.to_series(name="w")
    )
    labels = pd.Index(list("abcdefg"), name="l")
    pd.testing.assert_series_equal(
        md.series_from_index(idx, index=labels).to_pandas(), p.to_series(index=labels)
    )
    pd.testing.assert_series_equal(
        idx.to_series(lazy_index(labels, 2), name="v").to_pandas(),
        p.to_series(labels, name="v"),
    )
    with pytest.raises(TypeError, match="ind"):
        md.series_from_index([1, 2])


@pytest.mark.parametrize("chunk", CHUNKS)
def test_multiindex_levels(chunk: int | None) -> None:
    p = pd.MultiIndex.from_arrays([[1, 1, 2, 3], list("abca")], names=["n", "l"])
    idx = lazy_index(p, chunk)
    assert idx.nlevels == 2
    assert list(idx.names) == ["n", "l"]
    assert_index(idx.get_level_values("l"), p.get_level_values("l"))
    assert_index(idx.get_level_values(0), p.get_level_values(0))
    assert_index(idx.droplevel("n"), p.droplevel("n"))
    assert_index(idx.to_flat_index(), p.to_flat_index())
    with pytest.raises(KeyError):
        idx.get_level_values("missing")


@pytest.mark.parametrize("chunk", CHUNKS)
def test_str_accessor(chunk: int | None) -> None:
    p = strings()
    idx = lazy_index(p, chunk)
    assert_index(idx.str.upper(), p.str.upper())
    assert_index(idx.astype("category"), p.astype("category"))
    ordered = pd.CategoricalDtype(["c_y_z", "b_x", "a"], ordered=True)
    assert_index(idx.astype(ordered), p.astype(ordered))
    # pandas' dtype of lengths depends on whether any label is missing: the meta
    # (from a sample) is right where none is
    full = lazy_index(p.dropna(), chunk)
    assert_index(full.str.len(), p.dropna().str.len())
    pd.testing.assert_index_equal(idx.str.len().to_pandas(), p.str.len())
    assert_index(idx.str.replace("_", "-"), p.str.replace("_", "-"))
    np.testing.assert_array_equal(idx.str.startswith("a").to_numpy(), p.str.startswith("a"))
    pd.testing.assert_index_equal(
        idx.str.split("_", expand=True).to_pandas(), p.str.split("_", expand=True)
    )
    assert idx.str.cat(sep="|") == p.str.cat(sep="|")
    with pytest.raises(AttributeError):
        lazy_index(ints(), chunk).str  # noqa: B018


def test_bad_arguments_raise_at_the_call() -> None:
    idx = lazy_index(floats(), 2)
    with pytest.raises(TypeError):
        idx.astype("no such dtype")
    with pytest.raises(ValueError, match='"inplace" expected type bool'):
        idx.rename("x", inplace="yes")


@pytest.mark.parametrize("chunk", [1, 3])
def test_rename_in_place(chunk: int) -> None:
    p = pd.Index(floats(), name="f")
    idx = lazy_index(floats(), chunk)
    assert idx.rename("x", inplace=True) is None
    assert p.rename("x", inplace=True) is None
    pd.testing.assert_index_equal(idx.to_pandas(), p)
    assert idx.set_names("y", inplace=True) is None
    p.set_names("y", inplace=True)
    pd.testing.assert_index_equal(idx.to_pandas(), p)


def test_rename_in_place_of_a_frame_index_is_refused() -> None:
    frame = md.DataFrame(pd.DataFrame({"a": [1, 2, 3]}), chunk_size=2)
    with pytest.raises(NotImplementedError, match="frame's index"):
        frame.index.rename("x", inplace=True)


@settings(max_examples=15)
@given(
    labels=st.lists(st.sampled_from([1.5, np.nan, -2.0, 0.0]), min_size=1, max_size=9),
    chunk=st.integers(1, 4),
)
def test_per_chunk_methods_hypothesis(labels: list[float], chunk: int) -> None:
    p = pd.Index(labels, dtype="float64", name="h")
    idx = lazy_index(p, chunk)
    assert_index(idx.fillna(9.0), p.fillna(9.0))
    assert_index(idx.round(0).astype("float32"), p.round(0).astype("float32"))
    assert_index(idx.map(lambda v: v + 1), p.map(lambda v: v + 1))
    np.testing.assert_array_equal(idx.isin([0.0, np.nan]).to_numpy(), p.isin([0.0, np.nan]))
    np.testing.assert_array_equal(idx.isna().to_numpy(), p.isna())
    pd.testing.assert_index_equal(
        md.DataFrame({"v": labels}, index=p, chunk_size=chunk).index.to_pandas(), p
    )
