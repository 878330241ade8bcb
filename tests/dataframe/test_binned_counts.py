"""Series.value_counts(bins=) against pandas over several chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.dataframe.helpers import CHUNKS, lazy_copy

FLAGS: list[dict[str, Any]] = [
    {},
    {"normalize": True},
    {"sort": False},
    {"dropna": False, "normalize": True},
    {"ascending": True},
]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("bins", [3, [0, 5, 10], 1])
@pytest.mark.parametrize("flags", FLAGS)
def test_value_counts_with_bins_matches_pandas(
    chunk: int | None, bins: Any, flags: dict[str, Any]
) -> None:
    data = pd.Series([1, 2, 2, 3, 7, np.nan, 10, 4, 4.5], name="x")
    got = lazy_copy(data, chunk).value_counts(bins=bins, **flags).execute().fetch()
    pd.testing.assert_series_equal(got, data.value_counts(bins=bins, **flags))


def test_value_counts_bins_bad_input_raises_at_the_call() -> None:
    lazy = lazy_copy(pd.Series(list("abc")), 2)
    with pytest.raises(TypeError, match="bins"):
        lazy.value_counts(bins=2)
    with pytest.raises(ValueError, match="bins"):
        lazy_copy(pd.Series([1.0, 2.0]), 1).value_counts(bins=0)


@settings(max_examples=20, deadline=None)
@given(
    values=st.lists(st.integers(-5, 5), min_size=1, max_size=12),
    chunk=st.integers(1, 4),
    bins=st.integers(1, 4),
)
def test_binned_counts_over_chunkings(values: list[int], chunk: int, bins: int) -> None:
    data = pd.Series(values, dtype=np.int64)
    got = lazy_copy(data, chunk).value_counts(bins=bins, sort=False).execute().fetch()
    pd.testing.assert_series_equal(got, data.value_counts(bins=bins, sort=False))
