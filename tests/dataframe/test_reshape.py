"""melt, stack, unstack and get_dummies against pandas over row chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from jupyter_mars.dataframe.reshape import get_dummies, melt, unstack

CHUNKS = [1, 3, None]


def _frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "id": [1, 2, 3, 4, 5, 6, 7],
            "a": [1, 2, 3, 4, 5, 6, 7],
            "b": [1.5, np.nan, 2.0, 3.0, 4.0, -1.0, 0.0],
            "c": ["x", "y", None, "x", "z", "y", "x"],
            "k": pd.Categorical(list("pqpppqp"), categories=["q", "p", "r"]),
            "t": [True, False, True, True, False, False, True],
        },
        index=[50, 30, 10, 90, 70, 20, 40],
    )


MELTS: list[dict[str, Any]] = [
    {},
    {"id_vars": ["id"]},
    {"id_vars": "id", "value_vars": ["a", "b"]},
    {"id_vars": ["id", "c"], "value_vars": ["t", "a"], "var_name": "V", "value_name": "W"},
    {"value_vars": "c"},
    {"id_vars": ["id"], "value_vars": ["a", "k"], "ignore_index": False},
]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("kwargs", MELTS)
def test_melt(chunk: int | None, kwargs: dict[str, Any]) -> None:
    df = _frame()
    mdf: Any = md.DataFrame(df, chunk_size=chunk)
    got = melt(mdf, **kwargs)
    expected = pd.melt(df, **kwargs)
    assert got.shape == expected.shape
    pd.testing.assert_frame_equal(got.to_pandas(), expected)
    pd.testing.assert_frame_equal(mdf.melt(**kwargs).to_pandas(), df.melt(**kwargs))


def test_melt_after_unknown_lengths_and_bad_columns() -> None:
    df = _frame()
    mdf: Any = md.DataFrame(df, chunk_size=2)
    got = melt(mdf.iloc[1:6], id_vars=["id"], value_vars=["b"])
    pd.testing.assert_frame_equal(got.to_pandas(), pd.melt(df.iloc[1:6], "id", ["b"]))
    with pytest.raises(KeyError, match="nope"):
        melt(mdf, id_vars=["nope"])


@pytest.mark.parametrize("chunk", CHUNKS)
def test_stack(chunk: int | None) -> None:
    df = _frame()[["a", "b", "t"]]
    mdf: Any = md.DataFrame(df, chunk_size=chunk)
    got = mdf.stack()
    assert got.shape == (len(df) * 3,)
    pd.testing.assert_series_equal(got.to_pandas(), df.stack())
    wide = pd.DataFrame(
        np.arange(12.0).reshape(4, 3),
        columns=pd.MultiIndex.from_tuples([("x", "u"), ("x", "v"), ("y", "u")]),
    )
    wide.iloc[1, 2] = np.nan
    got_wide = md.DataFrame(wide, chunk_size=chunk).stack()  # type: ignore[attr-defined]
    pd.testing.assert_frame_equal(got_wide.to_pandas(), wide.stack())


@pytest.mark.parametrize("chunk", CHUNKS)
def test_unstack(chunk: int | None) -> None:
    df = _frame()[["a", "b"]]
    stacked = df.stack()
    ms: Any = md.Series(stacked.iloc[:-1], chunk_size=chunk)  # a missing combination
    for level in (-1, 0):
        got = unstack(ms, level=level)
        expected = stacked.iloc[:-1].unstack(level=level)
        pd.testing.assert_index_equal(got.columns, expected.columns)
        pd.testing.assert_frame_equal(got.to_pandas(), expected)
    pd.testing.assert_frame_equal(
        ms.unstack(fill_value=0).to_pandas(), stacked.iloc[:-1].unstack(fill_value=0)
    )
    with pytest.raises(ValueError, match="MultiIndex"):
        unstack(md.Series(df["a"]))


PIVOTS: list[dict[str, Any]] = [
    {"index": "foo", "columns": "bar", "values": "baz"},
    {"index": "foo", "columns": "bar"},  # every other column
    {"index": "foo", "columns": "bar", "values": ["baz", "zoo"]},
    {"columns": "bar", "values": "baz"},  # the frame's own index
    {"index": ["foo"], "columns": ["bar", "zoo"], "values": "baz"},
]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("kwargs", PIVOTS)
def test_pivot(chunk: int | None, kwargs: dict[str, Any]) -> None:
    df = pd.DataFrame(
        {
            "foo": ["one", "one", "one", "two", "two", "two", "three"],
            "bar": list("ABCABCA"),
            "baz": [1, 2, 3, 4, 5, 6, 7],
            "zoo": list("xyzqwer"),
        },
        index=[10, 20, 10, 20, 10, 20, 30],
    )
    got = md.DataFrame(df, chunk_size=chunk).pivot(**kwargs)
    expected = df.pivot(**kwargs)
    pd.testing.assert_frame_equal(got.meta, expected.iloc[:0])  # known once called
    pd.testing.assert_frame_equal(got.to_pandas(), expected)


def test_pivot_raises_pandas_errors_where_called() -> None:
    df = pd.DataFrame({"a": [1, 1, 2], "b": [1, 1, 2], "v": [1.0, 2.0, 3.0]})
    lazy = md.DataFrame(df, chunk_size=2)
    with pytest.raises(ValueError, match="duplicate entries"):
        lazy.pivot(index="a", columns="b", values="v")
    with pytest.raises(KeyError, match="nope"):
        lazy.pivot(index="a", columns="nope", values="v")
    with pytest.raises(TypeError):
        lazy.pivot(index="a", values="v")  # columns is required


DUMMIES: list[dict[str, Any]] = [
    {},
    {"columns": ["c", "a"]},
    {"drop_first": True, "dtype": float},
    {"dummy_na": True, "prefix": "P"},
    {"prefix": {"c": "C", "k": "K"}, "prefix_sep": "/"},
]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("kwargs", DUMMIES)
def test_get_dummies_frame(chunk: int | None, kwargs: dict[str, Any]) -> None:
    df = _frame()
    got = get_dummies(md.DataFrame(df, chunk_size=chunk), **kwargs)
    expected = pd.get_dummies(df, **kwargs)
    pd.testing.assert_index_equal(got.columns, expected.columns)  # before executing
    pd.testing.assert_frame_equal(got.to_pandas(), expected)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_get_dummies_series(chunk: int | None) -> None:
    df = _frame()
    for col in ("a", "c", "k", "b"):
        for kwargs in ({}, {"dummy_na": True}, {"drop_first": True, "prefix": "p"}):
            got = get_dummies(md.Series(df[col], chunk_size=chunk), **kwargs)
            pd.testing.assert_frame_equal(got.to_pandas(), pd.get_dummies(df[col], **kwargs))


def test_get_dummies_errors() -> None:
    mdf: Any = md.DataFrame(_frame(), chunk_size=2)
    with pytest.raises(KeyError, match="nope"):
        get_dummies(mdf, columns=["nope"])
    with pytest.raises(TypeError, match="list-like"):
        get_dummies(mdf, columns="c")
    with pytest.raises(TypeError):
        get_dummies(_frame())


@given(
    values=st.lists(st.one_of(st.none(), st.sampled_from(["u", "v", "w", "x"])), max_size=12),
    chunk=st.integers(1, 5),
    drop_first=st.booleans(),
)
def test_get_dummies_and_melt_hypothesis(
    values: list[str | None], chunk: int, drop_first: bool
) -> None:
    df = pd.DataFrame({"s": pd.Series(values, dtype=object), "n": np.arange(len(values))})
    mdf: Any = md.DataFrame(df, chunk_size=chunk)
    pd.testing.assert_frame_equal(
        get_dummies(mdf, drop_first=drop_first).to_pandas(),
        pd.get_dummies(df, drop_first=drop_first),
    )
    expected = pd.melt(df, id_vars="n")
    if df["s"].isna().all():  # no value at all: typed str here, object by pandas
        expected["value"] = expected["value"].astype("str")
    pd.testing.assert_frame_equal(melt(mdf, id_vars="n").to_pandas(), expected)
