"""asof against pandas over several row chunkings: answers found chunks away."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from tests.dataframe.helpers import CHUNKS, lazy_copy

nan = np.nan


def _frame() -> pd.DataFrame:
    return pd.DataFrame(
        {"a": [1.0, nan, 3, 4, 5, nan], "b": [1, 2, nan, 4.0, nan, 7]},
        index=pd.Index([10, 20, 30, 40, 50, 60], name="t"),
    )


WHERE = [5, 25, 35, 55, 65]


@pytest.mark.parametrize("chunk", CHUNKS)
def test_asof_matches_pandas(chunk: int | None) -> None:
    pdf = _frame()
    df = lazy_copy(pdf, chunk)
    pd.testing.assert_frame_equal(df.asof(WHERE).to_pandas(), pdf.asof(WHERE))
    got = df.asof(WHERE, subset=["a"]).to_pandas()
    pd.testing.assert_frame_equal(got, pdf.asof(WHERE, subset=["a"]))
    pd.testing.assert_series_equal(df.b.asof(WHERE).to_pandas(), pdf.b.asof(WHERE))
    pd.testing.assert_series_equal(df.asof(45), pdf.asof(45))
    assert df.a.asof(65) == pdf.a.asof(65)
    assert np.isnan(df.a.asof(5))


def test_asof_on_times_and_bad_subset() -> None:
    pdf = _frame().set_axis(pd.date_range("2021-01-01", periods=6, freq="D"), axis=0)
    df = md.DataFrame(pdf, chunk_size=4)
    where = pd.DatetimeIndex(["2021-01-02 12:00", "2021-01-09"])
    pd.testing.assert_frame_equal(df.asof(where).to_pandas(), pdf.asof(where))
    with pytest.raises(KeyError):
        df.asof(where, subset=["nope"])


@settings(max_examples=15)
@given(
    st.lists(st.one_of(st.none(), st.floats(-9, 9)), min_size=1, max_size=12),
    st.integers(1, 4),
    st.lists(st.integers(-2, 30), min_size=1, max_size=5),
)
def test_any_chunking_matches_pandas(
    values: list[float | None], chunk: int, where: list[int]
) -> None:
    s = pd.Series([nan if v is None else v for v in values], index=np.arange(len(values)) * 2)
    got = md.Series(s, chunk_size=chunk).asof(where).to_pandas()
    pd.testing.assert_series_equal(got, s.asof(where))
