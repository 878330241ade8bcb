from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
import jupyter_mars.dataframe.filters  # noqa: F401
import jupyter_mars.dataframe.loc  # noqa: F401
from jupyter_mars.dataframe.selection import take_columns

CHUNKS = [1, 3, 100]


def _frame(n: int = 10) -> pd.DataFrame:
    return pd.DataFrame(
        {"a": np.arange(n), "b": np.linspace(0, 1, n), "c": list("pqrstuvwxyz"[:n])},
        index=pd.Index(np.arange(n) + 100, name="id"),
    )


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_columns_by_label(chunk_size):
    df = _frame()
    d = md.DataFrame(df, chunk_size=chunk_size)
    pd.testing.assert_series_equal(d["b"].to_pandas(), df["b"])
    pd.testing.assert_frame_equal(d[["c", "a"]].to_pandas(), df[["c", "a"]])


def test_a_missing_column_raises_where_it_is_asked_for():
    with pytest.raises(KeyError):
        md.DataFrame(_frame())["nope"]


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_head_tail_and_iloc_rows(chunk_size):
    df = _frame()
    d = md.DataFrame(df, chunk_size=chunk_size)
    pd.testing.assert_frame_equal(d.head(3).to_pandas(), df.head(3))
    pd.testing.assert_frame_equal(d.tail(4).to_pandas(), df.tail(4))
    pd.testing.assert_frame_equal(d.head(0).to_pandas(), df.head(0))
    pd.testing.assert_frame_equal(d.iloc[2:9:3].to_pandas(), df.iloc[2:9:3])
    pd.testing.assert_frame_equal(d.iloc[1:6, 1:].to_pandas(), df.iloc[1:6, 1:])
    pd.testing.assert_series_equal(d["a"].tail(2).to_pandas(), df["a"].tail(2))


def test_bad_slices_name_the_problem():
    d = md.DataFrame(_frame())
    with pytest.raises(ValueError, match="step cannot be zero"):
        d.iloc[::0]
    with pytest.raises(TypeError, match="slice start must be an int"):
        d.iloc["a":]


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(0, 25),
    chunk=st.integers(1, 9),
    start=st.one_of(st.none(), st.integers(-30, 30)),
    stop=st.one_of(st.none(), st.integers(-30, 30)),
    step=st.one_of(st.none(), st.integers(1, 4), st.integers(-4, -1)),
)
def test_row_slices_equal_pandas(n, chunk, start, stop, step):
    df = _frame(min(n, 11))
    d = md.DataFrame(df, chunk_size=chunk)
    rows = slice(start, stop, step)
    got = d.iloc[rows]
    want = df.iloc[rows]
    assert got.shape == want.shape
    pd.testing.assert_frame_equal(got.to_pandas(), want)


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_iloc_positions_rows_and_values(chunk_size):
    df = _frame()
    d = md.DataFrame(df, chunk_size=chunk_size)
    for rows in ([3, 0, 9, 3], [1, 2, 8], [-1, -10], [], np.array([5, 4]), range(2, 5)):
        pd.testing.assert_frame_equal(d.iloc[rows].to_pandas(), df.iloc[rows])
    pd.testing.assert_series_equal(d.iloc[4].to_pandas(), df.iloc[4])
    pd.testing.assert_series_equal(d.iloc[-1].to_pandas(), df.iloc[-1])
    assert d["a"].iloc[-2].to_numpy() == df["a"].iloc[-2]
    assert d.iloc[3, 2].to_numpy() == df.iloc[3, 2]
    assert d.iat[7, 1].to_numpy() == df.iat[7, 1]
    pd.testing.assert_series_equal(d.iloc[2:7, 0].to_pandas(), df.iloc[2:7, 0])
    pd.testing.assert_frame_equal(d.iloc[[6, 1], [2, 0]].to_pandas(), df.iloc[[6, 1], [2, 0]])
    pd.testing.assert_frame_equal(d.iloc[:, 1:].to_pandas(), df.iloc[:, 1:])
    pd.testing.assert_series_equal(d.iloc[5, [0, 1]].to_pandas(), df.iloc[5, [0, 1]])


