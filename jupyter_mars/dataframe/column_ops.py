"""The operations that work on a frame split by columns without merging its chunks.

- element-wise maps (arithmetic with scalars or with a frame of the same split,
  comparisons, ``abs``, ``round``, ``clip``, ``astype``, ``isna``/``notna``, ``fillna``
  with a scalar): one task per chunk of the grid, the grid kept;
- column selections (``df[cols]``, ``df.iloc[:, cols]``): only the column chunks that hold
  the selected columns are read; a single column comes out as a Series of row chunks;
- row filters by a boolean Series (``df[df.a > 0]``): each row chunk's mask is computed
  once and applied to every column chunk of that row chunk; where a whole column chunk
  fits one chunk's budget, one task filters its row chunks into one chunk, so the result
  is fetched by joining blocks side by side rather than copied again to stack row chunks;
- reductions down the rows (``sum``, ``mean``, ``count``, ``min``, ``max``, ``std``, ...
  with ``axis=0``): one tree reduction per column chunk, so a wide frame's columns reduce
  in parallel; the result is a Series with one chunk per column chunk.

Everything else (``axis=1`` reductions, sorts, joins, ...) gets full-width row chunks
from ``column_split``'s fallback.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.config import options
from jupyter_mars.dataframe import arithmetic, missing, selection
from jupyter_mars.dataframe.column_split import column_offsets, is_split, split_rule
from jupyter_mars.dataframe.filters import (
    Filter,
    filter_aligned,
    filter_row_chunks,
    filter_rows,
)
from jupyter_mars.dataframe.map_chunks import MapChunks, fill_slots
from jupyter_mars.dataframe.reduction.build import FrameReduction
from jupyter_mars.dataframe.reduction.kernels import ReduceSpec, reduce_rows
from jupyter_mars.engine.frame_dtypes import dtype_counts
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import TILE_RULES, Node, TileContext, Tiled, key_grid
from jupyter_mars.engine.primitives.blockwise import Slot
from jupyter_mars.engine.primitives.reduction import Reduction

ELEMENTWISE_METHODS = frozenset(
    {
        *(f"{r}{n}" for n in arithmetic._BINARY for r in ("", "r")),
        *(f"__{r}{n}__" for n in arithmetic._BINARY for r in ("", "r")),
        "__neg__",
        "__pos__",
        "__invert__",
        "abs",
        "round",
        "clip",
        "astype",
        "isna",
        "notna",
        "isnull",
        "notnull",
    }
)
"""pandas methods that compute each value from that value alone (given scalar arguments)."""


def _scalar(value: Any) -> bool:
    """A value every column chunk takes as the whole frame does (not per column)."""
    return (
        value is None
        or np.isscalar(value)
        or isinstance(value, (np.dtype, type, pd.api.extensions.ExtensionDtype))
    )


def _elementwise(op: MapChunks) -> bool:
    """Whether ``op`` maps each value on its own, with only scalars besides its chunks."""
    args, kwargs = op.args, op.kwargs
    if op.func is arithmetic.call_method:
        method, rest = args[1], args[2:]
    elif op.func is missing._call:
        method, rest, kwargs = args[1], tuple(args[2]), {**args[3], **kwargs}
        if method != "fillna" or kwargs.get("limit") is not None:
            return False
    else:
        return False
    if method not in ELEMENTWISE_METHODS | {"fillna"}:
        return False
    return all(isinstance(a, Slot) or _scalar(a) for a in rest) and all(
        _scalar(v) for v in kwargs.values()
    )


def _column_positions(op: MapChunks, meta: pd.DataFrame) -> np.ndarray[Any, Any] | None:
    """The positions of the columns a selection takes, in its order (None: not one)."""
    if op.func is selection.take_columns:
        key = op.args[1]
        if pd.api.types.is_scalar(key) and meta.columns.is_unique:
            try:
                at = meta.columns.get_loc(key)
            except (KeyError, TypeError):
                at = None  # pandas' own error, raised by the probe
            if isinstance(at, int):
                return np.array([at])
        # one row of positions, from a 2-d array: one block, however wide
        probe = pd.DataFrame(np.arange(meta.shape[1])[None, :], columns=meta.columns)
        picked: np.ndarray[Any, Any] = np.asarray(probe[op.args[1]]).ravel()
        return picked
    if op.func is selection.take_column_positions:
        picked = np.arange(meta.shape[1])[op.args[1]]
        return picked.ravel()
    return None


@split_rule(MapChunks)
def _tile_split_map(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled | None:
    op = node.op
    assert isinstance(op, MapChunks)
    if op.broadcast or not op.keeps_rows:
        return None
    source = node.inputs[0]
    if op.func is reduce_rows and len(inputs) == 1:
        return _reduce_rows_split(node, op, inputs[0], ctx)
    positions = _column_positions(op, getattr(source, "meta", None))
    if positions is not None and len(inputs) == 1:
        return _select_columns(node, inputs[0], positions, ctx)
    first = inputs[0]
    same = all(
        is_split(t) and t.nsplits[1] == first.nsplits[1] and t.nsplits[0] == first.nsplits[0]
        for t in inputs
    ) and all(_same_columns(i, source) for i in (*node.inputs, node))
    if not same or not _elementwise(op):
        return None
    grid: Any = key_grid(node.key, first.keys.shape)
    for index in np.ndindex(*first.keys.shape):
        refs = [Ref(key_at(t, index)) for t in inputs]
        args = tuple(fill_slots(a, refs) for a in op.args)
        ctx.add_blockwise(grid[index], op.func, args, dict(op.kwargs))
    return Tiled(first.nsplits, grid)


def _same_columns(node: Node, source: Node) -> bool:
    """Whether ``node`` is a DataFrame with the columns of ``source`` (one)."""
    meta, columns = getattr(node, "meta", None), getattr(source, "meta", None)
    if not isinstance(meta, pd.DataFrame) or not isinstance(columns, pd.DataFrame):
        return False
    return bool(meta.columns.equals(columns.columns))


def _select_columns(
    node: Node, source: Tiled, positions: np.ndarray[Any, Any], ctx: TileContext
) -> Tiled | None:
    """The selected columns, read from the column chunks that hold them: runs of
    consecutive picks from one chunk become one column chunk of the result."""
    if not len(positions):
        return None
    starts = column_offsets(source.nsplits[1])
    owner = np.searchsorted(starts, positions, side="right") - 1
    local = positions - starts[owner]
    rows = len(source.nsplits[0])
    if isinstance(getattr(node, "meta", None), pd.Series):
        grid = key_grid(node.key, [rows])
        j, q = int(owner[0]), int(local[0])
        for i in range(rows):
            ctx.add_blockwise(grid[i], take_column, (Ref(source.keys[i, j]), q), {})
        return Tiled((source.nsplits[0],), grid)
    runs: list[tuple[int, list[int]]] = []
    for j, q in zip(owner.tolist(), local.tolist()):
        if runs and runs[-1][0] == j:
            runs[-1][1].append(q)
        else:
            runs.append((j, [q]))
    grid = key_grid(node.key, [rows, len(runs)])
    for i in range(rows):
        for r, (j, qs) in enumerate(runs):
            ctx.add_blockwise(
                grid[i, r], selection.take_column_positions, (Ref(source.keys[i, j]), qs), {}
            )
    return Tiled((source.nsplits[0], tuple(len(qs) for _, qs in runs)), grid)


ACROSS_CHUNKS = frozenset({"sum", "prod", "count", "min", "max", "mean"})
"""Row reductions (``axis=1``) merged from per-column-chunk partials."""


def _reduce_rows_split(node: Node, op: MapChunks, source: Tiled, ctx: TileContext) -> Tiled | None:
    """``axis=1`` reductions of a frame of numbers: a partial per chunk of the grid, and
    per row chunk one task merging the partials of its column chunks."""
    _, how, kwargs = op.args
    meta = node.inputs[0].meta  # type: ignore[attr-defined]
    numbers = all(isinstance(t, np.dtype) and t.kind in "iuf" for t in meta.dtypes)
    if how not in ACROSS_CHUNKS or kwargs.get("min_count") or not (numbers or how == "count"):
        return None
    if kwargs.get("numeric_only") and not numbers:
        return None  # the partials would count the columns numeric_only leaves out
    skipna = bool(kwargs.get("skipna", True))
    rows, cols = source.keys.shape
    keys: Any = source.keys
    grid = key_grid(node.key, [rows])
    for i in range(rows):
        parts = []
        for j in range(cols):
            part = (f"{node.key}-part", i, j)
            ctx.add_blockwise(part, row_partial, (Ref(keys[i, j]), how, skipna), {})
            parts.append(Ref(part))
        ctx.new_task(grid[i], merge_row_partials, how, skipna, *parts)
    return Tiled((source.nsplits[0],), grid)


def row_partial(chunk: pd.DataFrame, how: str, skipna: bool) -> Any:
    """One column chunk's share of a row reduction (sum and count for a mean)."""
    if how == "mean":
        return pd.DataFrame({"s": chunk.sum(axis=1, skipna=skipna), "n": chunk.count(axis=1)})
    if how == "count":
        return chunk.count(axis=1)
    return getattr(chunk, how)(axis=1, skipna=skipna)


