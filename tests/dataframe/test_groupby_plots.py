"""A grouping's plot, hist and boxplot draw the fetched groups with pandas' own grouped
plotting, and its ``level`` is what it was grouped by."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

from tests.dataframe.helpers import CHUNKS, lazy_copy

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
plt = pytest.importorskip("matplotlib.pyplot")

FRAME = pd.DataFrame(
    {"k": [1, 2, 1, 2, 1, 3], "a": np.arange(6.0), "b": np.arange(6.0) ** 2},
    index=pd.Index(list("uvwxyz"), name="r"),
)


def _ydata(axes: Any) -> list[list[float]]:
    return [list(line.get_ydata()) for ax in np.ravel(axes) for line in ax.get_lines()]


@pytest.mark.parametrize("chunk", CHUNKS)
def test_grouped_plots_draw_each_group(chunk: int | None) -> None:
    lazy: Any = lazy_copy(FRAME, chunk)
    try:
        got = lazy.groupby("k").a.plot()
        expected = FRAME.groupby("k").a.plot()
        pd.testing.assert_series_equal(got.map(type), expected.map(type))
        plt.close("all")
        got = lazy.groupby("k").plot.line(y="b")
        expected = FRAME.groupby("k").plot.line(y="b")
        assert [_ydata(ax) for ax in got] == [_ydata(ax) for ax in expected]
        plt.close("all")
        got = lazy.groupby("k").hist(column="a", bins=2)
        expected = FRAME.groupby("k").hist(column="a", bins=2)
        assert list(got.index) == list(expected.index)
        got = lazy.groupby("k").b.hist(bins=2)
        assert list(got.index) == list(FRAME.groupby("k").b.hist(bins=2).index)
        got = lazy.groupby("k").boxplot(column="a")
        expected = FRAME.groupby("k").boxplot(column="a")
        assert np.shape(got) == np.shape(expected)
    finally:
        plt.close("all")
    assert not hasattr(lazy.groupby("k").a, "boxplot")


def test_level() -> None:
    lazy: Any = lazy_copy(FRAME, 2)
    assert lazy.groupby("k").level is None
    assert lazy.groupby(level="r").level == "r"
    assert lazy.set_index("k", append=True).groupby(level=[0, 1]).level == [0, 1]
