"""``inplace=True``: the handle takes the result and None is returned, as in pandas."""

import warnings

import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md
from jupyter_mars.dataframe.inplace import DEPRECATED
from tests.dataframe.helpers import CHUNKS, labelled_frame, lazy_copy

FRAME_CALLS = [
    ("drop", (), {"columns": "b"}),
    ("drop", ([102, 110],), {}),
    ("rename", (), {"columns": {"a": "x"}}),
    ("fillna", (0,), {}),
    ("dropna", (), {}),
    ("ffill", (), {}),
    ("bfill", (), {}),
    ("sort_values", ("b",), {}),
    ("sort_index", (), {"ascending": False}),
    ("reset_index", (), {}),
    ("set_index", ("c",), {}),
    ("drop_duplicates", (), {"subset": ["a"]}),
    ("rename_axis", ("rows",), {}),
    ("query", ("a > 1",), {}),
    ("eval", ("d = a * 2",), {}),
]


@pytest.mark.parametrize("chunk_size", CHUNKS)
@pytest.mark.parametrize(("name", "args", "kwargs"), FRAME_CALLS)
def test_frame_methods_in_place(chunk_size, name, args, kwargs):
    df = labelled_frame()
    d = lazy_copy(df, chunk_size)
    kept = d.copy()
    for frame in (d, df):  # both warn where pandas deprecates inplace
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            returned = getattr(frame, name)(*args, inplace=True, **kwargs)
        assert returned is (None if name in DEPRECATED | {"query", "eval"} else frame)
        warned = [w for w in caught if issubclass(w.category, pd.errors.Pandas4Warning)]
        if frame is df or name not in ("query", "eval"):  # those two: not this module's
            assert bool(warned) == (name in DEPRECATED | {"query", "eval"})
    pd.testing.assert_frame_equal(d.to_pandas(), df)
    pd.testing.assert_frame_equal(kept.to_pandas(), labelled_frame())


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_numeric_methods_in_place(chunk_size):
    df = labelled_frame()[["a", "b"]].astype(float)
    d = lazy_copy(df, chunk_size)
    for frame in (df, d):  # pandas 3.1 returns the frame itself from these
        assert frame.clip(0.2, 2, inplace=True) is frame
        assert frame.where(frame > 0.5, -1.0, inplace=True) is frame
        assert frame.mask(frame > 1.5, 0.0, inplace=True) is frame
        assert frame.replace({0.2: 7.0, 2.0: 8.0}, inplace=True) is frame
        frame.iloc[1:3] = np.nan
        assert frame.interpolate(inplace=True) is frame
    pd.testing.assert_frame_equal(d.to_pandas(), df)


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_series_methods_in_place(chunk_size):
    s = labelled_frame()["b"]
    d = lazy_copy(s, chunk_size)
    for series in (s, d):
        assert series.fillna(0.5, inplace=True) is series
        with pytest.warns(pd.errors.Pandas4Warning, match="inplace keyword"):
            assert series.rename("x", inplace=True) is series  # pandas' quirk
        with pytest.warns(pd.errors.Pandas4Warning):
            assert series.sort_values(inplace=True) is None
        with pytest.warns(pd.errors.Pandas4Warning):
            assert series.drop([100], inplace=True) is None
        with pytest.warns(pd.errors.Pandas4Warning):
            assert series.rename({102: 1}, inplace=True) is None
        with pytest.warns(pd.errors.Pandas4Warning):
            assert series.reset_index(drop=True, inplace=True) is None
        assert series.where(series > 0.5, np.nan, inplace=True) is series
        assert series.replace(0.5, -1.0, inplace=True) is series
        assert series.interpolate(inplace=True) is series
    pd.testing.assert_series_equal(d.to_pandas(), s)


def test_in_place_that_needs_another_dtype_raises_as_pandas():
    df = labelled_frame()[["a", "b"]]
    d = md.DataFrame(df, chunk_size=3)
    for frame in (df, d):
        with pytest.raises(TypeError, match="Invalid value"):
            frame.clip(0.2, 2, inplace=True)
        with pytest.raises(TypeError, match="Invalid value"):
            frame.where(frame > 1, 0.5, inplace=True)
    pd.testing.assert_frame_equal(d.to_pandas(), df)


def test_in_place_that_would_change_the_kind_raises():
    d = md.Series(labelled_frame()["b"], chunk_size=3)
    with (
        pytest.warns(pd.errors.Pandas4Warning),
        pytest.raises(TypeError, match="inplace on a Series to create a DataFrame"),
    ):
        d.reset_index(inplace=True)
    with pytest.raises(ValueError, match='"inplace" expected type bool'):
        d.fillna(0, inplace="yes")