def merge_row_partials(how: str, skipna: bool, *parts: Any) -> pd.Series:
    """The row reduction from the shares of every column chunk."""
    if how == "mean":
        total = pd.concat([p["s"] for p in parts], axis=1).sum(axis=1, skipna=False)
        count = pd.concat([p["n"] for p in parts], axis=1).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            return (total / count).astype(np.float64)
    joined = pd.concat(parts, axis=1)
    if how in ("min", "max"):
        return getattr(joined, how)(axis=1, skipna=skipna)
    merge = "sum" if how == "count" else how
    return getattr(joined, merge)(axis=1, skipna=False)


def key_at(tiled: Tiled, index: tuple[int, ...]) -> Any:
    """The key of one chunk of ``tiled``'s grid."""
    return tiled.keys[index]


def take_column(chunk: pd.DataFrame, position: int) -> pd.Series:
    return chunk.iloc[:, position]


@split_rule(Filter)
def _tile_split_filter(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled | None:
    op = node.op
    assert isinstance(op, Filter)
    frame, mask = inputs
    if is_split(mask) or not is_split(frame):
        return None
    if not op.broadcast and _column_chunk_fits(node.inputs[0], frame):
        return _filter_by_column_chunk(node, frame, mask, ctx)
    grid: Any = key_grid(node.key, frame.keys.shape)
    keys: Any = frame.keys
    for i, j in np.ndindex(*frame.keys.shape):
        # the same mask chunk for every column chunk of row chunk i
        kernel, m = (filter_aligned, 0) if op.broadcast else (filter_rows, i)
        ctx.add_blockwise(grid[i, j], kernel, (Ref(keys[i, j]), Ref(key_at(mask, (m,)))), {})
    return Tiled(((float("nan"),) * frame.keys.shape[0], frame.nsplits[1]), grid)


def _column_chunk_fits(source: Node, frame: Tiled) -> bool:
    """Whether each column chunk of ``frame``, all its rows, fits one chunk's budget
    (``options.chunk_store_limit``, what a frame built without ``chunk_size`` gets), so
    that filtering it can give one chunk."""
    rows = frame.nsplits[0]
    if len(rows) < 2 or any(math.isnan(r) for r in rows):
        return False
    meta = getattr(source, "meta", None)
    if not isinstance(meta, pd.DataFrame):
        return False
    dtypes = dtype_counts(meta) or {}  # no step per column: frames have 10,000 columns
    widest = max((getattr(t, "itemsize", 8) for t in dtypes), default=8)
    return sum(rows) * max(frame.nsplits[1]) * widest <= options.chunk_store_limit


def _filter_by_column_chunk(node: Node, frame: Tiled, mask: Tiled, ctx: TileContext) -> Tiled:
    """A row filter giving one chunk per column chunk: each task filters the column
    chunk's row chunks into one block, so fetching the result joins the blocks side by
    side (no copy) instead of copying every kept row once more to stack row chunks."""
    rows, cols = frame.keys.shape
    keys: Any = frame.keys
    grid: Any = key_grid(node.key, [1, cols])
    masks = [Ref(key_at(mask, (i,))) for i in range(rows)]
    for j in range(cols):
        chunks = [Ref(keys[i, j]) for i in range(rows)]
        ctx.new_task(grid[0, j], filter_row_chunks, rows, *chunks, *masks)
    return Tiled(((math.nan,), frame.nsplits[1]), grid)


def _spec_of(op: Reduction) -> ReduceSpec | None:
    spec = getattr(op.chunk, "__self__", None)
    if not isinstance(spec, ReduceSpec) or spec.positions is None or spec.flat:
        return None
    return spec


def _part_spec(
    spec: ReduceSpec, positions: Any, dtypes: Any, lo: int, hi: int
) -> tuple[ReduceSpec, int]:
    """``spec`` for the columns ``lo`` to ``hi`` of the frame, as positions in that chunk,
    and how many columns it reduces; ``positions`` and ``dtypes`` are ``spec``'s as
    arrays (picked with one comparison, not a loop over every column for every column
    chunk)."""
    picks = np.flatnonzero((positions >= lo) & (positions < hi))
    part = dataclasses.replace(
        spec,
        positions=tuple((positions[picks] - lo).tolist()),
        columns=spec.columns[picks],
        dtypes=tuple(dtypes[picks].tolist()) if spec.dtypes else (),
    )
    return part, len(picks)


@split_rule(FrameReduction)
def _tile_split_reduction(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled | None:
    """One tree reduction per column chunk holding reduced columns (the engine's own rule
    on that column of chunks), each giving a chunk of the result."""
    op = node.op
    assert isinstance(op, FrameReduction)
    (source,) = inputs
    spec = _spec_of(op)
    if spec is None or op.axis != (0,):
        return None
    starts = column_offsets(source.nsplits[1])
    positions = np.asarray(spec.positions, dtype=np.int64)
    dtypes = np.empty(len(spec.dtypes), dtype=object)
    dtypes[:] = spec.dtypes
    keys, lengths = [], []
    tree_rule: Callable[[Node, list[Tiled], TileContext], Tiled] = TILE_RULES[Reduction]
    for j in range(len(source.nsplits[1])):
        part, n = _part_spec(spec, positions, dtypes, int(starts[j]), int(starts[j + 1]))
        if not n:
            continue
        part_op = dataclasses.replace(
            op, chunk=part.chunk, combine=part.combine, aggregate=part.aggregate
        )
        part_node = Node(part_op, [], (float(n),), node.dtype)
        part_node.key = f"{node.key}-c{j}"
        column = Tiled((source.nsplits[0],), source.keys[:, j].copy())
        keys.append(tree_rule(part_node, [column], ctx).keys.ravel()[0])
        lengths.append(n)
    if not keys:
        return None
    grid = np.empty(len(keys), dtype=object)
    grid[:] = keys
    return Tiled((tuple(lengths),), grid)
