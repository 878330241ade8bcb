"""Columns by label, rows by position: ``df['a']``, ``df[['a', 'b']]``, ``df[mask]``,
``iloc``, ``head``, ``tail``, and ``series[key]``.

Column selections are one pandas call per chunk and keep the rows; boolean masks go to
``filters``, labels to ``loc``. Rows by position need the lengths of the chunks before
them, so they are tiled once those are known (a stage computes them first when a filter
made them data-dependent):

- a slice: each chunk it touches gives the slice of its own rows, and chunks it does not
  touch are not computed at all;
- a list of positions: each chunk gives the rows asked of it; when the list is sorted
  these are the result's chunks, otherwise one task puts them in the list's order;
- one position: one task takes the row (a Series indexed by the columns) of the chunk
  that holds it, or the value (a 0-d tensor) of a Series.

Negative positions count from the end; positions out of range raise IndexError, when the
call is made if the length is known, else when the result is executed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe import filters
from jupyter_mars.dataframe.callables import resolve
from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series, new_frame
from jupyter_mars.dataframe.map_chunks import TAKES_COLUMNS, MapChunks, Slot, map_chunks
from jupyter_mars.dataframe.node import FrameNode, concat_chunks, empty_like
from jupyter_mars.dataframe.projection import as_labels
from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.tensor.core import new_tensor


def take_columns(chunk: Any, key: Any) -> Any:
    if _every_column_in_order(chunk, key):
        return chunk.copy(deep=False)  # pandas' result, without looking up every label
    return chunk[key]


def _every_column_in_order(chunk: Any, key: Any) -> bool:
    """Whether the list ``key`` names each of the chunk's (unique) columns in order, each
    label of the very same type (pandas would take ``1.0`` for ``1``, but by lookup)."""
    if not isinstance(key, list) or not isinstance(chunk, pd.DataFrame):
        return False
    if len(key) != chunk.shape[1] or not chunk.columns.is_unique:
        return False
    labels = chunk.columns.tolist()
    return all(type(a) is type(b) and a == b for a, b in zip(labels, key))


def _taken_by_selection(op: MapChunks, position: int, meta: Any) -> list[Any] | None:
    return as_labels(op.args[1], meta) if position == 0 and meta is not None else None


TAKES_COLUMNS[take_columns] = _taken_by_selection


def take_column_positions(chunk: Any, cols: Any) -> Any:
    return chunk.iloc[:, cols]


def select_columns(frame: DataFrame, key: Any) -> Any:
    """``df[col]`` (a Series) or ``df[[cols]]`` (a DataFrame); a missing column raises
    KeyError here, at the line that asked for it."""
    meta = empty_like(frame.meta[key])  # KeyError for missing columns, as pandas
    return map_chunks(take_columns, [frame], (Slot(0), key), meta, name="getitem")


def select_column_positions(frame: DataFrame, cols: Any) -> Any:
    """``frame.iloc[:, cols]``: a DataFrame, or a Series for one int position."""
    meta = empty_like(frame.meta.iloc[:, cols])  # IndexError out of range, as pandas
    return map_chunks(take_column_positions, [frame], (Slot(0), cols), meta, name="iloc")


@dataclass(frozen=True, eq=False)
class RowSlice(Op):
    start: int | None
    stop: int | None
    step: int

    def label(self) -> str:
        return "iloc"


def slice_rows(chunk: Any, start: int, stop: int, step: int) -> Any:
    return chunk[start:stop:step] if not hasattr(chunk, "iloc") else chunk.iloc[start:stop:step]


@tile_rule(RowSlice)
def _tile_row_slice(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, RowSlice)
    (t,) = inputs
    ctx.require_known(t)
    lengths = [int(n) for n in t.nsplits[0]]
    start, stop, step = slice(op.start, op.stop, op.step).indices(sum(lengths))
    pieces: list[tuple[Any, int, int]] = []
    for i, (lo, n) in enumerate(zip(offsets(lengths), lengths)):
        lo = int(lo)
        first = start if lo <= start else start + math.ceil((lo - start) / step) * step
        last = min(stop, lo + n)
        if first < last and first < lo + n:
            pieces.append((t.keys[i], first - lo, last - lo))
    grid = key_grid(node.key, [max(len(pieces), 1)])
    if not pieces:  # empty: one chunk of no rows, from the first input chunk
        ctx.new_task(grid[0], slice_rows, Ref(t.keys[0]), 0, 0, 1)
        return Tiled(((0,),), grid)
    splits = []
    for j, (key, a, b) in enumerate(pieces):
        ctx.new_task(grid[j], slice_rows, Ref(key), a, b, step)
        splits.append(len(range(a, b, step)))
    return Tiled((tuple(splits),), grid)


def iloc_rows(frame: FrameBase, rows: slice) -> Any:
    for name in ("start", "stop", "step"):
        value = getattr(rows, name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise TypeError(f"iloc: slice {name} must be an int or None, got {value!r}")
    step = 1 if rows.step is None else rows.step
    if step == 0:
        raise ValueError("slice step cannot be zero")
    node = frame.node
    assert isinstance(node, FrameNode)
    n = node.shape[0]
    if step < 0:
        # backwards: the positions the slice picks, once the row count is known
        if math.isnan(n):
            raise NotImplementedError(
                "iloc: a negative slice step needs the row count; execute the object first"
            )
        return take_rows(frame, np.arange(int(n))[rows])
    nrows = float("nan") if math.isnan(n) else len(range(*rows.indices(int(n))))
    return new_frame(RowSlice(rows.start, rows.stop, step), [frame], nrows, node.meta)


def _locate(lengths: list[int], position: int) -> tuple[int, int]:
    """The chunk holding row ``position`` (in range) and the row's place in it."""
    bounds = offsets(lengths)
    i = int(np.searchsorted(bounds, position, side="right")) - 1
    while lengths[i] == 0:  # an empty chunk shares its offset with the next one
        i += 1
    return i, position - int(bounds[i])


