"""agg of rolling, expanding and ewm windows against pandas over several chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

from tests.dataframe.helpers import CHUNKS, lazy_copy

WINDOWS = {
    "rolling": lambda o: o.rolling(2),
    "expanding": lambda o: o.expanding(),
    "ewm": lambda o: o.ewm(alpha=0.5),
}
FUNCS: dict[str, list[Any]] = {
    "rolling": [["sum", "mean"], {"a": "sum", "b": ["min", "max"]}, {"a": "std"}, "median"],
    "expanding": [["sum", np.mean], {"a": "sum", "b": ["min", "max"]}, {"b": "var"}, "max"],
    "ewm": [["mean"], {"a": "mean", "b": ["mean"]}, "mean"],
}


def _frame() -> pd.DataFrame:
    return pd.DataFrame(
        {"a": [1.0, 2, np.nan, 4, 5, 7, 1], "b": [1, 2, 3, 4, 5, 0, 3]},
        index=pd.Index(list("pqrstuv"), name="k"),
    )


def _same(got: Any, expected: Any) -> None:
    if isinstance(expected, pd.DataFrame):
        pd.testing.assert_frame_equal(got, expected)
    else:
        pd.testing.assert_series_equal(got, expected)


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize(("kind", "func"), [(k, f) for k, fs in FUNCS.items() for f in fs])
def test_window_agg_matches_pandas(chunk: int | None, kind: str, func: Any) -> None:
    data = _frame()
    window = WINDOWS[kind]
    _same(window(lazy_copy(data, chunk)).agg(func).execute().fetch(), window(data).agg(func))
    if not isinstance(func, dict):
        series = data["a"]
        got = window(lazy_copy(series, chunk)).aggregate(func).execute().fetch()
        _same(got, window(series).aggregate(func))


def test_window_agg_bad_input() -> None:
    lazy = lazy_copy(_frame(), 3)
    with pytest.raises(KeyError):
        lazy.expanding().agg({"zz": "sum"})
    with pytest.raises(AttributeError, match="nope"):
        lazy.rolling(2).agg(["nope"])
