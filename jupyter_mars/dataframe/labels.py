"""Labels of rows and columns: ``drop``, ``rename``, ``reset_index``,
``assign``, ``add_prefix`` / ``add_suffix``, ``df[col] = value`` and ``del df[col]``.

Column labels live in the meta, so pandas checks them when the method is called; each
chunk then makes the same call. Row labels are in the data: dropping rows by label is a
per-chunk drop, and with ``errors="raise"`` each chunk first reports which of the labels
it holds and one small task raises KeyError for any that none holds. ``reset_index``
to a default index numbers the rows of the whole frame, not of each chunk, so it waits
for the chunks' lengths (``require_known``) and starts each chunk at its offset.
Assigned values that share the frame's index are read chunk by chunk; a Series with
another index is read whole by every chunk and aligned on the labels as pandas does;
NumPy arrays and lists are split at the frame's offsets (``filters.rows_like``).
Frames are immutable: ``df[col] = value`` and ``del df[col]`` point the handle at a new
node.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.callables import resolve
from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series, new_frame
from jupyter_mars.dataframe.filters import call_method, rows_like
from jupyter_mars.dataframe.map_chunks import MapChunks, Slot, map_chunks, one_chunk
from jupyter_mars.dataframe.node import FrameNode, empty_like
from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule


def _node(frame: FrameBase) -> FrameNode:
    node = frame.node
    assert isinstance(node, FrameNode)
    return node


def relabel(frame: FrameBase, method: str, meta: Any, **kwargs: Any) -> Any:
    """``chunk.method(**kwargs)`` per chunk for a call that keeps the rows but changes the
    index: the result has the same number of rows and a new index key."""
    op = MapChunks(call_method, (Slot(0), method), kwargs, method)
    return new_frame(op, [frame], _node(frame).shape[0], empty_like(meta))


def same_index(frame: FrameBase, method: str, meta: Any, **kwargs: Any) -> Any:
    """``chunk.method(**kwargs)`` per chunk for a call that keeps the rows and index."""
    return map_chunks(call_method, [frame], (Slot(0), method), empty_like(meta), kwargs, method)


# ---- drop ------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class DropRows(Op):
    labels: list[Any]
    check: bool
    """Raise KeyError for labels that no chunk holds (``errors="raise"``)."""

    def label(self) -> str:
        return "drop"


def labels_held(chunk: Any, labels: list[Any]) -> list[Any]:
    held = chunk.index.isin(labels)
    return [x for x, h in zip(labels, pd.Index(labels).isin(chunk.index[held])) if h]


def check_held(labels: list[Any], *held: list[Any]) -> None:
    found = pd.Index([x for part in held for x in part])
    missing = [x for x in labels if x not in found]
    if missing:
        raise KeyError(f"{missing} not found in axis")


def drop_rows(chunk: Any, labels: list[Any], checked: Any = None) -> Any:
    return chunk[~chunk.index.isin(labels)]


@tile_rule(DropRows)
def _tile_drop_rows(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, DropRows)
    (t,) = inputs
    n = len(t.nsplits[0])
    extra: tuple[Any, ...] = ()
    if op.check:
        held = [(node.key, "held", i) for i in range(n)]
        for i, key in enumerate(held):
            ctx.new_task(key, labels_held, Ref(t.keys[i]), op.labels)
        ctx.new_task((node.key, "check"), check_held, op.labels, *(Ref(k) for k in held))
        extra = (Ref((node.key, "check")),)
    grid = key_grid(node.key, [n])
    for i in range(n):
        ctx.add_blockwise(grid[i], drop_rows, (Ref(t.keys[i]), op.labels, *extra), {})
    return Tiled(((math.nan,) * n,), grid)


def _as_list(labels: Any) -> list[Any]:
    if isinstance(labels, (list, tuple, set, frozenset, pd.Index, np.ndarray, pd.Series)):
        return list(labels)
    return [labels]


def drop(
    frame: FrameBase,
    labels: Any = None,
    *,
    axis: Any = 0,
    index: Any = None,
    columns: Any = None,
    level: Any = None,
    errors: str = "raise",
) -> Any:
    """Rows or columns removed by label (pandas ``drop``)."""
    if errors not in ("raise", "ignore"):
        raise ValueError(f"errors must be 'raise' or 'ignore', got {errors!r}")
    if level is not None:
        raise NotImplementedError("drop: level= is not supported")
    if labels is not None:
        if index is not None or columns is not None:
            raise ValueError("Cannot specify both 'labels' and 'index'/'columns'")
        axis_number = frame.meta._get_axis_number(axis)
        if axis_number == 0:
            index = labels
        else:
            columns = labels
    elif index is None and columns is None:
        raise ValueError("Need to specify at least one of 'labels', 'index' or 'columns'")
    out = frame
    if columns is not None:
        if not isinstance(frame, DataFrame):
            raise ValueError("No axis named 1 for object type Series")
        meta = frame.meta.drop(columns=columns, errors=errors)  # KeyError as pandas
        out = same_index(frame, "drop", meta, columns=columns, errors=errors)
    if index is not None:
        rows = _as_list(index)
        op = DropRows(rows, errors == "raise")
        out = new_frame(op, [out], math.nan, out.meta)
    return out


# ---- rename, prefixes ---------------------------------------------------------------------


def rename(
    frame: FrameBase,
    mapper: Any = None,
    *,
    index: Any = None,
    columns: Any = None,
    axis: Any = None,
    level: Any = None,
    errors: str = "ignore",
) -> Any:
    """Labels changed by a dict or function (pandas ``rename``); a Series given a scalar
    (or no mapping) takes it as its name. ``errors="raise"`` checks column labels only."""
    if isinstance(frame, Series):
        if index is None and (mapper is None or not (callable(mapper) or _is_mapping(mapper))):
            meta = frame.meta.rename(mapper)
            return same_index(frame, "rename", meta, index=mapper)
        index = mapper if index is None else index
        mapper = None
    if mapper is not None:
        if index is not None or columns is not None:
            raise TypeError("Cannot specify both 'mapper' and any of 'index' or 'columns'")
        if frame.meta._get_axis_number(axis or 0) == 0:
            index = mapper
        else:
            columns = mapper
    out = frame
    if columns is not None:
        meta = frame.meta.rename(columns=columns, level=level, errors=errors)
        out = same_index(frame, "rename", meta, columns=columns, level=level)
    if index is not None:
        if errors == "raise":
            raise NotImplementedError("rename: errors='raise' for row labels is not supported")
        meta = out.meta.rename(index=index, level=level)
        out = relabel(out, "rename", meta, index=index, level=level)
    return out


def _is_mapping(obj: Any) -> bool:
    return isinstance(obj, (dict, pd.Series))


def add_affix(frame: FrameBase, method: str, affix: str, axis: Any = None) -> Any:
    meta = call_method(frame.meta, method, affix, axis=axis)
    if isinstance(frame, Series) or (axis is not None and frame.meta._get_axis_number(axis) == 0):
        return relabel(frame, method, meta, **{method[4:]: affix, "axis": axis})
    return same_index(frame, method, meta, **{method[4:]: affix, "axis": axis})


def add_prefix(frame: FrameBase, prefix: str, axis: Any = None) -> Any:
    """Labels with ``prefix`` in front: the columns of a DataFrame, the index of a Series."""
    return add_affix(frame, "add_prefix", prefix, axis)


def add_suffix(frame: FrameBase, suffix: str, axis: Any = None) -> Any:
    """Labels with ``suffix`` after: the columns of a DataFrame, the index of a Series."""
    return add_affix(frame, "add_suffix", suffix, axis)


# ---- reset_index -------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ResetIndex(Op):
    kwargs: dict[str, Any] = field(default_factory=dict)

    def label(self) -> str:
        return "reset_index"


def reset_chunk(chunk: Any, start: int, kwargs: dict[str, Any]) -> Any:
    out = chunk.reset_index(**kwargs)
    out.index = pd.RangeIndex(start, start + len(out))
    return out


@tile_rule(ResetIndex)
def _tile_reset_index(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, ResetIndex)
    (t,) = inputs
    ctx.require_known(t)  # each chunk's rows are numbered from its offset
    lengths = t.nsplits[0]
    grid = key_grid(node.key, [len(lengths)])
    for i, start in zip(range(len(lengths)), offsets(lengths)):
        ctx.add_blockwise(grid[i], reset_chunk, (Ref(t.keys[i]), int(start), op.kwargs), {})
    return Tiled((tuple(lengths),), grid)


def reset_index(
    frame: FrameBase,
    level: Any = None,
    *,
    drop: bool = False,
    name: Any = None,
    names: Any = None,
    allow_duplicates: bool = False,
) -> Any:
    """The index moved into columns (or dropped), pandas ``reset_index``; when the new
    index is the default one it numbers the rows of the whole frame, 0 to n - 1."""
    kwargs: dict[str, Any] = {"level": level, "drop": drop, "allow_duplicates": allow_duplicates}
    if names is not None:
        kwargs["names"] = names
    if isinstance(frame, Series):
        kwargs.pop("allow_duplicates")
        if name is not None:
            kwargs["name"] = name
    meta = frame.meta.reset_index(**kwargs)
    nrows = _node(frame).shape[0]
    if isinstance(meta.index, pd.RangeIndex):
        return new_frame(ResetIndex(kwargs), [frame], nrows, empty_like(meta))
    return relabel(frame, "reset_index", meta, **kwargs)


# ---- assign, df[col] = value, del df[col] -------------------------------------------------------


def assign_column(chunk: Any, name: Any, value: Any) -> Any:
    out = chunk.copy(deep=False)
    out[name] = value
    return out


def assign_one(frame: DataFrame, name: Any, value: Any) -> Any:
    value = resolve(value, frame)
    if isinstance(value, pd.Series):
        value = Series(value)
    elif isinstance(value, (np.ndarray, list, range, pd.Index)):
        value = rows_like(frame, np.asarray(value), name=name)
    elif isinstance(value, pd.DataFrame):
        raise TypeError(f"assign: a column takes a Series or array, got a DataFrame for {name!r}")
    if isinstance(value, DataFrame):
        raise TypeError(f"assign: a column takes a Series or array, got a DataFrame for {name!r}")
    if not isinstance(value, Series):
        meta = assign_column(frame.meta, name, value)
        return map_chunks(assign_column, [frame], (Slot(0), name, value), meta, name="assign")
    meta = assign_column(frame.meta, name, value.meta)
    if _node(value).index_key == _node(frame).index_key:
        return map_chunks(
            assign_column, [frame, value], (Slot(0), name, Slot(1)), meta, name="assign"
        )
    # another index: the Series is read whole by every chunk and aligned on its labels
    return map_chunks(
        assign_column,
        [frame, one_chunk(value)],
        (Slot(0), name, Slot(1)),
        meta,
        name="assign",
        broadcast=frozenset({1}),
    )


def assign(frame: DataFrame, **columns: Any) -> Any:
    """New or replaced columns (pandas ``assign``): scalars, Series (aligned on labels),
    arrays (by position), or callables called on the frame so far, in order."""
    out = frame
    for name, value in columns.items():
        out = assign_one(out, name, value)
    return out


def setitem(frame: DataFrame, key: Any, value: Any) -> None:
    """``df[key] = value``: the handle now points at the frame with that column set."""
    if isinstance(key, list):
        if isinstance(value, (DataFrame, pd.DataFrame)):
            if len(value.columns) != len(key):
                raise ValueError("Columns must be same length as key")
            new = frame
            for name, col in zip(key, value.columns):
                new = assign_one(new, name, value[col])  # type: ignore[index]
        else:
            new = frame
            for name in key:
                new = assign_one(new, name, value)
    elif isinstance(key, (FrameBase, slice, np.ndarray, pd.Series)):
        raise NotImplementedError("setting rows by a mask or slice: use where/mask")
    else:
        new = assign_one(frame, key, value)
    frame._node = new._node


def delitem(frame: DataFrame, key: Any) -> None:
    """``del df[col]``: the handle now points at the frame without that column."""
    frame._node = drop(frame, columns=[key])._node


def _attach() -> None:
    both: dict[str, Callable[..., Any]] = {
        "drop": drop,
        "rename": rename,
        "reset_index": reset_index,
        "add_prefix": add_prefix,
        "add_suffix": add_suffix,
    }
    for cls in (DataFrame, Series):
        for attr, value in both.items():
            setattr(cls, attr, value)
    frame_only: dict[str, Callable[..., Any]] = {
        "assign": assign,
        "__setitem__": setitem,
        "__delitem__": delitem,
    }
    for attr, value in frame_only.items():
        setattr(DataFrame, attr, value)


_attach()
