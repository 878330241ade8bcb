"""Assignment through the indexers: ``df.loc[rows, cols] = v``, ``df.iloc[i, j] = v``,
``df.at[k, c] = v``, ``df.iat[i, j] = v`` and the same on a Series.

Frames are immutable: the handle is pointed at a new frame in which every chunk sets its
own selected rows, in parallel, so the rows, index and chunking are kept. The rows a
chunk sets are found from its own data:

- a boolean mask: the mask's chunk when it shares the frame's index, else the whole mask
  aligned on the chunk's labels;
- labels (one or a list): the chunk's rows with those labels; a label slice: the rows
  whose labels lie between the bounds (a sorted index, as for ``truncate``);
- positions (``iloc``/``iat``): the chunk's part of the positions of the whole frame,
  once the chunks' lengths are known (negative positions count from the end).

The value is a scalar, or a Series (lazy or pandas) aligned on the labels as pandas
aligns it; positions take scalars only. What the assignment does to the dtypes is
learnt from pandas on a two-row sample of the frame's dtypes when the call is made, so
a value the column cannot hold raises pandas' TypeError at that line. Labels that are
not in the index raise KeyError when computed: pandas appends them as new rows, which
here is ``concat``'s job.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe import filters
from jupyter_mars.dataframe.callables import resolve
from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series, new_frame
from jupyter_mars.dataframe.labels import labels_held
from jupyter_mars.dataframe.loc import AtIndexer, IAtIndexer, LocIndexer
from jupyter_mars.dataframe.map_chunks import one_chunk
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.selection import ILocIndexer
from jupyter_mars.dataframe.structure.common import (
    as_lazy,
    conform,
    node_of,
    same_rows,
    sample_like,
    sample_values,
)
from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule

ALL = slice(None)


@dataclass(frozen=True, eq=False)
class SetRows(Op):
    kind: str
    """How the rows are chosen: "all", "mask", "labels", "between" or "positions"."""
    key: Any
    """Labels, ``(low, high)`` label bounds, or a positional key of the whole frame."""
    columns: Any
    """Column labels (``loc``) or positions (``iloc``); None for a Series."""
    value: Any
    """The scalar to set; unused when the value is an input."""
    meta: Any
    mask_input: int | None
    """Position of the mask among the inputs, if any."""
    value_input: int | None
    """Position of the value among the inputs, if any."""
    whole: frozenset[int]
    """Inputs read whole (one chunk) by every task, aligned on labels."""

    def label(self) -> str:
        return "setitem"


def _rows(chunk: Any, op: SetRows, start: int, total: int, mask: Any) -> np.ndarray[Any, Any]:
    """Which rows of the chunk are set: a boolean array of its length."""
    n = len(chunk)
    index = chunk.index
    if op.kind == "all":
        return np.ones(n, dtype=bool)
    if op.kind == "mask":
        if isinstance(mask, pd.Series):
            if op.mask_input in op.whole:
                mask = mask.reindex(index, fill_value=False)
            mask = mask.to_numpy(dtype=bool)
        return np.asarray(mask, dtype=bool)
    if op.kind == "labels":
        return np.asarray(index.isin(op.key))
    if op.kind == "between":
        low, high = op.key
        keep = np.ones(n, dtype=bool)
        if low is not None:
            keep &= np.asarray(index >= low)
        if high is not None:
            keep &= np.asarray(index <= high)
        return keep
    whole = np.zeros(total, dtype=bool)
    whole[op.key] = True  # IndexError as pandas for positions out of range
    return whole[start : start + n]


def check_present(labels: list[Any], *held: list[Any]) -> None:
    found = pd.Index([x for part in held for x in part])
    missing = [x for x in labels if x not in found]
    if missing:
        raise KeyError(
            f"{missing} not in the index: adding rows by assignment is not supported "
            "(concat them instead)"
        )


def set_chunk(
    chunk: Any,
    op: SetRows,
    start: int,
    total: int,
    mask: Any = None,
    value: Any = None,
    checked: Any = None,
) -> Any:
    rows = _rows(chunk, op, start, total, mask)
    out = chunk.copy()
    if op.value_input is None:
        value = op.value
    elif op.value_input in op.whole and isinstance(value, pd.Series):
        value = value.reindex(chunk.index[rows])
    if op.kind == "positions":
        where = np.flatnonzero(rows)
        if isinstance(out, pd.DataFrame):
            out.iloc[where, op.columns] = value
        else:
            out.iloc[where] = value
    elif isinstance(out, pd.DataFrame):
        out.loc[rows, op.columns] = value
    else:
        out.loc[rows] = value
    return conform(out, op.meta)


@tile_rule(SetRows)
def _tile_set_rows(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, SetRows)
    frame = inputs[0]
    if op.kind == "positions":
        ctx.require_known(frame)
    check: tuple[Any, ...] = ()
    if op.kind == "labels":  # every label must be held by some chunk
        held = [(node.key, "held", i) for i in range(len(frame.nsplits[0]))]
        for i, key in enumerate(held):
            ctx.new_task(key, labels_held, Ref(frame.keys[i]), op.key)
        ctx.new_task((node.key, "check"), check_present, op.key, *(Ref(k) for k in held))
        check = (Ref((node.key, "check")),)
    lengths = frame.nsplits[0]
    known = all(not np.isnan(x) for x in lengths)
    starts = offsets(lengths) if known else [0] * (len(lengths) + 1)
    total = int(sum(lengths)) if known else 0
    grid = key_grid(node.key, [len(lengths)])
    for i in range(len(lengths)):
        refs = [Ref(t.keys[0 if k in op.whole else i]) for k, t in enumerate(inputs)]
        mask = refs[op.mask_input] if op.mask_input is not None else None
        value = refs[op.value_input] if op.value_input is not None else None
        args = (refs[0], op, int(starts[i]), total, mask, value, *check)
        ctx.add_blockwise(grid[i], set_chunk, args, {})
    return Tiled(frame.nsplits, grid)


# ---- building the assignment -----------------------------------------------------------


def _value_sample(value: Any, n: int) -> Any:
    if isinstance(value, FrameBase):
        meta = value.meta
        if isinstance(meta, pd.DataFrame):
            raise NotImplementedError("setting rows from a DataFrame is not supported")
        return pd.Series(sample_values(meta.dtype, n), index=pd.RangeIndex(n), name=meta.name)
    return value


def _check_value(value: Any, positional: bool) -> None:
    if isinstance(value, FrameBase):
        if positional:
            raise NotImplementedError("iloc assignment takes a scalar; use loc for a Series")
        return
    if np.ndim(value) != 0 or isinstance(value, list | tuple | dict | set):
        raise NotImplementedError(
            "assignment takes a scalar or a Series; set arrays as whole columns "
            f"(df[col] = array), got {type(value).__name__}"
        )


def _sample_meta(frame: FrameBase, columns: Any, value: Any, positional: bool) -> Any:
    """pandas' result on two rows of the frame's dtypes, the first one set."""
    sample = sample_like(frame.meta, pd.RangeIndex(2))
    sampled_value = _value_sample(value, 2)
    if positional:
        target: Any = (0, columns) if isinstance(sample, pd.DataFrame) else 0
        sample.iloc[target] = sampled_value
    else:
        rows = np.array([True, False])
        target = (rows, columns) if isinstance(sample, pd.DataFrame) else rows
        sample.loc[target] = sampled_value
    return empty_like(sample).set_axis(frame.meta.index[:0], axis=0)


def set_rows(frame: FrameBase, kind: str, key: Any, columns: Any, value: Any) -> None:
    """Point ``frame`` at a copy with the chosen rows (and columns) set to ``value``."""
    positional = kind == "positions"
    value = as_lazy(value)
    _check_value(value, positional)
    meta = _sample_meta(frame, columns, value, positional)
    if kind == "mask" and not isinstance(key, FrameBase):  # a NumPy mask: split like the frame
        key = filters.rows_like(frame, np.asarray(key, dtype=bool))
    inputs: list[Any] = [frame]
    whole: set[int] = set()
    mask_input = value_input = None
    for item, is_mask in ((key, True), (value, False)):
        if not isinstance(item, FrameBase) or (is_mask and kind != "mask"):
            continue
        position = len(inputs)
        if same_rows(frame, item):
            inputs.append(item)
        else:
            inputs.append(one_chunk(item))
            whole.add(position)
        if is_mask:
            mask_input = position
        else:
            value_input = position
    scalar = None if isinstance(value, FrameBase) else value
    plain_key = None if kind == "mask" else key
    op = SetRows(kind, plain_key, columns, scalar, meta, mask_input, value_input, frozenset(whole))
    out = new_frame(op, inputs, node_of(frame).shape[0], meta, node_of(frame).index_key)
    frame._node = out._node


def _row_kind(frame: FrameBase, key: Any) -> tuple[str, Any]:
    """The kind of a ``loc`` row key and what the chunks need of it."""
    key = resolve(key, frame)
    if isinstance(key, slice):
        if key == ALL:
            return "all", None
        if key.step not in (None, 1):
            raise NotImplementedError("loc assignment: slices with a step are not supported")
        return "between", (key.start, key.stop)
    if isinstance(key, FrameBase) or filters.is_mask(key):
        if isinstance(key, pd.Series):
            key = Series(key)
        return "mask", key
    if isinstance(key, list | np.ndarray | pd.Index | range | pd.Series):
        return "labels", list(key)
    if isinstance(key, tuple):
        raise NotImplementedError("loc assignment: MultiIndex keys are not supported")
    return "labels", [key]


def loc_set(frame: FrameBase, key: Any, value: Any) -> None:
    if isinstance(frame, DataFrame) and isinstance(key, tuple):
        if len(key) != 2:
            raise pd.errors.IndexingError(f"loc: too many indexers: {key!r}")
        rows, columns = key
        columns = resolve(columns, frame)
    elif isinstance(frame, DataFrame):
        rows, columns = key, ALL
    else:
        rows, columns = key, None
    kind, plain = _row_kind(frame, rows)
    set_rows(frame, kind, plain, columns, value)


def _positions(frame: FrameBase, key: Any) -> Any:
    if isinstance(key, slice) or (np.ndim(key) == 0 and isinstance(key, int | np.integer)):
        if isinstance(key, bool | np.bool_):
            raise IndexError("iloc assignment takes positions, got a bool")
        return key
    if isinstance(key, FrameBase | pd.Series | pd.Index):
        raise NotImplementedError("iloc assignment takes ints, slices, or lists/arrays of them")
    positions = np.asarray(key)
    if positions.ndim != 1 or (positions.dtype.kind not in "iub" and positions.size):
        raise IndexError(f"iloc assignment takes ints, slices, lists or arrays, got {key!r}")
    return positions


def iloc_set(frame: FrameBase, key: Any, value: Any) -> None:
    columns: Any = None
    if isinstance(key, tuple):
        if len(key) != 2 or not isinstance(frame, DataFrame):
            raise IndexError(f"iloc: too many indexers: {key!r}")
        key, columns = key
        frame.meta.iloc[:, columns]  # IndexError as pandas
    elif isinstance(frame, DataFrame):
        columns = ALL
    rows = _positions(frame, key)
    n = node_of(frame).shape[0]
    if not np.isnan(n):
        np.zeros(int(n))[rows]  # IndexError as pandas, now that the length is known
    set_rows(frame, "positions", rows, columns, value)


def at_set(frame: FrameBase, key: Any, value: Any) -> None:
    if isinstance(frame, DataFrame):
        if not isinstance(key, tuple) or len(key) != 2:
            raise ValueError("at on a DataFrame takes [row label, column label]")
        row, column = key
        set_rows(frame, "labels", [row], column, value)
    else:
        set_rows(frame, "labels", [key], None, value)


def iat_set(frame: FrameBase, key: Any, value: Any) -> None:
    if isinstance(frame, DataFrame):
        if not isinstance(key, tuple) or len(key) != 2:
            raise ValueError("iat on a DataFrame takes [row position, column position]")
        row, column = key
    else:
        row, column = key, None
    for part in (row, column):
        if part is not None and (isinstance(part, bool) or not isinstance(part, int | np.integer)):
            raise ValueError("iAt based indexing can only have integer indexers")
    iloc_set(frame, row if column is None else (row, column), value)


def _attach() -> None:
    setters: dict[type, Any] = {
        LocIndexer: lambda self, key, value: loc_set(self.frame, key, value),
        ILocIndexer: lambda self, key, value: iloc_set(self.frame, key, value),
        AtIndexer: lambda self, key, value: at_set(self.frame, key, value),
        IAtIndexer: lambda self, key, value: iat_set(self.frame, key, value),
    }
    for cls, setter in setters.items():
        setattr(cls, "__setitem__", setter)  # noqa: B010


_attach()
