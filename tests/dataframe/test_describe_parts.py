"""describe from reductions, selected quantiles and value counts, against pandas."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

from jupyter_mars.dataframe.collect import Collect
from tests.dataframe.helpers import CHUNKS, lazy_copy


def _frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "i": [3, 1, 3, 2, 1, 3, 2, 1],
            "f": [0.5, np.nan, 2.25, -1.0, 0.5, np.nan, 7.0, 0.5],
            "s": ["b", "a", None, "c", "a", "b", "c", None],
            "b": [True, False, True, True, False, True, True, True],
            "c": pd.Categorical(list("xyxzxyxx")),
        }
    )


KWARGS: list[dict[str, Any]] = [
    {},
    {"include": "all"},
    {"percentiles": [0.1, 0.9]},
    {"include": ["bool", "category"]},
    {"exclude": ["number"]},
]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("kwargs", KWARGS)
def test_describe_from_parts_matches_pandas(chunk: int | None, kwargs: dict[str, Any]) -> None:
    data = _frame()
    lazy = lazy_copy(data, chunk).describe(**kwargs)
    assert isinstance(lazy.op, Collect)  # the parts path, not a gathering of the columns
    pd.testing.assert_frame_equal(lazy.execute().fetch(), data.describe(**kwargs), rtol=1e-12)


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("column", ["i", "b", "c"])
def test_series_describe_from_parts(chunk: int | None, column: str) -> None:
    data = _frame()[column]
    got = lazy_copy(data, chunk).describe(percentiles=[0.3]).execute().fetch()
    pd.testing.assert_series_equal(got, data.describe(percentiles=[0.3]), rtol=1e-12)


def test_dates_still_described_exactly() -> None:
    data = pd.DataFrame({"t": pd.date_range("2024-01-01", periods=6), "v": np.arange(6.0)})
    got = lazy_copy(data, 4).describe().execute().fetch()
    pd.testing.assert_frame_equal(got, data.describe())
