import operator

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md

CHUNKS = [1, 3, 100]
OPS = [
    operator.add,
    operator.sub,
    operator.mul,
    operator.truediv,
    operator.floordiv,
    operator.mod,
    operator.pow,
    operator.eq,
    operator.ne,
    operator.lt,
    operator.ge,
]


def _frame(n: int = 10) -> pd.DataFrame:
    rng = np.random.default_rng(1)
    return pd.DataFrame({"x": rng.integers(1, 9, n), "y": rng.random(n) + 0.5})


@pytest.mark.parametrize("chunk_size", CHUNKS)
@pytest.mark.parametrize("op", OPS, ids=lambda f: f.__name__)
def test_with_scalars_both_ways(op, chunk_size):
    df = _frame()
    d = md.DataFrame(df, chunk_size=chunk_size)
    pd.testing.assert_frame_equal(op(d, 2).to_pandas(), op(df, 2))
    pd.testing.assert_frame_equal(op(3, d).to_pandas(), op(3, df))


@pytest.mark.parametrize("chunk_size", CHUNKS)
@pytest.mark.parametrize("op", OPS, ids=lambda f: f.__name__)
def test_between_frames_of_the_same_index(op, chunk_size):
    df = _frame()
    d = md.DataFrame(df, chunk_size=chunk_size)
    pd.testing.assert_frame_equal(op(d, d * 2).to_pandas(), op(df, df * 2))
    pd.testing.assert_series_equal(op(d["x"], d["y"]).to_pandas(), op(df["x"], df["y"]))


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_frames_with_other_indexes_align_on_labels(chunk_size):
    df = _frame()
    other = pd.DataFrame({"x": [1.0] * 6, "z": [2.0] * 6}, index=range(7, 13))
    d = md.DataFrame(df, chunk_size=chunk_size)
    o = md.DataFrame(other, chunk_size=chunk_size)
    pd.testing.assert_frame_equal((d + o).to_pandas(), df + other)
    pd.testing.assert_frame_equal(d.add(o, fill_value=0).to_pandas(), df.add(other, fill_value=0))
    pd.testing.assert_frame_equal((d + other).to_pandas(), df + other)


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_a_frame_with_a_series_of_per_column_values(chunk_size):
    df = _frame()
    per_column = pd.Series({"x": 1, "y": 0.5})
    d = md.DataFrame(df, chunk_size=chunk_size)
    pd.testing.assert_frame_equal((d - per_column).to_pandas(), df - per_column)
    lazy = md.Series(per_column)
    pd.testing.assert_frame_equal((d / lazy).to_pandas(), df / per_column)


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_element_wise_methods(chunk_size):
    df = _frame() - 4.5
    df.iloc[2, 1] = np.nan
    d = md.DataFrame(df, chunk_size=chunk_size)
    for got, want in [
        (abs(d), abs(df)),
        (-d, -df),
        (d.abs(), df.abs()),
        (d.round(1), df.round(1)),
        (d.clip(-1, 1), df.clip(-1, 1)),
        (d.isna(), df.isna()),
        (d.notna(), df.notna()),
        (d.astype("float32"), df.astype("float32")),
        ((d > 0) & (d < 2), (df > 0) & (df < 2)),
        (~(d > 0), ~(df > 0)),
    ]:
        pd.testing.assert_frame_equal(got.to_pandas(), want)


def test_bad_operands_name_the_operation():
    d = md.DataFrame(_frame())
    with pytest.raises(TypeError, match="add: other must be a scalar"):
        d + object()


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(0, 30),
    chunk=st.integers(1, 12),
    scalar=st.floats(-5, 5, allow_nan=False).filter(lambda v: v != 0),
)
def test_chains_equal_pandas_over_random_sizes(n, chunk, scalar):
    df = pd.DataFrame({"a": np.arange(n, dtype=float), "b": np.linspace(-1, 1, n)})
    d = md.DataFrame(df, chunk_size=chunk)
    want = (df * scalar - df) / (df.abs() + 1) > 0.1
    got = ((d * scalar - d) / (d.abs() + 1) > 0.1).to_pandas()
    pd.testing.assert_frame_equal(got, want)


@pytest.mark.parametrize("chunk", [1, 3, None])
def test_astype_category_takes_the_categories_of_the_whole_column(chunk: int | None) -> None:
    pdf = pd.DataFrame({"s": ["b", "a", "c", "a", "b"], "i": [3, 1, 2, 1, 3]})
    df = md.DataFrame(pdf, chunk_size=chunk)
    pd.testing.assert_frame_equal(df.astype("category").to_pandas(), pdf.astype("category"))
    both = {"s": "category", "i": "float64"}
    pd.testing.assert_frame_equal(df.astype(both).to_pandas(), pdf.astype(both))
    pd.testing.assert_series_equal(df.s.astype("category").to_pandas(), pdf.s.astype("category"))
    with pytest.raises(KeyError, match="nope"):
        df.astype({"nope": "category"})
