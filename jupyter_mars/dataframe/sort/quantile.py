"""``median`` and ``quantile`` of DataFrame and Series, exact.

An exact quantile depends on the order of all the values of a column. The values of the
columns involved (the numeric ones, or those pandas would use) are gathered in row order
into one task by a tree of concatenations, and pandas computes the result there: the
same numbers, dtypes and labels as pandas, bit for bit. The memory of that task is that
of the columns it gathers (not the other columns); a Series gives a lazy 0-d tensor for
a scalar ``q`` and a lazy Series for a list.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.core import DataFrame, Series
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.sort._tree import Gather, tree_frame, tree_tensor


def _frame_result(frame: DataFrame, how: str, kwargs: dict[str, Any]) -> Any:
    meta = getattr(frame.meta, how)(**kwargs)  # pandas checks q, dtypes and arguments
    labels = meta.index if isinstance(meta, pd.Series) else meta.columns
    kernels = Gather(how, kwargs, tuple(labels))
    return tree_frame(frame, kernels, how, empty_like(meta), len(meta))


def _series_result(series: Series, how: str, kwargs: dict[str, Any]) -> Any:
    meta = getattr(series.meta, how)(**kwargs)
    if isinstance(meta, pd.Series):
        return tree_frame(series, Gather(how, kwargs), how, empty_like(meta), len(meta))
    return tree_tensor(series, Gather(how, kwargs), how, (), np.asarray(meta).dtype)


INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _check_interpolation(interpolation: Any) -> None:
    if interpolation not in INTERPOLATIONS:
        raise ValueError(
            f"interpolation must be one of {', '.join(INTERPOLATIONS)}, got {interpolation!r}"
        )


def _check_axis(axis: Any) -> None:
    if axis not in (0, "index", "rows"):
        raise NotImplementedError(f"only axis=0 (down the rows) is supported, got {axis!r}")


def frame_quantile(
    frame: DataFrame,
    q: Any = 0.5,
    axis: Any = 0,
    numeric_only: bool = False,
    interpolation: str = "linear",
    method: str = "single",
) -> Any:
    """Column quantiles: a Series named ``q`` for a scalar, a DataFrame indexed by ``q``
    for a list."""
    _check_axis(axis)
    _check_interpolation(interpolation)
    kwargs = dict(q=q, numeric_only=numeric_only, interpolation=interpolation, method=method)
    return _frame_result(frame, "quantile", kwargs)


def frame_median(
    frame: DataFrame, axis: Any = 0, skipna: bool = True, numeric_only: bool = False
) -> Any:
    """Column medians, as a lazy Series."""
    _check_axis(axis)
    return _frame_result(frame, "median", dict(skipna=skipna, numeric_only=numeric_only))


def series_quantile(series: Series, q: Any = 0.5, interpolation: str = "linear") -> Any:
    """The ``q`` quantile: a lazy 0-d tensor for a scalar, a lazy Series for a list."""
    _check_interpolation(interpolation)
    return _series_result(series, "quantile", dict(q=q, interpolation=interpolation))


def series_median(
    series: Series, axis: Any = None, skipna: bool = True, numeric_only: bool = False
) -> Any:
    """The median, as a lazy 0-d tensor."""
    if axis not in (None, 0, "index", "rows"):
        raise ValueError(f"axis must be 0, 'index' or None for a Series, got {axis!r}")
    return _series_result(series, "median", dict(skipna=skipna, numeric_only=numeric_only))


def _attach() -> None:
    frame_methods: dict[str, Any] = {"quantile": frame_quantile, "median": frame_median}
    series_methods: dict[str, Any] = {"quantile": series_quantile, "median": series_median}
    for attr, value in frame_methods.items():
        setattr(DataFrame, attr, value)
    for attr, value in series_methods.items():
        setattr(Series, attr, value)


_attach()
