"""plot, hist and boxplot draw the fetched data with pandas' matplotlib backend."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
plt = pytest.importorskip("matplotlib.pyplot")

FRAME = pd.DataFrame({"a": np.arange(6.0), "b": np.arange(6.0) ** 2})


def test_plots_draw_the_data() -> None:
    df = md.DataFrame(FRAME, chunk_size=4)
    try:
        ax = df.plot(x="a", y="b")
        np.testing.assert_array_equal(ax.get_lines()[0].get_ydata(), FRAME["b"].to_numpy())
        ax = df["b"].plot.bar()
        assert len(ax.patches) == len(FRAME)
        axes = df.hist(bins=3)
        assert axes.shape == FRAME.hist(bins=3).shape
        assert df.boxplot(column=["a"]) is not None
    finally:
        plt.close("all")
