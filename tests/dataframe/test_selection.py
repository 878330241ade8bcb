import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md

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
    with pytest.raises(ValueError, match="step must be positive"):
        d.iloc[::-1]
    with pytest.raises(TypeError, match="slice start must be an int"):
        d.iloc["a":]


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(0, 25),
    chunk=st.integers(1, 9),
    start=st.one_of(st.none(), st.integers(-30, 30)),
    stop=st.one_of(st.none(), st.integers(-30, 30)),
    step=st.one_of(st.none(), st.integers(1, 4)),
)
def test_row_slices_equal_pandas(n, chunk, start, stop, step):
    df = _frame(min(n, 11))
    d = md.DataFrame(df, chunk_size=chunk)
    rows = slice(start, stop, step)
    got = d.iloc[rows]
    want = df.iloc[rows]
    assert got.shape == want.shape
    pd.testing.assert_frame_equal(got.to_pandas(), want)
