"""interpolate against pandas over several row chunkings: runs of NaN that span chunks,
limits, directions and areas, label-based and SciPy methods."""

from __future__ import annotations

import itertools
from typing import Any

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
        {
            "f": [nan, 1.5, nan, nan, nan, 2.0, nan, nan, 4.0, nan, nan],
            "g": [1.0, nan, nan, 3.0, nan, nan, nan, nan, nan, nan, 7.0],
            "h": [nan] * 11,
            "i": np.arange(11),
        },
        index=pd.Index([0, 1, 3, 4, 8, 9, 10, 15, 16, 20, 21], name="k"),
    )


LIMITS = list(itertools.product([None, 2], [None, "backward", "both"], [None, "inside"])) + [
    (1, "both", "outside"),
    (None, "backward", "outside"),
    (1, "forward", None),
]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("method", ["linear", "index", "nearest", "zero", "slinear"])
def test_local_methods_match_pandas(chunk: int | None, method: str) -> None:
    pdf = _frame()
    df = lazy_copy(pdf, chunk)
    for limit, direction, area in LIMITS:
        kwargs = {"limit": limit, "limit_direction": direction, "limit_area": area}
        got = df.interpolate(method, **kwargs).to_pandas()
        pd.testing.assert_frame_equal(got, pdf.interpolate(method, **kwargs))


@pytest.mark.parametrize("chunk", CHUNKS)
def test_time_and_curve_methods_match_pandas(chunk: int | None) -> None:
    pdf = _frame().set_axis(pd.date_range("2020-01-01", periods=11, freq="7h"), axis=0)
    pdf.index = pdf.index.delete(3).insert(3, pd.Timestamp("2020-01-01 23:00"))
    df = lazy_copy(pdf, chunk)
    pd.testing.assert_frame_equal(df.interpolate("time").to_pandas(), pdf.interpolate("time"))
    got = df.f.interpolate("polynomial", order=2).to_pandas()
    pd.testing.assert_series_equal(got, pdf.f.interpolate("polynomial", order=2))
    got = df.interpolate(axis=1).to_pandas()
    pd.testing.assert_frame_equal(got, pdf.interpolate(axis=1))


def test_bad_arguments_raise_at_the_call() -> None:
    df = md.DataFrame(_frame(), chunk_size=3)
    with pytest.raises(ValueError, match="limit_direction"):
        df.interpolate(limit_direction="sideways")
    with pytest.raises(ValueError, match="Limit must be greater than 0"):
        df.interpolate(limit=0)
    with pytest.raises(ValueError, match="method"):
        df.interpolate("pad")
    with pytest.raises(ValueError, match="time"):
        df.interpolate("time")


@settings(max_examples=20)
@given(
    st.lists(st.one_of(st.none(), st.floats(-5, 5)), min_size=1, max_size=16),
    st.integers(1, 5),
    st.sampled_from([None, 1, 3]),
    st.sampled_from(["forward", "backward", "both"]),
    st.sampled_from([None, "inside", "outside"]),
)
def test_any_chunking_matches_pandas(
    values: list[Any], chunk: int, limit: Any, direction: str, area: Any
) -> None:
    s = pd.Series([nan if v is None else v for v in values], dtype=float)
    kwargs = {"limit": limit, "limit_direction": direction, "limit_area": area}
    got = md.Series(s, chunk_size=chunk).interpolate(**kwargs).to_pandas()
    pd.testing.assert_series_equal(got, s.interpolate(**kwargs))