def _in_bounds(position: int, n: float) -> int:
    """``position`` (negative from the end) as a row number; IndexError out of range."""
    if math.isnan(n):
        return position
    if not -int(n) <= position < int(n):
        raise IndexError("single positional indexer is out-of-bounds")
    return position % int(n)


@dataclass(frozen=True, eq=False)
class RowAt(Op):
    position: int

    def label(self) -> str:
        return "iloc"


def row_at(chunk: Any, position: int) -> Any:
    return chunk.iloc[position]


@tile_rule(RowAt)
def _tile_row_at(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, RowAt)
    (t,) = inputs
    ctx.require_known(t)
    lengths = [int(n) for n in t.nsplits[0]]
    i, local = _locate(lengths, _in_bounds(op.position, sum(lengths)))
    grid = key_grid(node.key, [1] * node.ndim)
    ctx.new_task(grid.flat[0], row_at, Ref(t.keys[i]), local)
    return Tiled(tuple((int(n),) for n in node.shape), grid)


def scalar_dtype(meta: Any) -> np.dtype[Any]:
    """The NumPy dtype of a value of a Series with ``meta``'s dtype (object for pandas'
    own dtypes)."""
    return meta.dtype if isinstance(meta.dtype, np.dtype) else np.dtype(object)


def row_meta(meta: pd.DataFrame, name: Any = None) -> pd.Series:
    """The meta of one row of a DataFrame as a Series indexed by the columns."""
    return pd.Series([], index=meta.columns[:0], dtype=meta.to_numpy().dtype, name=name)


def iloc_row(frame: FrameBase, position: int) -> Any:
    """``frame.iloc[position]``: a row Series of a DataFrame, a 0-d tensor of a Series."""
    node = frame.node
    assert isinstance(node, FrameNode)
    position = _in_bounds(position, node.shape[0])
    if isinstance(frame, DataFrame):
        meta = row_meta(frame.meta)
        return new_frame(RowAt(position), [frame], len(frame.meta.columns), meta)
    return new_tensor(RowAt(position), [frame], (), scalar_dtype(frame.meta))  # type: ignore[list-item]


@dataclass(frozen=True, eq=False)
class TakeRows(Op):
    positions: np.ndarray[Any, Any]

    def label(self) -> str:
        return "iloc"


def take_positions(chunk: Any, positions: Any) -> Any:
    return chunk.iloc[positions]


def gather_positions(meta: Any, order: Any, *parts: Any) -> Any:
    return concat_chunks(list(parts), meta).iloc[order]


