"""DataFrame.agg and Series.agg against pandas: names, functions, lists and dicts."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

from tests.dataframe.helpers import CHUNKS, lazy_copy


def _frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "a": [1, 2, 3, 4, 5, 6, 7],
            "b": [1.5, np.nan, 2.0, 3.0, 4.0, -1.0, 0.25],
            "c": list("vwxyzst"),
        },
        index=pd.Index(list("ABCDEFG"), name="k"),
    )


def _run(obj: Any) -> Any:
    return obj.execute().fetch() if hasattr(obj, "execute") else obj


def _spread(x: Any) -> Any:
    return x.max() - x.min()


FRAME_FUNCS = [
    "sum",
    ["sum", "min"],
    ["min", "max", "count"],
    {"a": "sum", "b": "mean"},
    {"a": ["sum", "mean"], "b": "max"},
    {"c": ["min"], "a": [np.sum, "std"]},
]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("func", FRAME_FUNCS)
def test_frame_agg_matches_pandas(chunk: int | None, func: Any) -> None:
    data = _frame()
    got = _run(lazy_copy(data, chunk).agg(func))
    expected = data.agg(func)
    if isinstance(expected, pd.DataFrame):
        pd.testing.assert_frame_equal(got, expected)
    else:
        pd.testing.assert_series_equal(got, expected)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_numeric_frame_agg_with_numpy_and_user_functions(chunk: int | None) -> None:
    data = _frame()[["a", "b"]]
    funcs = ["mean", "std", np.sum, _spread, "skew"]
    got = _run(lazy_copy(data, chunk).aggregate(funcs))
    pd.testing.assert_frame_equal(got, data.aggregate(funcs))
    got = _run(lazy_copy(data, chunk).agg(_spread))
    pd.testing.assert_series_equal(got, data.agg(_spread))


@pytest.mark.parametrize("chunk", CHUNKS)
def test_series_agg_matches_pandas(chunk: int | None) -> None:
    data = _frame()["b"].rename("bee")
    lazy = lazy_copy(data, chunk)
    np.testing.assert_allclose(_run(lazy.agg("sum")), data.agg("sum"))
    np.testing.assert_allclose(_run(lazy.agg(np.mean)), data.agg(np.mean))
    for func in (["sum", "mean", _spread], {"lo": "min", "hi": "max"}):
        pd.testing.assert_series_equal(_run(lazy.agg(func)), data.agg(func))


def test_frame_agg_axis_1_and_bad_input() -> None:
    data = _frame()[["a", "b"]]
    lazy = lazy_copy(data, 3)
    pd.testing.assert_series_equal(_run(lazy.agg("sum", axis=1)), data.agg("sum", axis=1))
    with pytest.raises(KeyError):
        lazy.agg({"zz": "sum"})
    with pytest.raises(AttributeError, match="nope"):
        lazy.agg("nope")
    with pytest.raises(ValueError, match="axis"):
        lazy_copy(data["a"], 3).agg("sum", axis=1)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_frame_agg_across_rows_and_series_size(chunk: int | None) -> None:
    data = _frame()[["a", "b"]]
    lazy = lazy_copy(data, chunk)
    got = _run(lazy.agg(["sum", "mean"], axis=1))
    pd.testing.assert_frame_equal(got, data.agg(["sum", "mean"], axis=1))
    got = _run(lazy["b"].agg(["size", "count"]))
    pd.testing.assert_series_equal(got, data["b"].agg(["size", "count"]))
