"""``agg`` / ``aggregate`` of DataFrame and Series: names, functions, lists and dicts.

Each requested statistic is computed by the lazy method of the same name (a tree
reduction per function, over all the columns it applies to), or by calling a function on
the lazy column (``lambda s: s.max() - s.min()`` stays lazy). When several statistics
are asked for, one ``collect`` task lays their small results out as pandas does: a
Series per label list, a DataFrame of functions by columns. The result's meta comes from
pandas' own ``agg`` on a one-row probe with the same dtypes, which also checks the
arguments at the call.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.axes import axis_number
from jupyter_mars.dataframe.collect import collect
from jupyter_mars.dataframe.core import DataFrame, Series
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.reduction.args import probe_frame
from jupyter_mars.executable import Executable

NUMPY_NAMES: dict[Any, str] = {
    np.sum: "sum",
    np.nansum: "sum",
    np.prod: "prod",
    np.mean: "mean",
    np.nanmean: "mean",
    np.min: "min",
    np.max: "max",
    np.std: "std",
    np.var: "var",
    np.median: "median",
    np.nanmedian: "median",
    np.all: "all",
    np.any: "any",
    np.size: "size",
}
"""NumPy functions pandas runs as its own method of that name."""


def func_label(func: Any) -> Any:
    """The label pandas gives a function in a list: its name, or the string itself."""
    return func if isinstance(func, str) else getattr(func, "__name__", repr(func))


def _check_func(obj: Any, func: Any) -> None:
    if func == "size":
        return
    if isinstance(func, str) and not callable(getattr(obj, func, None)):
        raise AttributeError(f"{func!r} is not a valid function for {type(obj).__name__!r} object")
    if not isinstance(func, str) and not callable(func):
        raise TypeError(f"func must be a string, a function, a list or a dict, got {func!r}")


def apply_one(obj: Any, func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``func`` of a lazy Series or DataFrame: its method, or the function called on it."""
    name = NUMPY_NAMES.get(func, func)
    _check_func(obj, name)
    if isinstance(name, str):
        if name == "size":  # every row, missing values included
            if isinstance(obj, Series):
                return obj.isna().count()  # type: ignore[attr-defined]
            return obj.size
        return getattr(obj, name)(*args, **kwargs)
    return name(obj, *args, **kwargs)


@dataclass(frozen=True)
class SeriesLayout:
    """Scalars (one per label) into a Series named ``name``."""

    labels: tuple[Any, ...]
    name: Any

    def __call__(self, values: list[Any]) -> pd.Series:
        return pd.Series(list(values), index=pd.Index(self.labels), name=self.name)


@dataclass(frozen=True)
class FrameLayout:
    """Per-column results into a DataFrame of function labels by columns.

    ``cells[c]`` lists ``(label, part, key)`` for column ``columns[c]``: the value is
    ``values[part][key]`` (key None: the part is the column's value itself)."""

    columns: tuple[Any, ...]
    labels: tuple[Any, ...]
    cells: tuple[tuple[tuple[Any, int, Any], ...], ...]
    columns_index: Any = None
    dtypes: tuple[Any, ...] | None = None
    """pandas' dtype of each result column: a statistic shared by several columns comes
    from one frame reduction, whose values are upcast together (ints next to floats)."""

    def __call__(self, values: list[Any]) -> pd.DataFrame:
        series = []
        for c, cells in enumerate(self.cells):
            got = [values[p] if key is None else values[p][key] for _, p, key in cells]
            column = pd.Series(got, index=pd.Index([lab for lab, _, _ in cells]))
            column = column.reindex(pd.Index(self.labels))
            if self.dtypes is not None:
                column = _cast_back(column, self.dtypes[c])
            series.append(column)
        out = pd.concat(series, axis=1) if series else pd.DataFrame(index=self.labels)
        out.columns = self.columns_index if self.columns_index is not None else self.columns
        return out


def _cast_back(column: pd.Series, dtype: Any) -> pd.Series:
    """``column`` in ``dtype`` where its values take it exactly (a sum of ints that came
    out of a float reduction), else as it is (a NaN the metadata did not foresee)."""
    if column.dtype == dtype:
        return column
    try:
        cast = column.astype(dtype)
    except (TypeError, ValueError):
        return column
    same = cast.eq(column) | (cast.isna() & column.isna())
    return cast if bool(same.all()) else column


@dataclass(frozen=True)
class ValuesOf:
    """Per-column scalars into a Series indexed by the columns (``{col: func}``)."""

    columns: tuple[Any, ...]
    cells: tuple[tuple[int, Any], ...]

    def __call__(self, values: list[Any]) -> pd.Series:
        got = [values[p] if key is None else values[p][key] for p, key in self.cells]
        return pd.Series(got, index=pd.Index(self.columns))


@dataclass(frozen=True)
class Assemble:
    """Columns taken from several row-aligned results, under new labels."""

    cells: tuple[tuple[int, int | None], ...]
    """Per output column: the result it comes from and its column position there (None:
    the result is a Series)."""
    columns: pd.Index

    def __call__(self, *chunks: Any) -> pd.DataFrame:
        picked = [
            chunks[p] if position is None else chunks[p].iloc[:, position]
            for p, position in self.cells
        ]
        out = pd.concat(picked, axis=1) if picked else pd.DataFrame(index=chunks[0].index)
        out.columns = self.columns
        return out


def _as_list(funcs: Any) -> list[Any]:
    return list(funcs) if isinstance(funcs, (list, tuple)) else [funcs]


