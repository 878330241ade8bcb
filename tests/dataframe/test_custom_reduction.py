"""md.CustomReduction: pre/agg/post reductions up a tree, as Mars defines them."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md
from tests.dataframe.helpers import CHUNKS, lazy_copy


class MeanOf(md.CustomReduction):
    def pre(self, data: pd.Series) -> tuple[float, int]:
        return data.sum(), data.count()

    def agg(self, total: pd.Series, count: pd.Series) -> tuple[float, int]:
        return total.sum(), count.sum()

    def post(self, total: float, count: int) -> float:
        return total / count if count else np.nan


class Largest(md.CustomReduction):
    def agg(self, values: pd.Series) -> float:
        return values.max()


def _frame() -> pd.DataFrame:
    return pd.DataFrame({"a": [1.0, 2, 3, np.nan, 5, 8, 1], "b": [1, 2, 3, 4, 5, 1, 2]})


@pytest.mark.parametrize("chunk", CHUNKS)
def test_custom_reduction_of_series_and_frame(chunk: int | None) -> None:
    data = _frame()
    lazy = lazy_copy(data, chunk)
    assert MeanOf()(lazy["a"]).execute().fetch() == pytest.approx(data["a"].mean())
    assert Largest()(lazy["b"]).execute().fetch() == data["b"].max()
    got = MeanOf()(lazy).execute().fetch()
    pd.testing.assert_series_equal(got, data.mean())


@pytest.mark.parametrize("chunk", CHUNKS)
def test_custom_reduction_in_agg_and_groupby(chunk: int | None) -> None:
    data = _frame()
    lazy = lazy_copy(data, chunk)
    got = lazy.agg(["sum", MeanOf(name="avg")]).execute().fetch()
    expected = data.agg(["sum", "mean"]).rename(index={"mean": "avg"})
    pd.testing.assert_frame_equal(got, expected)
    got = lazy.groupby("b").agg(MeanOf(name="avg")).execute().fetch()
    pd.testing.assert_frame_equal(got, data.groupby("b").mean())


def test_pandas_data_runs_the_three_steps_at_once() -> None:
    data = _frame()
    assert MeanOf()(data["a"]) == pytest.approx(data["a"].mean())
    assert MeanOf("m").__name__ == "m"
    with pytest.raises(NotImplementedError, match="agg"):
        md.CustomReduction()(data["a"])
