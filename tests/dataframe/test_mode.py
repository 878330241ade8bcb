"""mode of Series and DataFrame against pandas over several chunkings."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.dataframe.helpers import CHUNKS, lazy_copy


def _frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "a": [1, 2, 2, 3, 3, 1, 5],
            "b": [1.5, np.nan, np.nan, 3, 4, np.nan, 4],
            "c": list("vwxxzst"),
            "d": [True, False, True, True, False, False, True],
        }
    )


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("dropna", [True, False])
def test_frame_and_series_mode_match_pandas(chunk: int | None, dropna: bool) -> None:
    data = _frame()
    lazy = lazy_copy(data, chunk)
    pd.testing.assert_frame_equal(
        lazy.mode(dropna=dropna).execute().fetch(), data.mode(dropna=dropna)
    )
    for column in data:
        got = lazy[column].mode(dropna=dropna).execute().fetch()
        pd.testing.assert_series_equal(got, data[column].mode(dropna=dropna))


def test_numeric_only_and_bad_arguments() -> None:
    data = _frame()
    lazy = lazy_copy(data, 3)
    got = lazy.mode(numeric_only=True).execute().fetch()
    pd.testing.assert_frame_equal(got, data.mode(numeric_only=True))
    with pytest.raises(ValueError, match="dropna"):
        lazy.mode(dropna="yes")
    with pytest.raises(ValueError, match="axis"):
        lazy.mode(axis=3)


@settings(max_examples=20, deadline=None)
@given(
    values=st.lists(st.one_of(st.none(), st.integers(0, 4)), max_size=12),
    chunk=st.integers(1, 4),
)
def test_series_mode_over_chunkings(values: list[int | None], chunk: int) -> None:
    data = pd.Series([np.nan if v is None else v for v in values], dtype=np.float64, name="x")
    got = lazy_copy(data, chunk).mode().execute().fetch()
    pd.testing.assert_series_equal(got, data.mode())


@pytest.mark.parametrize("chunk", [1, 3])
@pytest.mark.parametrize("dropna", [True, False])
def test_categorical_and_empty_modes(chunk: int, dropna: bool) -> None:
    for data in (
        pd.Series(pd.Categorical(["a", "b", "b", None], categories=["a", "b", "c"]), name="c"),
        pd.Series(pd.Categorical([None, None], categories=["a", "b"])),
        pd.Series([], dtype=np.float64),
    ):
        got = lazy_copy(data, chunk).mode(dropna=dropna).execute().fetch()
        pd.testing.assert_series_equal(got, data.mode(dropna=dropna))
