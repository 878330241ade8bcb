"""``median`` and ``quantile`` of DataFrame and Series, exact.

Columns of NumPy integers and floats go by parallel selection (``selection``): sketches
up a tree choose a narrow window of values around each wanted rank, chunks count and
keep what falls in it, and one task reads the ranks from those few values. Other columns
(dates, booleans, extension types) and pandas' ``method="table"`` are gathered in row
order into one task by a tree of concatenations, where pandas computes the result. Both
give pandas' numbers, dtypes and labels; a Series gives a lazy 0-d tensor for a scalar
``q`` and a lazy Series for a list.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.arithmetic import call_method
from jupyter_mars.dataframe.axes import axis_number, rows_only
from jupyter_mars.dataframe.core import DataFrame, Series
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.reduction.args import probe_frame
from jupyter_mars.dataframe.sort.selection import (
    FrameLayout,
    scalar_of,
    select_quantiles,
    selectable,
)
from jupyter_mars.dataframe.sort.tree import Gather, tree_frame, tree_tensor


def _selection_args(how: str, kwargs: dict[str, Any]) -> tuple[tuple[float, ...], bool, str] | None:
    """``(quantiles, scalar q, interpolation)`` when the selection path computes the
    call exactly; None for what it leaves to the gathering path."""
    if how == "median":
        return ((0.5,), True, "linear") if kwargs["skipna"] else None
    if kwargs.get("method", "single") != "single":
        return None
    q = kwargs["q"]
    scalar = np.ndim(q) == 0
    qs = tuple(float(v) for v in np.atleast_1d(np.asarray(q, dtype=np.float64)))
    return qs, scalar, kwargs["interpolation"]


def _frame_result(frame: DataFrame, how: str, kwargs: dict[str, Any]) -> Any:
    meta = getattr(frame.meta, how)(**kwargs)  # pandas checks q, dtypes and arguments
    labels = meta.index if isinstance(meta, pd.Series) else meta.columns
    chosen = _selection_args(how, kwargs)
    columns = frame.meta.columns
    if chosen is not None and columns.is_unique and len(labels):
        positions = tuple(int(columns.get_loc(c)) for c in labels)
        dtypes = [frame.meta.dtypes.iloc[p] for p in positions]
        if selectable(dtypes):
            qs, scalar, interpolation = chosen
            probe = getattr(probe_frame(frame.meta.iloc[:, list(positions)]), how)(**kwargs)
            out_dtypes = (
                probe.dtypes if isinstance(probe, pd.DataFrame) else [probe.dtype] * len(labels)
            )
            layout = FrameLayout(
                qs,
                scalar,
                pd.Index(labels),
                tuple(out_dtypes),
                row_name="q" if how == "quantile" else None,
            )
            return select_quantiles(frame, positions, qs, interpolation, layout, empty_like(meta))
    kernels = Gather(how, kwargs, tuple(labels))
    return tree_frame(frame, kernels, how, empty_like(meta), len(meta))


def _series_result(series: Series, how: str, kwargs: dict[str, Any]) -> Any:
    meta = getattr(series.meta, how)(**kwargs)
    chosen = _selection_args(how, kwargs)
    if chosen is not None and selectable([series.meta.dtype]):
        qs, scalar, interpolation = chosen
        probe = getattr(probe_frame(series.meta.to_frame()).iloc[:, 0], how)(**kwargs)
        dtype = np.asarray(probe).dtype
        layout = FrameLayout(qs, scalar, pd.Index([]), (dtype,), series=True, name=series.name)
        lazy_meta = pd.Series(
            [], index=pd.Index([], dtype=np.float64), dtype=dtype, name=series.name
        )
        found = select_quantiles(series, (None,), qs, interpolation, layout, lazy_meta)
        return scalar_of(found, dtype) if scalar else found
    if isinstance(meta, pd.Series):
        return tree_frame(series, Gather(how, kwargs), how, empty_like(meta), len(meta))
    return tree_tensor(series, Gather(how, kwargs), how, (), np.asarray(meta).dtype)


INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _check_interpolation(interpolation: Any) -> None:
    if interpolation not in INTERPOLATIONS:
        raise ValueError(
            f"interpolation must be one of {', '.join(INTERPOLATIONS)}, got {interpolation!r}"
        )


def frame_quantile(
    frame: DataFrame,
    q: Any = 0.5,
    axis: Any = 0,
    numeric_only: bool = False,
    interpolation: str = "linear",
    method: str = "single",
) -> Any:
    """Column quantiles: a Series named ``q`` for a scalar, a DataFrame indexed by ``q``
    for a list; ``axis=1`` with a scalar ``q``: each row's quantile."""
    _check_interpolation(interpolation)
    kwargs = dict(q=q, numeric_only=numeric_only, interpolation=interpolation, method=method)
    if axis_number(frame.meta, axis) == 1 and np.ndim(q) == 0:
        return _per_row(frame, "quantile", kwargs)
    rows_only(frame.meta, axis, "quantile with a list of q")
    return _frame_result(frame, "quantile", kwargs)


def _per_row(frame: DataFrame, method: str, kwargs: dict[str, Any]) -> Any:
    """A row lies whole in one row chunk: pandas' own method across it, chunk by chunk."""
    kwargs = {**kwargs, "axis": 1}
    meta = empty_like(getattr(frame.meta, method)(**kwargs))
    return map_chunks(call_method, [frame], (Slot(0), method), meta, kwargs, method)


def frame_median(
    frame: DataFrame, axis: Any = 0, skipna: bool = True, numeric_only: bool = False
) -> Any:
    """Column medians (``axis=1``: each row's), as a lazy Series."""
    kwargs = dict(skipna=skipna, numeric_only=numeric_only)
    if axis is None:
        return _median_of_all(frame, kwargs)
    if axis_number(frame.meta, axis) == 1:
        return _per_row(frame, "median", kwargs)
    return _frame_result(frame, "median", kwargs)


def flat_values(chunk: pd.DataFrame) -> pd.Series:
    """Every value of a chunk, as floats in one Series (their order does not matter)."""
    return pd.Series(chunk.to_numpy(dtype=np.float64, na_value=np.nan).ravel())


def _median_of_all(frame: DataFrame, kwargs: dict[str, Any]) -> Any:
    """``median(axis=None)``: the median of every value, as a lazy 0-d tensor."""
    probe_frame(frame.meta).median(axis=None, **kwargs)  # pandas' TypeError for text
    source = frame.select_dtypes(["number", "bool"]) if kwargs["numeric_only"] else frame
    kinds = {t.kind for t in source.meta.dtypes if isinstance(t, np.dtype)}
    if len(kinds) < len(set(source.meta.dtypes)) or not kinds <= set("iufb"):
        raise NotImplementedError("median(axis=None) takes numbers and booleans only")
    values = map_chunks(
        flat_values,
        [source],
        (Slot(0),),
        pd.Series(dtype=np.float64),
        name="flat_values",
        keeps_rows=False,
    )
    return _series_result(values, "median", dict(kwargs, numeric_only=False))


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