def _lazy_result(build: Callable[[list[Any]], Any], parts: list[Any], meta: Any) -> Any:
    if not any(isinstance(p, Executable) for p in parts):  # nothing to compute
        out = build(parts)
        return (DataFrame if isinstance(out, pd.DataFrame) else Series)(out)
    reduced = all(
        not isinstance(p, Executable) or not math.isnan(p.node.shape[0] if p.node.shape else 0)
        for p in parts
    )
    return collect(build, parts, empty_like(meta), len(meta) if reduced else math.nan, "agg")


def series_agg(s: Series, func: Any = None, axis: Any = 0, *args: Any, **kwargs: Any) -> Any:
    """One function: its result as it is (a lazy scalar for a reduction); a list or
    dict of functions: a lazy Series of their scalars, labelled by name or dict key."""
    if axis not in (0, "index", "rows"):
        raise ValueError(f"No axis named {axis} for object type Series")
    probe = probe_frame(s.meta.to_frame()).iloc[:, 0]
    if isinstance(func, dict):
        labels, funcs = list(func), list(func.values())
    elif isinstance(func, (list, tuple)):
        funcs = list(func)
        labels = [func_label(f) for f in funcs]
    else:
        return apply_one(s, func, args, kwargs)
    meta = probe.agg(func, *args, **kwargs)  # pandas checks the functions
    parts = [apply_one(s, f, args, kwargs) for f in funcs]
    return _lazy_result(SeriesLayout(tuple(labels), s.name), parts, meta)


def _column_parts(
    df: Any, plan: list[tuple[Any, list[Any]]], args: tuple[Any, ...], kwargs: Any
) -> tuple[list[Any], list[list[tuple[Any, int, Any]]]]:
    """Lazy parts and, per column of ``plan``, where each of its functions' values are.

    A named statistic shared by several columns is one frame reduction over them."""
    parts: list[Any] = []
    by_name: dict[Any, list[Any]] = {}
    for column, funcs in plan:
        for f in funcs:
            name = NUMPY_NAMES.get(f, f)
            if isinstance(name, str) and name != "size":
                by_name.setdefault(name, []).append(column)
    where: dict[Any, int] = {}
    for name, columns in by_name.items():
        unique = list(dict.fromkeys(columns))
        sub = df[unique]
        _check_func(sub, name)
        where[name] = len(parts)
        parts.append(getattr(sub, name)(*args, **kwargs))
    cells: list[list[tuple[Any, int, Any]]] = []
    for column, funcs in plan:
        row: list[tuple[Any, int, Any]] = []
        for f in funcs:
            name = NUMPY_NAMES.get(f, f)
            if isinstance(name, str) and name in where:
                row.append((func_label(f), where[name], column))
            else:
                row.append((func_label(f), len(parts), None))
                parts.append(apply_one(df[column], f, args, kwargs))
        cells.append(row)
    return parts, cells


def _rows_agg(df: Any, func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``axis=1``: each named statistic across every row (row chunks line up with the
    frame's), a list of them side by side as columns."""
    funcs = func if isinstance(func, (list, tuple)) else [func]
    for f in funcs:
        if not (isinstance(f, str) or f in NUMPY_NAMES):
            raise NotImplementedError("agg with axis=1 takes method names")
    parts = [apply_one(df, f, args, dict(kwargs, axis=1)) for f in funcs]
    if not isinstance(func, (list, tuple)):
        return parts[0]
    build = Assemble(tuple((i, None) for i in range(len(parts))), pd.Index(map(func_label, funcs)))
    meta = build(*(p.meta for p in parts))
    slots = tuple(Slot(i) for i in range(len(parts)))
    return map_chunks(build, parts, slots, meta, name="agg")


def frame_agg(df: Any, func: Any = None, axis: Any = 0, *args: Any, **kwargs: Any) -> Any:
    """A name or function: per column (a lazy Series); a list: a DataFrame of functions
    by columns; a dict column -> function(s): a Series (one function each) or a
    DataFrame (some lists), with NaN where a column lacks a function."""
    if axis_number(df.meta, axis) == 1:
        return _rows_agg(df, func, args, kwargs)
    meta = probe_frame(df.meta).agg(func, *args, **kwargs)  # pandas checks the arguments
    columns = list(df.columns)
    if isinstance(func, dict):
        missing = [c for c in func if c not in columns]
        if missing:
            raise KeyError(f"Column(s) {missing} do not exist")
        plan = [(c, _as_list(f)) for c, f in func.items()]
        parts, cells = _column_parts(df, plan, args, kwargs)
        if not any(isinstance(f, (list, tuple)) for f in func.values()):
            layout: Any = ValuesOf(tuple(func), tuple((p, k) for ((_, p, k),) in cells))
            return _lazy_result(layout, parts, meta)
        labels = tuple(dict.fromkeys(lab for row in cells for lab, _, _ in row))
        layout = FrameLayout(
            tuple(func), labels, tuple(tuple(r) for r in cells), dtypes=tuple(meta.dtypes)
        )
        return _lazy_result(layout, parts, meta)
    if isinstance(func, (list, tuple)):
        plan = [(c, list(func)) for c in columns]
        parts, cells = _column_parts(df, plan, args, kwargs)
        labels = tuple(func_label(f) for f in func)
        layout = FrameLayout(
            tuple(columns), labels, tuple(tuple(r) for r in cells), df.columns, tuple(meta.dtypes)
        )
        return _lazy_result(layout, parts, meta)
    name = NUMPY_NAMES.get(func, func)
    if isinstance(name, str):
        return apply_one(df, name, args, kwargs)
    parts = [apply_one(df[c], func, args, kwargs) for c in columns]
    layout = ValuesOf(tuple(columns), tuple((i, None) for i in range(len(columns))))
    return _lazy_result(layout, parts, meta)


def _attach() -> None:
    for cls, agg in ((DataFrame, frame_agg), (Series, series_agg)):
        for attr in ("agg", "aggregate"):
            setattr(cls, attr, agg)


_attach()
