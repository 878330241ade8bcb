"""``sort_values`` and ``sort_index`` of DataFrame and Series, by range partitioning.

A frame of one chunk is sorted by one pandas call. Otherwise, with ``n`` input chunks:

1. every chunk gives a regular sample of its sort keys, each sampled row tagged with its
   position (chunk, row);
2. one task sorts the samples and picks ``n - 1`` boundary rows at even ranks;
3. a shuffle sends every row to the part whose range holds it (``searchsorted`` of the
   row's order code, see ``_order``), each part merging its pieces in chunk order and
   sorting them with pandas.

Output chunk ``j`` holds part ``j``, so the chunks in order are the sorted frame. The
position tag is the last comparison of a row with a boundary, so a key repeated across
the whole frame is still spread over several parts, split in input order. As a part
keeps the input order of its rows, a stable sort of each part is the stable sort of the
frame: ties come out as pandas gives them whenever pandas' own order is stable (several
keys, ``kind="stable"`` or ``"mergesort"``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.apply import sample_like
from jupyter_mars.dataframe.axes import axis_number, rows_only
from jupyter_mars.dataframe.core import DataFrame, Series, new_frame
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.node import FrameNode, concat_chunks, empty_like
from jupyter_mars.dataframe.renumber import renumber
from jupyter_mars.dataframe.sort._order import SORT_KINDS, SortSpec, row_codes
from jupyter_mars.engine.graph import Key, Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.shuffle import call_merge, take_part

SAMPLE_TOTAL = 200_000
"""The most sampled rows over all chunks together."""
SAMPLES_PER_PART = 32
"""Sampled rows per chunk for each output part (when under ``SAMPLE_TOTAL``)."""
POSITION_BITS = 32
"""Bits of a row's position within its chunk in the order codes."""
CHUNK_BITS = 20


@dataclass(frozen=True, eq=False)
class SortRows(Op):
    spec: SortSpec

    def label(self) -> str:
        return "sort_index" if self.spec.target == "index" else "sort_values"


def sort_whole(spec: SortSpec, chunk: Any) -> Any:
    return spec.sort(chunk)


def sample_keys(spec: SortSpec, chunk: Any, chunk_index: int, size: int) -> pd.DataFrame:
    """Keys of ``size`` evenly spaced rows of ``chunk``: columns 0..k-1, then the chunk
    number and the row number."""
    n = len(chunk)
    spaced = np.linspace(0, n - 1, min(size, n)) if n else np.zeros(0)
    rows = np.unique(spaced.astype(np.int64))
    data: dict[int, Any] = {
        j: pd.Series(key.take(rows), copy=False).reset_index(drop=True)
        for j, key in enumerate(spec.keys(chunk))
    }
    k = len(data)
    data[k] = pd.Series(np.full(len(rows), chunk_index, dtype=np.int64))
    data[k + 1] = pd.Series(rows)
    return pd.DataFrame(data)


