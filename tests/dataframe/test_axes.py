"""One reading of ``axis`` for every method, checked against pandas' own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest

from jupyter_mars.dataframe.axes import axis_number
from tests.dataframe.helpers import lazy_copy

AXES = [0, 1, "index", "rows", "columns", 2, -1, None, True, np.int64(1), 1.0, "cols"]


@pytest.mark.parametrize("axis", AXES, ids=repr)
@pytest.mark.parametrize("kind", ["DataFrame", "Series"])
def test_axis_number_is_pandas(axis: Any, kind: str) -> None:
    meta = pd.DataFrame({"a": [1.0]}) if kind == "DataFrame" else pd.Series([1.0])
    try:
        expected: Any = meta._get_axis_number(axis)
    except ValueError as error:
        with pytest.raises(ValueError, match=str(error)):
            axis_number(meta, axis)
    else:
        assert axis_number(meta, axis) == expected


def _frame() -> pd.DataFrame:
    rng = np.random.default_rng(3)
    values = rng.random((7, 3))
    values[1, 2] = np.nan
    return pd.DataFrame(values, columns=["a", "b", "c"])


CALLS: list[tuple[str, Callable[[Any, Any], Any]]] = [
    ("sum", lambda d, ax: d.sum(axis=ax)),
    ("count", lambda d, ax: d.count(axis=ax)),
    ("idxmax", lambda d, ax: d.idxmax(axis=ax)),
    ("median", lambda d, ax: d.median(axis=ax)),
    ("quantile", lambda d, ax: d.quantile(0.3, axis=ax)),
    ("fillna", lambda d, ax: d.fillna(0.0, axis=ax)),
    ("ffill", lambda d, ax: d.ffill(axis=ax)),
    ("cumsum", lambda d, ax: d.cumsum(axis=ax)),
    ("diff", lambda d, ax: d.diff(axis=ax)),
    ("apply", lambda d, ax: d.apply(np.sum, axis=ax)),
    ("agg", lambda d, ax: d.agg("sum", axis=ax)),
]


@pytest.mark.parametrize("chunk", [3, None])
@pytest.mark.parametrize("axis", [0, 1, "columns", 2, "cols"], ids=repr)
@pytest.mark.parametrize(("name", "call"), CALLS, ids=[c[0] for c in CALLS])
def test_methods_read_axis_as_pandas(
    name: str, call: Callable[[Any, Any], Any], axis: Any, chunk: int | None
) -> None:
    df = _frame()
    try:
        expected = call(df, axis)
    except ValueError as error:
        with pytest.raises(ValueError, match=str(error)):
            call(lazy_copy(df, chunk), axis)
        return
    result = call(lazy_copy(df, chunk), axis)
    got = result.to_pandas() if hasattr(result, "to_pandas") else result.execute().fetch()
    if isinstance(expected, pd.DataFrame):
        pd.testing.assert_frame_equal(got, expected)
    else:
        pd.testing.assert_series_equal(got, expected)


@pytest.mark.parametrize("axis", [1, "columns", 2], ids=repr)
def test_a_series_has_one_axis(axis: Any) -> None:
    s = _frame()["a"]
    with pytest.raises(ValueError, match=f"No axis named {axis} for object type Series"):
        lazy_copy(s, 3).sum(axis=axis)
    with pytest.raises(ValueError, match="No axis named"):
        s.sum(axis=axis)


def test_refused_directions_say_so() -> None:
    """mode across rows (its column count depends on the data) is not supported; a bad
    axis is pandas' ValueError before that."""
    d = lazy_copy(_frame(), 3)
    with pytest.raises(NotImplementedError, match="mode"):
        d.mode(axis=1)
    with pytest.raises(ValueError, match="No axis named 2"):
        d.mode(axis=2)
    with pytest.raises(NotImplementedError, match="only axis=0"):
        d.sort_values("a", axis=1)
