"""empty, size, nbytes, memory_usage, hasnans, is_unique and is_monotonic_* against
pandas, from per-chunk summaries."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from tests.dataframe.helpers import CHUNKS, labelled_frame, lazy_copy

FRAME = pd.DataFrame(
    {
        "i": [1, 2, 2, 5, 7, 9],
        "f": [0.5, np.nan, 1.0, 2.0, 3.0, 4.0],
        "s": list("abcdef"),
        "d": [6.0, 5.0, 4.0, 4.0, 1.0, 0.0],
    }
)


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("data", [FRAME, labelled_frame(), FRAME.iloc[:0]])
def test_frame_summaries(chunk: int | None, data: pd.DataFrame) -> None:
    df = lazy_copy(data, chunk)
    assert df.empty is data.empty
    assert df.size == data.size
    for deep in (False, True):
        pd.testing.assert_series_equal(df.memory_usage(deep=deep), data.memory_usage(deep=deep))
        pd.testing.assert_series_equal(
            df.memory_usage(index=False, deep=deep), data.memory_usage(index=False, deep=deep)
        )
    assert md.DataFrame(pd.DataFrame(index=range(3))).empty


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("column", ["i", "f", "s", "d"])
def test_series_summaries(chunk: int | None, column: str) -> None:
    data = FRAME[column]
    s = lazy_copy(data, chunk)
    assert s.empty is data.empty
    assert s.size == data.size
    assert s.nbytes == data.nbytes
    assert s.hasnans is data.hasnans
    assert s.is_unique is data.is_unique
    assert s.is_monotonic_increasing is data.is_monotonic_increasing
    assert s.is_monotonic_decreasing is data.is_monotonic_decreasing
    assert s.memory_usage() == data.memory_usage()
    assert s.memory_usage(index=False, deep=True) == data.memory_usage(index=False, deep=True)


def test_summaries_after_a_filter_count_the_rows() -> None:
    df = md.DataFrame(FRAME, chunk_size=2)
    kept = df[df["i"] > 1]
    expected = FRAME[FRAME["i"] > 1]
    assert kept.size == expected.size
    assert kept.empty is False
    assert df[df["i"] > 100].empty is True
    pd.testing.assert_series_equal(kept.memory_usage(), expected.memory_usage())
    assert kept["i"].is_monotonic_increasing is True


def test_index_summaries() -> None:
    data = pd.Index([3, 1, 2, 2], name="k")
    for chunk in (1, 3, 4):
        index = md.Index(data, chunk_size=chunk)
        assert index.size == data.size
        assert index.nbytes == data.nbytes
        assert index.is_unique is data.is_unique
        assert index.hasnans is data.hasnans
        assert index.is_monotonic_increasing is data.is_monotonic_increasing
        # pandas adds its hash table's bytes once built (by is_unique): a fresh index
        assert index.memory_usage() == pd.Index(data.to_numpy()).memory_usage()


@settings(max_examples=25, deadline=None)
@given(
    values=st.lists(st.integers(-3, 3) | st.just(None), max_size=12),
    chunk=st.integers(1, 5),
)
def test_order_and_uniqueness_hypothesis(values: list[int | None], chunk: int) -> None:
    data = pd.Series(values, dtype="float64")
    s = md.Series(data, chunk_size=chunk)
    assert s.is_monotonic_increasing is data.is_monotonic_increasing
    assert s.is_monotonic_decreasing is data.is_monotonic_decreasing
    assert s.is_unique is data.is_unique
    assert s.hasnans is data.hasnans
