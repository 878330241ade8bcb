import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt


@pytest.mark.parametrize("chunk_size", [1, 2, None])
def test_series_from_index_is_to_series(chunk_size):
    idx = pd.Index([3, 1, 2, 7], name="i")
    lazy = md.Index(idx, chunk_size=chunk_size or 4)
    pd.testing.assert_series_equal(md.series_from_index(lazy).to_pandas(), idx.to_series())
    pd.testing.assert_series_equal(
        md.series_from_index(lazy, name="v").to_pandas(), idx.to_series(name="v")
    )
    labels = mt.tensor(np.arange(4) * 2, chunk_size=3)
    got = md.series_from_index(lazy, index=labels, name="v").to_pandas()
    pd.testing.assert_series_equal(got, pd.Series(idx.to_numpy(), index=np.arange(4) * 2, name="v"))
    words = pd.Index(list("abc"))
    pd.testing.assert_series_equal(md.series_from_index(words).to_pandas(), words.to_series())


def test_series_from_index_errors():
    with pytest.raises(TypeError, match="Index"):
        md.series_from_index(md.Series(pd.Series([1])))
    with pytest.raises(ValueError, match="indices imply"):
        md.series_from_index(md.Index(pd.Index([1, 2])), index=[1, 2, 3])


def test_pandas_names_are_reexported():
    for name in ("DateOffset", "Interval", "NA", "NaT", "Timedelta", "Timestamp", "offsets"):
        assert getattr(md, name) is getattr(pd, name)
