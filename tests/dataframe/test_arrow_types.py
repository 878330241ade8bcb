import pandas as pd
import pytest

import jupyter_mars.dataframe as md


def test_arrow_types_are_pandas_arrow_types():
    assert md.ArrowStringDtype() == pd.StringDtype("pyarrow")
    strings = md.ArrowStringArray(["a", None, "c"])
    assert isinstance(strings, pd.arrays.ArrowStringArray)
    assert strings.isna().tolist() == [False, True, False]
    lists = md.ArrowListArray([[1, 2], None, [3]])
    assert lists.dtype == md.ArrowListDtype("int64")
    assert lists.tolist()[0] == [1, 2]
    assert md.ArrowListDtype(str) == md.ArrowListDtype("string")
    s = pd.Series(lists, name="l")
    got = md.Series(s, chunk_size=2).to_pandas()
    pd.testing.assert_series_equal(got, s)
    with pytest.raises(TypeError, match="dtype"):
        md.ArrowListArray([[1]], dtype="int64")
