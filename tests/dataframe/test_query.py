import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md
import jupyter_mars.dataframe.query  # noqa: F401
import jupyter_mars.dataframe.selection  # noqa: F401
from tests.dataframe.helpers import CHUNKS, labelled_frame


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_query(chunk_size):
    df = labelled_frame()
    d = md.DataFrame(df, chunk_size=chunk_size)
    got = d.query("a > 1 and b < 0.8")
    assert np.isnan(got.shape[0])
    pd.testing.assert_frame_equal(got.to_pandas(), df.query("a > 1 and b < 0.8"))
    pd.testing.assert_frame_equal(
        d.query("c == 'q' or a == 3").to_pandas(), df.query("c == 'q' or a == 3")
    )
    pd.testing.assert_frame_equal(d.query("index > 105").to_pandas(), df.query("index > 105"))
    pd.testing.assert_frame_equal(d.query("a > 10").to_pandas(), df.query("a > 10"))


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_local_variables(chunk_size):
    df = labelled_frame()
    d = md.DataFrame(df, chunk_size=chunk_size)
    low, names = 1, ["p", "s", "w"]  # noqa: F841 - read by the expressions
    pd.testing.assert_frame_equal(
        d.query("a >= @low and c in @names").to_pandas(), df.query("a >= @low and c in @names")
    )
    pd.testing.assert_frame_equal(
        d.query("a < @top", local_dict={"top": 2}).to_pandas(),
        df.query("a < @top", local_dict={"top": 2}),
    )
    pd.testing.assert_series_equal(d.eval("a * @low + b").to_pandas(), df.eval("a * @low + b"))


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_eval(chunk_size):
    df = labelled_frame()
    d = md.DataFrame(df, chunk_size=chunk_size)
    pd.testing.assert_series_equal(d.eval("a + b * 2").to_pandas(), df.eval("a + b * 2"))
    pd.testing.assert_series_equal(d.eval("a > 2").to_pandas(), df.eval("a > 2"))
    pd.testing.assert_frame_equal(
        d.eval("e = a * b\nf = e + 1").to_pandas(), df.eval("e = a * b\nf = e + 1")
    )
    assert d.eval("1 + 2") == df.eval("1 + 2")
    e = md.DataFrame(df, chunk_size=chunk_size)
    assert e.eval("g = a - 1", inplace=True) is None
    pd.testing.assert_frame_equal(e.to_pandas(), df.eval("g = a - 1"))


def test_unknown_names_raise_at_the_call():
    d = md.DataFrame(labelled_frame())
    with pytest.raises(pd.errors.UndefinedVariableError, match="nope"):
        d.query("nope > 1")
    with pytest.raises(pd.errors.UndefinedVariableError, match="missing"):
        d.eval("a + @missing")
    with pytest.raises(ValueError, match="boolean"):
        d.query("a + 1")
