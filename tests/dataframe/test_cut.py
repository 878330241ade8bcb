import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from tests.dataframe.helpers import CHUNKS, lazy_copy


def _values(n=40, seed=0):
    s = pd.Series(np.random.RandomState(seed).randn(n), name="x")
    s[[3, 17]] = np.nan
    return s


@pytest.mark.parametrize("chunk_size", CHUNKS)
@pytest.mark.parametrize(
    "kwargs",
    [
        {"bins": 4},
        {"bins": 3, "right": False},
        {"bins": [-3, -1, 0, 0.5, 3], "include_lowest": True},
        {"bins": [-1, 0, 1], "labels": ["low", "high"]},
        {"bins": pd.IntervalIndex.from_breaks([-2, 0, 2])},
        {"bins": 5, "precision": 1, "ordered": True},
    ],
)
def test_cut_matches_pandas(chunk_size, kwargs):
    s = _values()
    got = md.cut(lazy_copy(s, chunk_size), **kwargs)
    pd.testing.assert_series_equal(got.to_pandas(), pd.cut(s, **kwargs))


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_cut_labels_false_gives_codes_as_pandas(chunk_size):
    s = pd.Series([0.5, 1.5, 2.5, 3.5])
    inside = md.cut(lazy_copy(s, chunk_size), [0, 2, 4], labels=False)
    pd.testing.assert_series_equal(inside.to_pandas(), pd.cut(s, [0, 2, 4], labels=False))
    outside = md.cut(lazy_copy(s, chunk_size), [0, 2, 3], labels=False)
    pd.testing.assert_series_equal(outside.to_pandas(), pd.cut(s, [0, 2, 3], labels=False))


@pytest.mark.parametrize("chunk_size", [1, 7, None])
def test_cut_retbins_index_tensor_and_plain_values(chunk_size):
    s = _values()
    got, bins = md.cut(lazy_copy(s, chunk_size), 4, retbins=True)
    want, want_bins = pd.cut(s, 4, retbins=True)
    np.testing.assert_array_equal(bins, want_bins)
    pd.testing.assert_series_equal(got.to_pandas(), want)
    idx = pd.Index([1, 5, 9, 3], name="i")
    got_idx = md.cut(md.Index(idx, chunk_size=chunk_size or 4), [0, 4, 10]).to_pandas()
    pd.testing.assert_index_equal(got_idx, pd.Index(pd.cut(idx, [0, 4, 10]), name="i"))
    t = mt.tensor(np.array([1.0, 5.0, 9.0]), chunk_size=chunk_size or 3)
    np.testing.assert_array_equal(
        md.cut(t, [0, 4, 10], labels=False).execute().fetch(),
        pd.cut(np.array([1.0, 5.0, 9.0]), [0, 4, 10], labels=False),
    )
    pd.testing.assert_series_equal(
        md.cut(t, [0, 4, 10]).to_pandas(),
        pd.Series(pd.cut(np.array([1.0, 5.0, 9.0]), [0, 4, 10])),
    )
    assert list(md.cut([1, 5], [0, 4, 10])) == list(pd.cut([1, 5], [0, 4, 10]))


def test_cut_bad_arguments_raise_at_the_call():
    s = md.Series(_values(), chunk_size=5)
    with pytest.raises(ValueError, match="monotonically"):
        md.cut(s, [3, 1, 2])
    with pytest.raises(ValueError, match="positive integer"):
        md.cut(s, 0)
    with pytest.raises(ValueError, match="Bin labels must be one fewer"):
        md.cut(s, [0, 1, 2], labels=["a"])
    with pytest.raises(ValueError, match="1 dimensional"):
        md.cut(md.DataFrame(pd.DataFrame({"a": [1]})), 2)
    with pytest.raises(ValueError, match="Bin edges must be unique"):
        md.cut(s, [0, 1, 1])


@pytest.mark.parametrize("chunk_size", CHUNKS)
@pytest.mark.parametrize("q", [4, 10, [0, 0.1, 0.5, 0.77, 1]])
def test_qcut_matches_pandas_bins_exactly(chunk_size, q):
    s = _values(60, seed=1)
    got, bins = md.qcut(lazy_copy(s, chunk_size), q, retbins=True)
    want, want_bins = pd.qcut(s, q, retbins=True)
    np.testing.assert_array_equal(bins, want_bins)
    pd.testing.assert_series_equal(got.to_pandas(), want)


@settings(max_examples=20, deadline=None)
@given(
    values=st.lists(st.integers(-50, 50), min_size=1, max_size=30),
    chunk=st.integers(1, 8),
    q=st.integers(1, 6),
)
def test_qcut_hypothesis_ints_with_dropped_duplicate_edges(values, chunk, q):
    s = pd.Series(values)
    got = md.qcut(md.Series(s, chunk_size=chunk), q, labels=False, duplicates="drop")
    pd.testing.assert_series_equal(got.to_pandas(), pd.qcut(s, q, labels=False, duplicates="drop"))


def test_qcut_errors_and_plain_values():
    s = md.Series(pd.Series([1, 1, 1, 2]), chunk_size=2)
    with pytest.raises(ValueError, match="Bin edges must be unique"):
        md.qcut(s, 4)
    with pytest.raises(ValueError, match="positive integer"):
        md.qcut(s, 0)
    with pytest.raises(NotImplementedError, match="numeric"):
        md.qcut(md.Series(pd.Series(["a", "b"])), 2)
    np.testing.assert_array_equal(
        md.qcut(np.arange(8), 2, labels=False), pd.qcut(np.arange(8), 2, labels=False)
    )


@settings(max_examples=15, deadline=None)
@given(
    # no subnormals: pandas' own cut warns (a division by a range of ~0) on them
    values=st.lists(
        st.one_of(st.floats(-100, 100, allow_subnormal=False), st.just(np.nan)),
        min_size=1,
        max_size=20,
    ),
    chunk=st.integers(1, 6),
    bins=st.integers(1, 5),
    right=st.booleans(),
)
def test_cut_hypothesis_equal_width_bins(values, chunk, bins, right):
    s = pd.Series(values)
    if s.isna().all():
        return  # pandas cannot spread bins over no values
    got = md.cut(md.Series(s, chunk_size=chunk), bins, right=right)
    pd.testing.assert_series_equal(got.to_pandas(), pd.cut(s, bins, right=right))


def test_cut_datetimes_into_equal_bins():
    s = pd.Series(pd.date_range("2020-01-01", periods=10, freq="D"), name="day")
    got = md.cut(md.Series(s, chunk_size=3), 3)
    pd.testing.assert_series_equal(got.to_pandas(), pd.cut(s, 3))