def pick_boundaries(spec: SortSpec, n_out: int, *samples: pd.DataFrame) -> pd.DataFrame:
    """``n_out - 1`` sampled rows at even ranks of the sort order (fewer when the sample is
    small), in that order."""
    rows = pd.concat(samples, ignore_index=True)
    k = rows.shape[1] - 2
    ordered = rows.sort_values(
        by=list(range(k)),
        ascending=list(spec.ascending[:k]),
        na_position=spec.na_position,
        kind="stable",
    )
    m = len(ordered)
    ranks = np.unique(np.arange(1, n_out, dtype=np.int64) * m // n_out)
    return ordered.iloc[ranks if m else ranks[:0]].reset_index(drop=True)


def _order_values(
    codes: np.ndarray[Any, Any],
    chunks: np.ndarray[Any, Any],
    rows: np.ndarray[Any, Any],
    uniq: np.ndarray[Any, Any],
) -> np.ndarray[Any, np.dtype[np.uint64]]:
    """Key codes made small against the boundaries' codes, then the position tag."""
    pos = np.searchsorted(uniq, codes)
    equal = (pos < len(uniq)) & (uniq[np.minimum(pos, len(uniq) - 1)] == codes)
    small = (2 * pos + equal).astype(np.uint64)
    tag = (chunks.astype(np.uint64) << np.uint64(POSITION_BITS)) | rows.astype(np.uint64)
    out: np.ndarray[Any, np.dtype[np.uint64]] = (
        small << np.uint64(POSITION_BITS + CHUNK_BITS)
    ) | tag
    return out


def _numeric_parts(spec: SortSpec, key: Any, bound_key: pd.Series) -> np.ndarray[Any, Any] | None:
    """Parts by a plain ``searchsorted`` when there is one numeric key and the boundary
    values are distinct and present (rows equal to a boundary then all go to one part, so
    positions are not needed); None otherwise."""
    if len(spec.ascending) != 1 or not isinstance(key.dtype, np.dtype):
        return None
    if key.dtype.kind not in "iuf" or bound_key.dtype != key.dtype:
        return None
    bvalues = bound_key.to_numpy()
    asc = spec.ascending[0]
    up = bvalues if asc else bvalues[::-1]
    if bound_key.isna().any() or not (up[1:] > up[:-1]).all():
        return None
    values = key.to_numpy()
    parts: np.ndarray[Any, Any]
    if asc:
        parts = np.searchsorted(up, values, side="left")
    else:
        parts = len(up) - np.searchsorted(up, values, side="right")
    if key.dtype.kind == "f":
        missing = np.isnan(values)
        if missing.any():
            parts[missing] = len(up) if spec.na_position == "last" else 0
    return parts


def part_of_rows(
    spec: SortSpec, chunk: Any, chunk_index: int, bounds: pd.DataFrame
) -> np.ndarray[Any, Any]:
    """The output part of every row of ``chunk``, given the boundary rows."""
    k = bounds.shape[1] - 2
    if k == 1:
        fast = _numeric_parts(spec, spec.keys(chunk)[0], bounds[0])
        if fast is not None:
            return fast
    codes, bcodes = row_codes(spec, spec.keys(chunk), [bounds[j] for j in range(k)])
    uniq = np.unique(bcodes)
    n = len(chunk)
    mine = _order_values(codes, np.full(n, chunk_index), np.arange(n, dtype=np.int64), uniq)
    marks = _order_values(bcodes, bounds[k].to_numpy(), bounds[k + 1].to_numpy(), uniq)
    return np.searchsorted(np.sort(marks), mine, side="right")


def split_by_range(
    chunk: Any, n_out: int, spec: SortSpec, chunk_index: int, bounds: pd.DataFrame
) -> list[Any]:
    """``chunk``'s rows in ``n_out`` parts by the ranges between the boundaries; rows keep
    their order within each part."""
    if len(bounds) == 0 or len(chunk) == 0:
        return [chunk] + [chunk.iloc[:0]] * (n_out - 1)
    parts = part_of_rows(spec, chunk, chunk_index, bounds)
    small = parts.astype(np.int16 if n_out < (1 << 15) else np.int64)
    order = np.argsort(small, kind="stable")  # radix sort for 16-bit codes
    edges = np.searchsorted(small[order], np.arange(n_out + 1))
    taken = chunk.take(order)
    return [taken.iloc[edges[j] : edges[j + 1]] for j in range(n_out)]


def merge_sorted(spec: SortSpec, meta: Any, parts: list[Any]) -> Any:
    """The pieces of one part, in input order, sorted."""
    filled = [p for p in parts if len(p)]
    return spec.sort(concat_chunks(filled, meta)) if filled else meta


def _sample_size(n_chunks: int) -> int:
    return max(8, min(SAMPLES_PER_PART * n_chunks, SAMPLE_TOTAL // n_chunks))


@tile_rule(SortRows)
def _tile_sort(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, SortRows)
    assert isinstance(node, FrameNode)
    (t,) = inputs
    keys = t.flat_keys()
    n = len(keys)
    if n == 1:
        grid = key_grid(node.key, [1])
        ctx.add_blockwise(grid[0], sort_whole, (op.spec, Ref(keys[0])), {})
        return Tiled(t.nsplits, grid)
    if n >= 1 << CHUNK_BITS:
        raise ValueError(f"sorting supports fewer than {1 << CHUNK_BITS} chunks, got {n}")
    size = _sample_size(n)
    samples = []
    for i, key in enumerate(keys):
        sample_key = (f"{node.key}-sample", i)
        ctx.new_task(sample_key, sample_keys, op.spec, Ref(key), i, size)
        samples.append(Ref(sample_key))
    bounds_key = (f"{node.key}-bounds", 0)
    ctx.new_task(bounds_key, pick_boundaries, op.spec, n, *samples)
    splits: list[Key] = []
    for i, key in enumerate(keys):
        split_key: Key = (f"{node.key}-split", i)
        ctx.new_task(split_key, split_by_range, Ref(key), n, op.spec, i, Ref(bounds_key))
        splits.append(split_key)
    grid = key_grid(node.key, [n])
    for j in range(n):
        parts = []
        for i, split in enumerate(splits):
            part_key = (f"{node.key}-part", i, j)
            ctx.new_task(part_key, take_part, Ref(split), j)
            parts.append(Ref(part_key))
        ctx.new_task(grid[j], call_merge, merge_sorted, (op.spec, node.meta), parts)
    return Tiled(((math.nan,) * n,), grid)


def _check_kind(kind: Any) -> str:
    if kind not in SORT_KINDS:
        raise ValueError(f"kind must be one of {', '.join(SORT_KINDS)}, got {kind!r}")
    return str(kind)


def _directions(ascending: Any, n: int) -> tuple[bool, ...]:
    if isinstance(ascending, (list, tuple)):
        return tuple(bool(a) for a in ascending)
    return (bool(ascending),) * n


def _check_call(meta: Any, axis: Any, method: str, kind: str = "quicksort") -> str:
    """What every sort checks of its arguments; returns the checked ``kind``."""
    rows_only(meta, axis, method)
    return _check_kind(kind)


def _sorted(frame: Any, spec: SortSpec, meta: Any, ignore_index: bool) -> Any:
    node = frame.node
    assert isinstance(node, FrameNode)
    out = new_frame(SortRows(spec), [frame], node.shape[0], empty_like(meta))
    return renumber(out) if ignore_index else out


def sort_values(
    frame: DataFrame,
    by: Any,
    axis: Any = 0,
    ascending: Any = True,
    kind: str = "quicksort",
    na_position: str = "last",
    ignore_index: bool = False,
    key: Any = None,
) -> Any:
    """Rows ordered by the columns ``by`` (a label or a list), each ascending or not;
    ``key`` maps each ``by`` column (a Series) to the values to sort by."""
    kind = _check_call(frame.meta, axis, "sort_values", kind)
    meta = frame.meta.sort_values(  # pandas checks by, ascending and na_position
        by=by, ascending=ascending, kind=kind, na_position=na_position, ignore_index=ignore_index
    )
    labels = list(by) if isinstance(by, (list, tuple)) else [by]
    missing = [b for b in labels if b not in frame.meta.columns]
    if missing:
        raise KeyError(f"sort_values: {missing[0]!r} is not a column")
    directions = _directions(ascending, len(labels))
    if key is not None:
        return _sorted_by_key(frame, labels, key, directions, na_position, kind, ignore_index)
    spec = SortSpec("columns", tuple(labels), directions, na_position, kind)
    return _sorted(frame, spec, meta, ignore_index)


def series_sort_values(
    series: Series,
    axis: Any = 0,
    ascending: Any = True,
    kind: str = "quicksort",
    na_position: str = "last",
    ignore_index: bool = False,
    key: Any = None,
) -> Any:
    """The values in order (of ``key(values)`` when given)."""
    kind = _check_call(series.meta, axis, "sort_values", kind)
    meta = series.meta.sort_values(
        ascending=ascending, kind=kind, na_position=na_position, ignore_index=ignore_index
    )
    if isinstance(ascending, (list, tuple)):
        ascending = ascending[0]
    if key is not None:
        # sorted as a one-column frame (column 0: the name may be None), named back after
        frame = series.to_frame(name=0)  # type: ignore[attr-defined]
        spec_args = (key, (bool(ascending),), na_position, kind, ignore_index)
        out = _sorted_by_key(frame, [0], *spec_args)
        return map_chunks(first_column, [out], (Slot(0), series.meta.name), meta, name="sort_key")
    spec = SortSpec("values", (), (bool(ascending),), na_position, kind)
    return _sorted(series, spec, meta, ignore_index)


def keyed_columns(chunk: pd.DataFrame, labels: tuple[Any, ...], key: Any) -> pd.DataFrame:
    """``chunk``'s columns by position, then ``key`` of each sort column: labels that
    cannot clash with the frame's."""
    n = chunk.shape[1]
    keys = [pd.Series(key(chunk[label]), index=chunk.index) for label in labels]
    parts = [chunk.set_axis(range(n), axis=1), *keys]
    return pd.concat(parts, axis=1).set_axis(range(n + len(keys)), axis=1)


def first_column(chunk: pd.DataFrame, name: Any) -> pd.Series:
    return chunk.iloc[:, 0].rename(name)


def restore_columns(chunk: pd.DataFrame, columns: pd.Index) -> pd.DataFrame:
    return chunk.iloc[:, : len(columns)].set_axis(columns, axis=1)


def _sorted_by_key(
    frame: Any,
    labels: list[Any],
    key: Any,
    directions: tuple[bool, ...],
    na_position: str,
    kind: str,
    ignore_index: bool,
) -> Any:
    """Sort on ``key`` of the ``by`` columns: pandas applies it to each whole column; it
    is element-wise in practice (a Series in, one of the same length out), so each chunk
    computes its keys, sorted as extra columns and dropped after."""
    n = frame.meta.shape[1]
    columns = frame.meta.columns
    args = (Slot(0), tuple(labels), key)
    meta = keyed_columns(sample_like(frame.meta, 2), tuple(labels), key).iloc[:0]
    keyed = map_chunks(keyed_columns, [frame], args, meta, name="sort_key")
    spec = SortSpec("columns", tuple(range(n, n + len(labels))), directions, na_position, kind)
    ordered = _sorted(keyed, spec, meta, ignore_index)
    out_meta = restore_columns(ordered.meta, columns)
    return map_chunks(restore_columns, [ordered], (Slot(0), columns), out_meta, name="sort_key")


def sort_index(
    frame: Any,
    axis: Any = 0,
    level: Any = None,
    ascending: Any = True,
    kind: str = "quicksort",
    na_position: str = "last",
    sort_remaining: bool = True,
    ignore_index: bool = False,
) -> Any:
    """Rows ordered by their index labels (every level of a MultiIndex); with ``axis=1``
    the columns of a DataFrame ordered by their labels."""
    if axis_number(frame.meta, axis) == 1:
        return _sort_columns(frame, level, ascending, kind, na_position, ignore_index)
    _check_call(frame.meta, axis, "sort_index")
    if level is not None:
        raise NotImplementedError("sort_index(level=...) is not supported")
    kind = _check_kind(kind)
    meta = frame.meta.sort_index(
        ascending=ascending, kind=kind, na_position=na_position, ignore_index=ignore_index
    )
    nlevels = frame.meta.index.nlevels
    directions = _directions(ascending, nlevels)
    if len(directions) != nlevels:
        raise ValueError(
            f"sort_index: ascending has {len(directions)} values for {nlevels} index levels"
        )
    spec = SortSpec("index", (), directions, na_position, kind)
    return _sorted(frame, spec, meta, ignore_index)


def _sort_columns(
    frame: DataFrame,
    level: Any,
    ascending: Any,
    kind: str,
    na_position: str,
    ignore_index: bool,
) -> Any:
    """The columns are known without the data: their new order is worked out here and
    taken by position (labels may repeat)."""
    _check_kind(kind)
    options = {"level": level, "ascending": ascending, "kind": kind, "na_position": na_position}
    meta = frame.meta.sort_index(axis=1, ignore_index=ignore_index, **options)
    order = pd.Series(np.arange(frame.meta.shape[1]), index=frame.meta.columns)
    out = frame.iloc[:, order.sort_index(**options).to_numpy()]
    return out.set_axis(meta.columns, axis=1) if ignore_index else out


def _attach() -> None:
    frame_methods: dict[str, Any] = {"sort_values": sort_values, "sort_index": sort_index}
    series_methods: dict[str, Any] = {"sort_values": series_sort_values, "sort_index": sort_index}
    for attr, value in frame_methods.items():
        setattr(DataFrame, attr, value)
    for attr, value in series_methods.items():
        setattr(Series, attr, value)


_attach()
