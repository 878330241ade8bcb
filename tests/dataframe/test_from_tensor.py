import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt


@pytest.mark.parametrize("chunk_size", [1, 2, 5])
def test_dataframe_and_series_from_tensor(chunk_size):
    values = np.arange(10.0).reshape(5, 2)
    t = mt.tensor(values, chunk_size=chunk_size)
    pd.testing.assert_frame_equal(
        md.dataframe_from_tensor(t, columns=["a", "b"]).to_pandas(),
        pd.DataFrame(values, columns=["a", "b"]),
    )
    s = md.series_from_tensor(t[:, 0], name="first", dtype="float32")
    pd.testing.assert_series_equal(
        s.to_pandas(), pd.Series(values[:, 0], name="first", dtype="float32")
    )
    with pytest.raises(TypeError, match="tensor"):
        md.series_from_tensor(values[:, 0])
    with pytest.raises(ValueError, match="1-d tensor"):
        md.series_from_tensor(t)


@pytest.mark.parametrize("index_chunk", [1, 2, 4, None])
def test_from_tensor_with_an_index_of_any_chunking(index_chunk):
    values = np.arange(14.0).reshape(7, 2)
    t = mt.tensor(values, chunk_size=3)
    labels = pd.Index(list("abcdefg"), name="n")
    want = pd.DataFrame(values, index=labels, columns=["x", "y"])
    for index in (
        labels,
        md.Index(labels, chunk_size=index_chunk or 7),
        md.Series(pd.Series(labels, name="n"), chunk_size=index_chunk or 7),
    ):
        got = md.dataframe_from_tensor(t, index=index, columns=["x", "y"]).to_pandas()
        pd.testing.assert_frame_equal(got, want, check_names=not isinstance(index, md.Series))
    numbers = mt.tensor(np.arange(7) * 10, chunk_size=index_chunk or 7)
    got = md.series_from_tensor(t[:, 1], index=numbers, name="s").to_pandas()
    pd.testing.assert_series_equal(got, pd.Series(values[:, 1], index=np.arange(7) * 10, name="s"))


def test_from_tensor_index_of_data_dependent_length():
    values = np.arange(8.0)
    labels = md.Series(pd.Series(np.arange(16)), chunk_size=3)
    kept = labels[labels % 2 == 0]
    got = md.series_from_tensor(mt.tensor(values, chunk_size=3), index=kept).to_pandas()
    pd.testing.assert_series_equal(got, pd.Series(values, index=np.arange(0, 16, 2)))


def test_from_tensor_index_errors_raise_at_the_call():
    t = mt.tensor(np.zeros((5, 2)), chunk_size=2)
    with pytest.raises(ValueError, match="indices imply"):
        md.dataframe_from_tensor(t, index=range(4))
    with pytest.raises(TypeError, match="index must be"):
        md.dataframe_from_tensor(t, index=md.DataFrame(pd.DataFrame({"a": range(5)})))
    with pytest.raises(NotImplementedError, match="gpu"):
        md.dataframe_from_tensor(t, gpu=True)
