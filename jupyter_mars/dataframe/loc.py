"""Rows and columns by label: ``loc``, ``at`` and ``iat``.

Columns are chosen on the meta (pandas validates the labels at build time). Rows by label
need the data, so a missing row label raises KeyError when the result is executed:

- a label slice ``loc[a:b]``: each chunk reports, in a small task, its size, whether its
  index is sorted (either way), its first and last labels and where ``a`` and ``b`` fall
  in it; one task turns these into the global positions of the slice, as pandas does
  (searching a sorted index, so the bounds need not be present; otherwise the labels must
  be present and unique), and each chunk then takes its own part. Nothing is gathered.
- a list of labels: each chunk keeps its rows whose label is in the list (in parallel),
  and one task puts those in the list's order (pandas' ``loc`` on the kept rows, which
  also raises KeyError for a missing label).
- one label: as a list of one, giving a row (a Series, for a DataFrame) or a value (a
  0-d tensor, for a Series); a label that is not unique raises ValueError (pandas gives a
  DataFrame or Series there, whose kind would depend on the data).
- a boolean mask: the filters of ``filters.boolean_filter``; a callable: called on the
  lazy frame first, as pandas does.
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
from jupyter_mars.dataframe.level_keys import is_partial, is_row_key, label_mask, partial_meta
from jupyter_mars.dataframe.level_slices import (
    is_level_selection,
    keep_candidates,
    level_selection_meta,
    select_levels,
)
from jupyter_mars.dataframe.node import concat_chunks, empty_like
from jupyter_mars.dataframe.selection import (
    iloc_row,
    row_meta,
    scalar_dtype,
    select_column_positions,
    select_columns,
)
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.tensor.core import new_tensor

# ---- label slices ------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class LabelSlice(Op):
    start: Any
    stop: Any
    step: int

    def label(self) -> str:
        return "loc"


def slice_info(chunk: Any, start: Any, stop: Any) -> dict[str, Any]:
    """What the slice plan needs to know of one chunk's index."""
    index = chunk.index
    n = len(index)
    inc, dec = bool(index.is_monotonic_increasing), bool(index.is_monotonic_decreasing)
    info: dict[str, Any] = {"n": n, "inc": inc, "dec": dec, "edges": None}
    if n:
        info["edges"] = (index[0], index[-1])
    if inc:  # positions of the bounds if the whole index increases
        info["inc_locs"] = index.slice_locs(start, stop)
    if dec:  # ... if it decreases: counted on the reversed (increasing) chunk
        left, right = index[::-1].slice_locs(stop, start)
        info["dec_locs"] = (n - right, n - left)
    info["start_at"] = _positions_of(index, start)  # if it is not sorted at all
    info["stop_at"] = _positions_of(index, stop)
    return info


def _positions_of(index: pd.Index, label: Any) -> list[int]:
    if label is None:
        return []
    if isinstance(index, pd.MultiIndex):  # a partial key matches on the first levels
        return [int(i) for i in np.flatnonzero(label_mask(index, [label]))]
    return [int(i) for i in np.flatnonzero(index.isin([label]))]


def _ordered(infos: tuple[dict[str, Any], ...], flag: str) -> bool:
    if not all(info[flag] for info in infos):
        return False
    edges = [info["edges"] for info in infos if info["edges"] is not None]
    try:
        if flag == "inc":
            return all(a[1] <= b[0] for a, b in zip(edges, edges[1:]))
        return all(a[1] >= b[0] for a, b in zip(edges, edges[1:]))
    except TypeError:
        return False


def _unique_position(infos: tuple[dict[str, Any], ...], key: str, label: Any, side: str) -> int:
    found: list[int] = []
    offset = 0
    for info in infos:
        found.extend(offset + p for p in info[key])
        offset += info["n"]
    if not found:
        raise KeyError(label)
    if len(found) > 1:
        raise KeyError(f"Cannot get {side} slice bound for non-unique label: {label!r}")
    return found[0]


