"""expanding skew, kurt and sem against pandas over several chunkings."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.dataframe.helpers import CHUNKS, lazy_copy


def _frame() -> pd.DataFrame:
    rng = np.random.default_rng(2)
    return pd.DataFrame(
        {
            "a": [1.0, 2, np.nan, 4, 8, 3, 3, 3, 10, -2, 5],
            "b": rng.normal(size=11) * 100 + 1e4,
            "c": [2.0] * 11,
            "i": np.arange(11) % 4,
        }
    )


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("how", ["skew", "kurt", "sem"])
@pytest.mark.parametrize("min_periods", [1, 5])
def test_expanding_shape_matches_pandas(chunk: int | None, how: str, min_periods: int) -> None:
    data = _frame()
    got = getattr(lazy_copy(data, chunk).expanding(min_periods=min_periods), how)()
    expected = getattr(data.expanding(min_periods=min_periods), how)()
    pd.testing.assert_frame_equal(got.execute().fetch(), expected, rtol=1e-7)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_expanding_agg_takes_them(chunk: int | None) -> None:
    data = _frame()["a"]
    got = lazy_copy(data, chunk).expanding().agg(["skew", "kurt", "sem"]).execute().fetch()
    pd.testing.assert_frame_equal(got, data.expanding().agg(["skew", "kurt", "sem"]), rtol=1e-7)


@settings(max_examples=20, deadline=None)
@given(
    values=st.lists(st.one_of(st.none(), st.integers(-4, 4)), min_size=1, max_size=14),
    chunk=st.integers(1, 5),
)
def test_expanding_skew_over_chunkings(values: list[int | None], chunk: int) -> None:
    data = pd.Series([np.nan if v is None else v for v in values], dtype=np.float64)
    for how in ("skew", "kurt"):
        got = getattr(lazy_copy(data, chunk).expanding(), how)().execute().fetch()
        pd.testing.assert_series_equal(got, getattr(data.expanding(), how)(), rtol=1e-6, atol=1e-8)
