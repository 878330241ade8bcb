"""argmax, argmin, argsort and searchsorted against pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from tests.dataframe.helpers import CHUNKS, lazy_copy

DATA = pd.Series([3.0, np.nan, 9.0, 1.0, 9.0], index=list("abcde"), name="x")
SORTED = pd.Series([1, 2, 2, 5, 8, 13])


@pytest.mark.parametrize("chunk", CHUNKS)
def test_positions_match_pandas(chunk: int | None) -> None:
    s = lazy_copy(DATA, chunk)
    assert s.argmax().execute().fetch() == DATA.argmax()
    assert s.argmin().execute().fetch() == DATA.argmin()
    pd.testing.assert_series_equal(s.argsort().to_pandas(), DATA.argsort())
    t = lazy_copy(SORTED, chunk)
    for side in ("left", "right"):
        assert t.searchsorted(2, side=side).execute().fetch() == SORTED.searchsorted(2, side=side)
        np.testing.assert_array_equal(
            t.searchsorted([0, 5, 20], side=side).execute().fetch(),
            SORTED.searchsorted([0, 5, 20], side=side),
        )
    words = pd.Series(list("abdf"))
    assert lazy_copy(words, chunk).searchsorted("c") == words.searchsorted("c")
    index = pd.Index([3, 1, 2])
    lazy_index = md.Index(index, chunk_size=chunk or 3)
    assert lazy_index.argmax() == index.argmax()
    np.testing.assert_array_equal(lazy_index.argsort(), index.argsort())


def test_bad_arguments() -> None:
    s = md.Series(DATA, chunk_size=2)
    with pytest.raises(ValueError, match="No axis named 1"):
        s.argmax(axis=1)
    with pytest.raises(ValueError, match="side"):
        s.searchsorted(1, side="middle")


@settings(max_examples=20, deadline=None)
@given(values=st.lists(st.integers(-5, 5), min_size=1, max_size=10), chunk=st.integers(1, 4))
def test_argmax_argmin_hypothesis(values: list[int], chunk: int) -> None:
    data = pd.Series(values)
    s = md.Series(data, chunk_size=chunk)
    assert s.argmax().execute().fetch() == data.argmax()
    assert s.argmin().execute().fetch() == data.argmin()