def test_iloc_out_of_range_raises_as_pandas():
    d = md.DataFrame(_frame(), chunk_size=3)
    with pytest.raises(IndexError, match="out-of-bounds"):
        d.iloc[10]
    with pytest.raises(IndexError, match="out-of-bounds"):
        d.iloc[[0, -11]]
    with pytest.raises(IndexError):
        d.iloc[:, 5]
    f = d[d["a"] > 6]  # length unknown: raised when executed
    with pytest.raises(IndexError, match="out-of-bounds"):
        f.iloc[3].to_pandas()


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_iloc_after_a_filter(chunk_size):
    df = _frame()
    d = md.DataFrame(df, chunk_size=chunk_size)
    f, want = d[d["a"] % 3 != 1], df[df["a"] % 3 != 1]
    pd.testing.assert_frame_equal(f.iloc[1:5].to_pandas(), want.iloc[1:5])
    pd.testing.assert_frame_equal(f.iloc[[4, 0, -1]].to_pandas(), want.iloc[[4, 0, -1]])
    pd.testing.assert_series_equal(f.iloc[-2].to_pandas(), want.iloc[-2])
    pd.testing.assert_frame_equal(f.head(2).to_pandas(), want.head(2))
    assert f["b"].iloc[3].to_numpy() == want["b"].iloc[3]


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_series_getitem(chunk_size):
    s = _frame()["b"]
    d = md.DataFrame(_frame(), chunk_size=chunk_size)["b"]
    pd.testing.assert_series_equal(d[d > 0.5].to_pandas(), s[s > 0.5])
    pd.testing.assert_series_equal(d[2:6].to_pandas(), s[2:6])
    pd.testing.assert_series_equal(d[[104, 101, 109]].to_pandas(), s[[104, 101, 109]])
    pd.testing.assert_series_equal(d[102:105].to_pandas(), s[102:105])  # by position
    pd.testing.assert_series_equal(d.loc[102:105].to_pandas(), s.loc[102:105])
    assert d[103].to_numpy() == s[103]


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_row_label_slices_through_getitem(chunk_size):
    df = _frame().set_index("c")
    d = md.DataFrame(df, chunk_size=chunk_size)
    pd.testing.assert_frame_equal(d["r":"u"].to_pandas(), df["r":"u"])


def test_column_attributes():
    df = _frame()
    d = md.DataFrame(df, chunk_size=3)
    pd.testing.assert_series_equal(d.a.to_pandas(), df.a)
    with pytest.raises(AttributeError, match="nope"):
        d.nope  # noqa: B018
    assert not hasattr(d, "_secret")


@settings(max_examples=25, deadline=None)
@given(
    values=st.lists(st.integers(0, 5), max_size=20),
    chunk=st.integers(1, 6),
    keep=st.integers(0, 5),
    data=st.data(),
)
def test_iloc_after_filters_equal_pandas(values, chunk, keep, data):
    df = pd.DataFrame({"v": values, "w": [float(x) / 2 for x in values]}, dtype="float64")
    d = md.DataFrame(df, chunk_size=chunk)
    f, want = d[d["v"] < keep], df[df["v"] < keep]
    n = len(want)
    start = data.draw(st.one_of(st.none(), st.integers(-n - 2, n + 2)))
    stop = data.draw(st.one_of(st.none(), st.integers(-n - 2, n + 2)))
    pd.testing.assert_frame_equal(f.iloc[start:stop].to_pandas(), want.iloc[start:stop])
    if n:
        rows = data.draw(st.lists(st.integers(-n, n - 1), max_size=6))
        pd.testing.assert_frame_equal(f.iloc[rows].to_pandas(), want.iloc[rows])
        i = data.draw(st.integers(-n, n - 1))
        pd.testing.assert_series_equal(f.iloc[i].to_pandas(), want.iloc[i])


@pytest.mark.parametrize(
    ("columns", "key"),
    [
        (list("abc"), list("abc")),  # every column in order: no lookup
        (list("abc"), list("cba")),
        ([1, 2, 3], [1.0, 2.0, 3.0]),  # equal labels of another type: looked up
        ([0, 1, 2], [False, True, 2]),
        (["a", "a", "b"], ["a", "a", "b"]),  # repeated labels: pandas repeats them
        (pd.Index(["x", "y"], dtype=object), ["x", "y"]),
    ],
)
def test_taking_columns_by_list_gives_pandas_frame(columns: Any, key: list[Any]) -> None:
    chunk = pd.DataFrame(np.arange(6).reshape(2, 3)[:, : len(columns)], columns=columns)
    try:
        expected = chunk[key]
    except KeyError:
        with pytest.raises(KeyError):
            take_columns(chunk, key)
        return
    got = take_columns(chunk, key)
    pd.testing.assert_frame_equal(got, expected)
    assert got is not chunk
