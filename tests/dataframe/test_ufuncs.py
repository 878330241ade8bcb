import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md
import jupyter_mars.dataframe.ufuncs  # noqa: F401

CHUNKS = [1, 3, None]


def _frame(n: int = 10) -> pd.DataFrame:
    return pd.DataFrame(
        {"a": np.arange(n) % 4, "b": np.linspace(0.5, 3, n)},
        index=pd.Index(np.arange(n) * 2 + 100, name="id"),
    )


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_unary_ufuncs(chunk_size):
    df = _frame()
    d = md.DataFrame(df, chunk_size=chunk_size)
    pd.testing.assert_frame_equal(np.sqrt(d).to_pandas(), np.sqrt(df))
    pd.testing.assert_series_equal(np.log(d["b"]).to_pandas(), np.log(df["b"]))
    pd.testing.assert_frame_equal(np.negative(d).to_pandas(), np.negative(df))
    pd.testing.assert_series_equal(np.isnan(d["b"]).to_pandas(), np.isnan(df["b"]))
    got = np.exp(d)
    assert got.shape == (10, 2)


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_binary_ufuncs(chunk_size):
    df = _frame()
    d = md.DataFrame(df, chunk_size=chunk_size)
    s, ds = df["b"], d["b"]
    pd.testing.assert_series_equal(np.add(ds, 1).to_pandas(), np.add(s, 1))
    pd.testing.assert_series_equal(np.power(2, ds).to_pandas(), np.power(2, s))
    pd.testing.assert_series_equal(np.maximum(d["a"], ds).to_pandas(), np.maximum(df["a"], s))
    pd.testing.assert_frame_equal(np.multiply(d, d).to_pandas(), np.multiply(df, df))
    arr = np.arange(10.0)
    pd.testing.assert_series_equal(np.subtract(arr, ds).to_pandas(), np.subtract(arr, s))
    pd.testing.assert_series_equal((arr + ds).to_pandas(), arr + s)
    pd.testing.assert_series_equal((np.float64(2) * ds).to_pandas(), np.float64(2) * s)
    other = md.Series(s.iloc[::-1], chunk_size=4)  # another index: aligned on labels
    pd.testing.assert_series_equal(np.add(ds, other).to_pandas(), np.add(s, s.iloc[::-1]))


def test_asarray_executes():
    df = _frame()
    d = md.DataFrame(df, chunk_size=3)
    np.testing.assert_array_equal(np.asarray(d), df.to_numpy())
    np.testing.assert_array_equal(np.asarray(d["a"], dtype=float), df["a"].to_numpy(float))


def test_unsupported_forms_say_what_to_use():
    d = md.DataFrame(_frame())
    with pytest.raises(NotImplementedError, match="sum"):
        np.add.reduce(d["a"])
    with pytest.raises(NotImplementedError, match="out="):
        np.sqrt(d, out=np.empty((10, 2)))
    with pytest.raises(NotImplementedError, match="outputs"):
        np.modf(d)