def plan_label_slice(
    start: Any, stop: Any, step: int, *infos: dict[str, Any]
) -> list[tuple[int, int]]:
    """Each chunk's ``(first, stop)`` local rows of the slice (taken with ``step``)."""
    lengths = [info["n"] for info in infos]
    total = sum(lengths)
    for flag in ("inc", "dec"):
        if _ordered(infos, flag):
            locs = [info[f"{flag}_locs"] for info in infos]
            lo, hi = sum(a for a, _ in locs), sum(b for _, b in locs)
            break
    else:
        lo = 0 if start is None else _unique_position(infos, "start_at", start, "left")
        hi = total if stop is None else _unique_position(infos, "stop_at", stop, "right") + 1
    plan = []
    offset = 0
    for n in lengths:
        first = max(lo, offset)
        if first > lo:  # the first row of the chunk that the step lands on
            first = lo + -(-(first - lo) // step) * step
        last = min(hi, offset + n)
        plan.append((first - offset, last - offset) if first < last else (0, 0))
        offset += n
    return plan


def take_planned(chunk: Any, plan: list[tuple[int, int]], i: int, step: int) -> Any:
    first, last = plan[i]
    return chunk.iloc[first:last:step]


@tile_rule(LabelSlice)
def _tile_label_slice(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, LabelSlice)
    (t,) = inputs
    n = len(t.nsplits[0])
    infos = [(node.key, "info", i) for i in range(n)]
    for i, key in enumerate(infos):
        ctx.new_task(key, slice_info, Ref(t.keys[i]), op.start, op.stop)
    plan = (node.key, "plan")
    ctx.new_task(plan, plan_label_slice, op.start, op.stop, op.step, *(Ref(k) for k in infos))
    grid = key_grid(node.key, [n])
    for i in range(n):
        ctx.new_task(grid[i], take_planned, Ref(t.keys[i]), Ref(plan), i, op.step)
    return Tiled(((math.nan,) * n,), grid)


def label_slice(frame: FrameBase, key: slice) -> Any:
    """``frame.loc[a:b:step]``: rows from label ``a`` to label ``b``, both included."""
    step = 1 if key.step is None else key.step
    if isinstance(step, bool) or not isinstance(step, (int, np.integer)) or step <= 0:
        raise ValueError(f"loc: slice step must be a positive int, got {key.step!r}")
    empty_like(frame.meta.loc[key.start : key.stop])  # pandas checks the bounds' types
    op = LabelSlice(key.start, key.stop, int(step))
    return new_frame(op, [frame], math.nan, frame.meta)


# ---- lists of labels and single labels ---------------------------------------------------


@dataclass(frozen=True, eq=False)
class TakeLabels(Op):
    labels: list[Any]
    single: bool
    """One label: the result is a row (or a value), not a frame of rows."""
    partial: bool = False
    """One partial key of a MultiIndex: its rows, with the matched levels dropped."""
    levels: bool = False
    """One key of slices, lists and labels, a part per level (``level_slices``)."""

    def label(self) -> str:
        return "loc"


_TIME_INDEXES = (pd.DatetimeIndex, pd.TimedeltaIndex, pd.PeriodIndex)


def _time_strings_mask(index: pd.Index, labels: list[Any]) -> np.ndarray[Any, Any]:
    """Rows of a time index that pandas' ``loc`` gives for ``labels``: a string is parsed
    (a whole period where it names one, ``'2013-01-02'`` of an hourly index), the others
    are matched as they are."""
    mask = np.asarray(index.isin([x for x in labels if not isinstance(x, str)]))
    for label in labels:
        if not isinstance(label, str):
            continue
        try:
            found = index.get_loc(label)
        except KeyError:
            continue
        if isinstance(found, (int, np.integer)):
            mask[int(found)] = True
        else:  # a slice, or a mask where the labels repeat
            mask[found] = True
    return mask


def rows_with_labels(chunk: Any, labels: list[Any]) -> Any:
    if isinstance(chunk.index, pd.MultiIndex):
        return chunk[label_mask(chunk.index, labels)]
    if isinstance(chunk.index, _TIME_INDEXES) and any(isinstance(x, str) for x in labels):
        return chunk[_time_strings_mask(chunk.index, labels)]
    return chunk[chunk.index.isin(labels)]


def order_labels(meta: Any, labels: list[Any], *parts: Any) -> Any:
    return concat_chunks(list(parts), meta).loc[labels]


def partial_rows(meta: Any, key: Any, *parts: Any) -> Any:
    return concat_chunks(list(parts), meta).loc[key]


def level_selected(meta: Any, key: Any, *parts: Any) -> Any:
    return select_levels(concat_chunks(list(parts), meta), key)


def one_label(meta: Any, label: Any, *parts: Any) -> Any:
    rows = concat_chunks(list(parts), meta)
    out = rows.loc[label]
    if isinstance(out, type(meta)):
        if isinstance(label, str) and isinstance(rows.index, _TIME_INDEXES):
            raise ValueError(
                f"loc: {label!r} names a period holding several rows of this time index; "
                f"use loc[{label!r}:{label!r}] for them"
            )
        raise ValueError(f"loc: the label {label!r} is not unique; use loc[[{label!r}]]")
    return out


@tile_rule(TakeLabels)
def _tile_take_labels(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, TakeLabels)
    (t,) = inputs
    meta = node.inputs[0].meta  # type: ignore[attr-defined]
    parts = [(node.key, "part", i) for i in range(len(t.nsplits[0]))]
    grid = key_grid(node.key, [1] * node.ndim)
    refs = [Ref(k) for k in parts]
    if op.levels:
        for i, key in enumerate(parts):
            ctx.add_blockwise(key, keep_candidates, (Ref(t.keys[i]), op.labels[0]), {})
        ctx.new_task(grid.flat[0], level_selected, meta, op.labels[0], *refs)
        return Tiled(((math.nan,),), grid)
    for i, key in enumerate(parts):
        ctx.add_blockwise(key, rows_with_labels, (Ref(t.keys[i]), op.labels), {})
    if op.single:
        ctx.new_task(grid.flat[0], one_label, meta, op.labels[0], *refs)
        return Tiled(tuple((int(n),) for n in node.shape), grid)
    if op.partial:
        ctx.new_task(grid.flat[0], partial_rows, meta, op.labels[0], *refs)
        return Tiled(((math.nan,),), grid)
    ctx.new_task(grid.flat[0], order_labels, meta, op.labels, *refs)
    return Tiled(((math.nan,),), grid)


def label_list(frame: FrameBase, labels: Any) -> Any:
    """``frame.loc[[a, b, ...]]``: rows by label in the list's order (all rows of a
    repeated label); KeyError at execution for a missing label."""
    values = list(labels)
    return new_frame(TakeLabels(values, False), [frame], math.nan, frame.meta)


def level_rows(frame: FrameBase, key: Any) -> Any:
    """``frame.loc[key]`` for a partial key of a MultiIndex (see ``level_keys``)."""
    op = TakeLabels([key], False, partial=True)
    return new_frame(op, [frame], math.nan, partial_meta(frame.meta, key))


def level_selection(frame: FrameBase, key: tuple[Any, ...]) -> Any:
    """``frame.loc[key]`` for a key of per-level slices, lists and labels (see
    ``level_slices``); KeyError at execution for a missing label, as pandas."""
    op = TakeLabels([key], False, levels=True)
    return new_frame(op, [frame], math.nan, level_selection_meta(frame.meta, key))


def one_row(frame: FrameBase, label: Any) -> Any:
    """``frame.loc[label]``: a row Series of a DataFrame, a 0-d tensor of a Series."""
    op = TakeLabels([label], True)
    if isinstance(frame, DataFrame):
        meta = row_meta(frame.meta, name=label)
        return new_frame(op, [frame], len(frame.meta.columns), meta)
    return new_tensor(op, [frame], (), scalar_dtype(frame.meta))  # type: ignore[list-item]


# ---- the indexers -------------------------------------------------------------------------


def _is_full_slice(key: Any) -> bool:
    return isinstance(key, slice) and key == slice(None)


def _is_label_list(key: Any) -> bool:
    return isinstance(key, (list, np.ndarray, pd.Index, range)) or (
        isinstance(key, pd.Series) and not filters.is_bool_dtype(key.dtype)
    )


def loc_rows(frame: FrameBase, key: Any) -> Any:
    """Rows of ``frame`` by label: see the module docstring for the kinds of key."""
    key = resolve(key, frame)
    if _is_full_slice(key):
        return frame
    if isinstance(key, slice):
        return label_slice(frame, key)
    if filters.is_mask(key) or isinstance(key, FrameBase):
        return filters.boolean_filter(frame, key)
    if _is_label_list(key):
        return label_list(frame, key)
    index = frame.meta.index
    if is_partial(index, key):
        return level_rows(frame, key)
    if is_level_selection(index, key):
        return level_selection(frame, key)
    if isinstance(index, pd.MultiIndex) and isinstance(key, tuple) and len(key) > index.nlevels:
        raise KeyError(f"Key length ({len(key)}) exceeds index depth ({index.nlevels})")
    full_key = isinstance(index, pd.MultiIndex) and len(key) == index.nlevels
    if isinstance(key, tuple) and not (full_key and is_row_key(frame.meta, key)):
        raise NotImplementedError(f"loc: a MultiIndex key of this kind is not supported: {key!r}")
    return one_row(frame, key)


def loc_columns(frame: DataFrame, key: Any) -> Any:
    """``frame.loc[:, key]``: the columns by label (a Series for one label)."""
    key = resolve(key, frame)
    if _is_full_slice(key):
        return frame
    if isinstance(key, slice) or filters.is_mask(key):
        columns = frame.meta.loc[:, key].columns  # KeyError / TypeError as pandas
        positions = [frame.meta.columns.get_loc(c) for c in columns]
        if all(isinstance(p, int) for p in positions):
            return select_column_positions(frame, positions)
        return select_columns(frame, list(columns))
    if _is_label_list(key):
        return select_columns(frame, list(key))
    return select_columns(frame, key)


class LocIndexer:
    def __init__(self, frame: FrameBase) -> None:
        self.frame = frame

    def __getitem__(self, key: Any) -> Any:
        row_key = isinstance(key, tuple) and is_row_key(self.frame.meta, key)
        if isinstance(key, tuple) and isinstance(self.frame, DataFrame) and not row_key:
            if len(key) != 2:
                raise pd.errors.IndexingError(f"loc: too many indexers: {key!r}")
            rows, cols = key
            rows = resolve(rows, self.frame)  # on the whole frame, as pandas does
            if is_level_selection(self.frame.meta.index, rows):
                # the rows of the frame first: a Series' loc drops levels a frame's keeps
                return loc_columns(loc_rows(self.frame, rows), cols)
            return loc_rows(loc_columns(self.frame, cols), rows)
        return loc_rows(self.frame, key)


class AtIndexer:
    """``at[label, col]`` (a DataFrame) or ``at[label]`` (a Series): one value."""

    def __init__(self, frame: FrameBase) -> None:
        self.frame = frame

    def __getitem__(self, key: Any) -> Any:
        if isinstance(self.frame, DataFrame):
            if not isinstance(key, tuple) or len(key) != 2:
                raise ValueError("at on a DataFrame takes [row label, column label]")
            row, col = key
            column = self.frame.meta[col]  # KeyError for a missing column, as pandas
            if not isinstance(column, pd.Series):
                raise ValueError(f"at: the column label {col!r} is not unique")
            return one_row(select_columns(self.frame, col), row)
        return one_row(self.frame, key)


class IAtIndexer:
    """``iat[i, j]`` (a DataFrame) or ``iat[i]`` (a Series): one value by position."""

    def __init__(self, frame: FrameBase) -> None:
        self.frame = frame

    def __getitem__(self, key: Any) -> Any:
        if isinstance(self.frame, DataFrame):
            if not isinstance(key, tuple) or len(key) != 2:
                raise ValueError("iat on a DataFrame takes [row position, column position]")
            row, col = key
            key, frame = row, select_column_positions(self.frame, _int(col))
        else:
            frame = self.frame
        return iloc_row(frame, _int(key))


def _int(key: Any) -> int:
    if isinstance(key, bool) or not isinstance(key, (int, np.integer)):
        raise ValueError("iAt based indexing can only have integer indexers")
    return int(key)


def _attach() -> None:
    for cls in (DataFrame, Series):
        methods: dict[str, Any] = {
            "loc": property(LocIndexer),
            "at": property(AtIndexer),
            "iat": property(IAtIndexer),
        }
        for attr, value in methods.items():
            setattr(cls, attr, value)


_attach()
