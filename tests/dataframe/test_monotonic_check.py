"""Mars's check_monotonic and is_monotonic against pandas' monotonic facts."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md

VALUES = [
    [1, 2, 2, 3, 5],
    [1, 2, 3, 4, 5],
    [5, 3, 3, 1],
    [5, 4, 3],
    [1.0, np.nan, 3.0],
    [3, 1, 2],
    [],
    [7],
    ["a", "b", "b"],
    ["a", 1, 2],
]


def _want(data: pd.Series | pd.Index, decreasing: bool, strict: bool) -> bool:
    facts = data.is_monotonic_decreasing if decreasing else data.is_monotonic_increasing
    return bool(facts and (data.is_unique or not strict))


@pytest.mark.parametrize("values", VALUES)
@pytest.mark.parametrize("chunk", [1, 2, 10])
@pytest.mark.parametrize("decreasing", [False, True])
@pytest.mark.parametrize("strict", [False, True])
def test_check_monotonic_matches_pandas(values, chunk, decreasing, strict):
    data = pd.Series(values, dtype=object if "a" in values and 1 in values else None)
    got = md.Series(data, chunk_size=chunk).check_monotonic(decreasing=decreasing, strict=strict)
    assert got.dtype == np.dtype(bool)
    assert got.shape == ()
    assert bool(got.execute().fetch()) is _want(data, decreasing, strict)
    index = pd.Index(data)
    got_index = md.Index(index, chunk_size=chunk).check_monotonic(
        decreasing=decreasing, strict=strict
    )
    assert bool(got_index.execute().fetch()) is _want(index, decreasing, strict)


def test_is_monotonic_is_a_lazy_increasing_check():
    lazy = md.Series(pd.Series([1, 1, 2]), chunk_size=1)
    assert bool(lazy.is_monotonic.execute().fetch()) is True
    assert bool(md.Index(pd.Index([2, 1]), chunk_size=1).is_monotonic.execute().fetch()) is False


def test_check_monotonic_takes_only_bools():
    lazy = md.Series(pd.Series([1, 2]))
    with pytest.raises(TypeError, match="decreasing must be a bool"):
        lazy.check_monotonic(decreasing="yes")
    with pytest.raises(TypeError, match="strict must be a bool"):
        lazy.check_monotonic(strict=1)


@settings(max_examples=30, deadline=None)
@given(
    values=st.lists(st.integers(-3, 3), max_size=25),
    chunk=st.integers(1, 8),
    decreasing=st.booleans(),
    strict=st.booleans(),
)
def test_check_monotonic_over_any_chunking(values, chunk, decreasing, strict):
    data = pd.Series(sorted(values, reverse=decreasing) if chunk % 2 else values, dtype="int64")
    got = md.Series(data, chunk_size=chunk).check_monotonic(decreasing=decreasing, strict=strict)
    assert bool(got.execute().fetch()) is _want(data, decreasing, strict)