@tile_rule(TakeRows)
def _tile_take_rows(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, TakeRows)
    (t,) = inputs
    ctx.require_known(t)
    lengths = [int(n) for n in t.nsplits[0]]
    positions = _positions_in_bounds(op.positions, sum(lengths))
    ordered = bool(np.all(positions[1:] >= positions[:-1]))
    wanted = positions if ordered else np.unique(positions)
    bounds = offsets(lengths)
    cuts = np.searchsorted(wanted, bounds)
    parts = [
        (t.keys[i], wanted[cuts[i] : cuts[i + 1]] - int(bounds[i]))
        for i in range(len(lengths))
        if cuts[i + 1] > cuts[i]
    ]
    if ordered and parts:
        grid = key_grid(node.key, [len(parts)])
        for j, (key, local) in enumerate(parts):
            ctx.new_task(grid[j], take_positions, Ref(key), local)
        return Tiled((tuple(len(p[1]) for p in parts),), grid)
    grid = key_grid(node.key, [1])
    if not parts:
        ctx.new_task(grid[0], slice_rows, Ref(t.keys[0]), 0, 0, 1)
        return Tiled(((0,),), grid)
    names = [(node.key, "part", j) for j in range(len(parts))]
    for name, (key, local) in zip(names, parts):
        ctx.new_task(name, take_positions, Ref(key), local)
    order = np.searchsorted(wanted, positions)
    assert isinstance(node, FrameNode)
    ctx.new_task(grid[0], gather_positions, node.meta, order, *(Ref(k) for k in names))
    return Tiled(((len(positions),),), grid)


def _positions_in_bounds(positions: np.ndarray[Any, Any], n: float) -> np.ndarray[Any, Any]:
    if math.isnan(n):
        return positions
    if len(positions) and (positions.max() >= n or positions.min() < -n):
        raise IndexError("positional indexers are out-of-bounds")
    out: np.ndarray[Any, Any] = np.where(positions < 0, positions + int(n), positions)
    return out


def take_rows(frame: FrameBase, positions: Any) -> Any:
    """``frame.iloc[[i, j, ...]]``: rows by position, in the order given, negative from
    the end; IndexError out of range."""
    values = np.asarray(positions)
    if values.size == 0:
        values = values.astype(np.int64)
    if values.ndim != 1 or values.dtype.kind not in "iu":
        raise IndexError(f"iloc: row positions must be a 1-d list of ints, got {positions!r}")
    node = frame.node
    assert isinstance(node, FrameNode)
    values = _positions_in_bounds(values.astype(np.int64), node.shape[0])
    return new_frame(TakeRows(values), [frame], len(values), node.meta)


class ILocIndexer:
    def __init__(self, frame: FrameBase) -> None:
        self.frame = frame

    def __getitem__(self, key: Any) -> Any:
        key = resolve(key, self.frame)  # a function of the whole frame, as pandas
        if isinstance(key, tuple):
            if len(key) != 2 or not isinstance(self.frame, DataFrame):
                raise IndexError(f"iloc: too many indexers: {key!r}")
            rows, cols = (resolve(k, self.frame) for k in key)
            frame = self.frame
            if not _is_full_slice(cols):
                frame = select_column_positions(frame, cols)
            return ILocIndexer(frame)[rows]
        return self._rows(key)

    def _rows(self, key: Any) -> Any:
        if isinstance(key, slice):
            return self.frame if _is_full_slice(key) else iloc_rows(self.frame, key)
        if isinstance(key, (int, np.integer)) and not isinstance(key, (bool, np.bool_)):
            return iloc_row(self.frame, int(key))
        if isinstance(key, (FrameBase, pd.Series, pd.Index)):
            raise NotImplementedError(
                "iloc takes positions: a slice, an int, a list or array of ints or of booleans"
            )
        if filters.is_mask(key):
            return filters.boolean_filter(self.frame, key)
        if isinstance(key, (list, tuple, range, np.ndarray)):
            return take_rows(self.frame, key)
        raise TypeError(
            f"iloc takes a slice, an int, a list or array of ints or booleans, got {key!r}"
        )


def _is_full_slice(key: Any) -> bool:
    return isinstance(key, slice) and key == slice(None)


def _attach() -> None:
    for cls in (DataFrame, Series):
        methods: dict[str, Any] = {
            "iloc": property(ILocIndexer),
            "head": lambda self, n=5: iloc_rows(self, slice(None, n)),
            "tail": lambda self, n=5: iloc_rows(self, slice(-n, None) if n else slice(0, 0)),
        }
        for attr, value in methods.items():
            setattr(cls, attr, value)


_attach()
