"""Assignment through loc, iloc, at and iat, against pandas over several chunkings."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from tests.dataframe.helpers import CHUNKS, labelled_frame, lazy_copy


def both(chunk_size, action):
    """``action`` on a pandas frame and on its lazy copy: the two must agree."""
    expected = labelled_frame()
    lazy = lazy_copy(expected, chunk_size)
    action(expected, lazy)
    pd.testing.assert_frame_equal(lazy.to_pandas(), expected)


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_loc_assignment_by_mask(chunk_size):
    expected = labelled_frame()
    lazy = lazy_copy(expected, chunk_size)
    expected.loc[expected.a > 1, "b"] = 9.0
    lazy.loc[lazy.a > 1, "b"] = 9.0
    mask = (expected.a == 0).to_numpy()
    expected.loc[mask, "a"] = 7
    lazy.loc[mask, "a"] = 7
    expected.loc[expected.a > 2, "new"] = 5
    lazy.loc[lazy.a > 2, "new"] = 5
    expected.loc[expected.a < 3, "b"] = expected.a * 2.0
    lazy.loc[lazy.a < 3, "b"] = lazy.a * 2.0
    other = pd.Series([1.0, 2.0], index=[104, 999])
    expected.loc[expected.a > 1, "b"] = other
    lazy.loc[lazy.a > 1, "b"] = other
    pd.testing.assert_frame_equal(lazy.to_pandas(), expected)


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_loc_assignment_by_labels(chunk_size):
    def action(df, d):
        for frame in (df, d):
            frame.loc[104, "c"] = "Q"
            frame.loc[[110, 100], ["a", "b"]] = 0
            frame.loc[103:111, "b"] = -1.0
            frame.loc[:, "a"] = 3
            frame.loc[lambda f: f.a > 2, "b"] = 1.5
            frame.at[106, "a"] = 99

    both(chunk_size, action)


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_iloc_assignment(chunk_size):
    def action(df, d):
        for frame in (df, d):
            frame.iloc[2:5, 0] = 11
            frame.iloc[[-1, 0], [0, 1]] = 12
            frame.iloc[3, 2] = "z"
            frame.iat[6, 1] = 0.5
            frame.iloc[::3, 1] = 2.5

    both(chunk_size, action)


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_series_assignment(chunk_size):
    s = labelled_frame()["b"]
    d = lazy_copy(s, chunk_size)
    for series in (s, d):
        series.loc[series > 0.5] = 0.0
        series.iloc[0] = 3.0
        series.at[118] = 1.0
        series.iat[-2] = 4.0
        series.loc[[102, 104]] = -1.0
    pd.testing.assert_series_equal(d.to_pandas(), s)


def test_assignment_after_a_filter_uses_the_filtered_positions():
    df = labelled_frame()
    expected = df[df.a > 0].copy()
    d = md.DataFrame(df, chunk_size=3)
    lazy = d[d.a > 0]
    expected.iloc[-2:, 0] = 0
    lazy.iloc[-2:, 0] = 0
    pd.testing.assert_frame_equal(lazy.to_pandas(), expected)
    pd.testing.assert_frame_equal(d.to_pandas(), df)  # the source is untouched


def test_bad_assignment_raises_at_the_call():
    d = md.DataFrame(labelled_frame(), chunk_size=3)
    with pytest.raises(TypeError, match="Invalid value '1.5' for dtype 'int64'"):
        d.loc[d.a > 1, "a"] = 1.5
    with pytest.raises(IndexError):
        d.iloc[20, 0] = 1
    with pytest.raises(IndexError):
        d.iloc[0, 5] = 1
    with pytest.raises(ValueError, match="integer indexers"):
        d.iat[0, "a"] = 1
    with pytest.raises(NotImplementedError, match="scalar"):
        d.loc[d.a > 1, "a"] = [1, 2]
    pd.testing.assert_frame_equal(d.to_pandas(), labelled_frame())
    d.at[999, "a"] = 1  # pandas appends a row: here, a KeyError when computed
    with pytest.raises(KeyError, match=r"\[999\] not in the index"):
        d.to_pandas()


def test_copies_are_not_changed_by_assignment():
    d = md.DataFrame(labelled_frame(), chunk_size=3)
    kept = d.copy()
    d.loc[d.a > 1, "b"] = 0.0
    pd.testing.assert_frame_equal(kept.to_pandas(), labelled_frame())


@settings(max_examples=15, deadline=None)
@given(
    n=st.integers(1, 9),
    chunk=st.integers(1, 4),
    start=st.integers(-10, 10) | st.none(),
    stop=st.integers(-10, 10) | st.none(),
    step=st.integers(1, 3) | st.none(),
)
def test_iloc_slice_assignment_matches_pandas(n, chunk, start, stop, step):
    df = pd.DataFrame({"x": np.arange(n), "y": np.arange(n) * 0.5})
    d = md.DataFrame(df, chunk_size=chunk)
    df.iloc[start:stop:step, 1] = -1.0
    d.iloc[start:stop:step, 1] = -1.0
    pd.testing.assert_frame_equal(d.to_pandas(), df)
