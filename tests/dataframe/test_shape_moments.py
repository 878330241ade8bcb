"""skew and kurt(osis) of DataFrame and Series against pandas over several chunkings."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.dataframe.helpers import CHUNKS, lazy_copy


def _frame() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    return pd.DataFrame(
        {
            "f": rng.normal(size=11) * 1e3 + 5e6,
            "i": np.r_[np.nan, rng.integers(0, 5, 10)],
            "same": [1] * 11,
            "b": rng.random(11) > 0.5,
            "s": list("abcdefghijk"),
        }
    )


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("how", ["skew", "kurt", "kurtosis"])
@pytest.mark.parametrize("skipna", [True, False])
def test_frame_shape_moments_match_pandas(chunk: int | None, how: str, skipna: bool) -> None:
    data = _frame().drop(columns="s")
    lazy = lazy_copy(data, chunk)
    got = getattr(lazy, how)(skipna=skipna).execute().fetch()
    pd.testing.assert_series_equal(got, getattr(data, how)(skipna=skipna))
    got = getattr(lazy, how)(axis=1).execute().fetch()
    pd.testing.assert_series_equal(got, getattr(data, how)(axis=1))
    flat = getattr(lazy, how)(axis=None).execute().fetch()
    np.testing.assert_allclose(flat, getattr(data, how)(axis=None), rtol=1e-9)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_series_skew_is_a_lazy_scalar(chunk: int | None) -> None:
    data = _frame()["f"]
    lazy = lazy_copy(data, chunk)
    np.testing.assert_allclose(lazy.skew().execute().fetch(), data.skew(), rtol=1e-9)
    np.testing.assert_allclose(lazy.kurt().execute().fetch(), data.kurt(), rtol=1e-9)


def test_non_numeric_columns_raise_unless_numeric_only() -> None:
    data = _frame()
    lazy = lazy_copy(data, 4)
    with pytest.raises(TypeError, match="skew"):
        lazy.skew()
    with pytest.raises(TypeError):
        data.skew()
    got = lazy.kurt(numeric_only=True).execute().fetch()
    pd.testing.assert_series_equal(got, data.kurt(numeric_only=True))


@settings(max_examples=25, deadline=None)
@given(
    values=st.lists(
        st.one_of(st.none(), st.floats(-1e6, 1e6, allow_nan=False)), min_size=0, max_size=14
    ),
    chunk=st.integers(1, 5),
)
def test_merged_moments_match_one_pass(values: list[float | None], chunk: int) -> None:
    data = pd.Series([np.nan if v is None else v for v in values], dtype=np.float64)
    lazy = lazy_copy(data, chunk)
    for how in ("skew", "kurt"):
        got = getattr(lazy, how)().execute().fetch()
        expected = getattr(data, how)()
        if np.isnan(expected):
            # all-equal values can differ from pandas by rounding in the merged m2
            assert np.isnan(got) or abs(got) < 1e-3 or data.nunique() <= 1
        else:
            np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6)
