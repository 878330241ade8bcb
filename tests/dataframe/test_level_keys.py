"""``loc`` on rows labelled by a MultiIndex: full tuples, partial keys, lists, slices."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

from tests.dataframe.helpers import CHUNKS, lazy_copy


def sorted_frame() -> pd.DataFrame:
    index = pd.MultiIndex.from_product([list("abc"), [1, 2], ["u", "v"]], names=["k", "n", None])
    return pd.DataFrame({"x": range(12), "y": np.arange(12) * 1.5}, index=index)


def unsorted_frame() -> pd.DataFrame:
    """Two levels, the first unsorted, NaN in the second."""
    index = pd.MultiIndex.from_arrays(
        [list("babcacb"), [1.5, np.nan, 2.5, 1.5, 0.5, np.nan, 0.5]], names=["k", "f"]
    )
    return pd.DataFrame({"x": range(7)}, index=index)


def fetched(obj: Any) -> Any:
    return obj.to_pandas() if hasattr(obj, "to_pandas") else obj.to_numpy()


@pytest.mark.parametrize("chunk", CHUNKS)
def test_loc_with_full_and_partial_keys_matches_pandas(chunk: int | None) -> None:
    df = sorted_frame()
    mdf = lazy_copy(df, chunk)
    for key in ["b", ("b", 1), ["c", "a"], [("c", 1, "u"), ("a", 2, "v")], slice("a", "b")]:
        pd.testing.assert_frame_equal(mdf.loc[key].to_pandas(), df.loc[key])
    pd.testing.assert_frame_equal(
        mdf.loc[("a", 2) : ("b", 1)].to_pandas(), df.loc[("a", 2) : ("b", 1)]
    )
    pd.testing.assert_series_equal(mdf.loc[("a", 2, "u")].to_pandas(), df.loc[("a", 2, "u")])
    pd.testing.assert_series_equal(mdf.loc["b", "x"].to_pandas(), df.loc["b", "x"])
    assert fetched(mdf.loc[("a", 2, "v"), "y"]) == df.loc[("a", 2, "v"), "y"]
    pd.testing.assert_frame_equal(mdf.xs("a").to_pandas(), df.xs("a"))
    s, ms = df["x"], mdf["x"]
    pd.testing.assert_series_equal(ms.loc["c"].to_pandas(), s.loc["c"])
    pd.testing.assert_series_equal(ms.loc["c", 2].to_pandas(), s.loc["c", 2])
    assert fetched(ms.loc["c", 2, "v"]) == s.loc["c", 2, "v"]


@pytest.mark.parametrize("chunk", CHUNKS)
def test_loc_on_an_unsorted_index_with_missing_labels(chunk: int | None) -> None:
    df = unsorted_frame()
    mdf = lazy_copy(df, chunk)
    pd.testing.assert_frame_equal(mdf.loc["b"].to_pandas(), df.loc["b"])
    pd.testing.assert_frame_equal(mdf.loc[["c", "b"]].to_pandas(), df.loc[["c", "b"]])
    pd.testing.assert_series_equal(mdf.loc[("b", 2.5)].to_pandas(), df.loc[("b", 2.5)])
    filtered, expected = mdf[mdf["x"] > 2], df[df["x"] > 2]
    pd.testing.assert_frame_equal(filtered.loc["c"].to_pandas(), expected.loc["c"])
    with pytest.raises(KeyError):
        mdf.loc["z"].to_pandas()
    with pytest.raises(KeyError):
        mdf.loc[("a", 9.0)].to_pandas()
    key = (slice(None), 1.5)  # every first label, one second: no slicing, so no sort needed
    pd.testing.assert_frame_equal(mdf.loc[key, :].to_pandas(), df.loc[key, :])
