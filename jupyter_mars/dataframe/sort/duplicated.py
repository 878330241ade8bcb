"""``duplicated`` and ``drop_duplicates`` of DataFrame and Series, by a hash shuffle.

Whether a row repeats an earlier (or later) one depends on rows in every chunk. Each
chunk sends the key columns of its rows, tagged with their position (chunk, row), to the
part given by a hash of the keys, so all copies of a key meet in one part. A part merges
its pieces in chunk order, which is the input order of its rows, and pandas'
``duplicated`` decides there with the same ``keep`` rule. The decisions travel back in a
second exchange, to the chunk each row came from, and are put in place by row number:
the result has the input's rows, index and chunking. ``drop_duplicates`` keeps the rows
whose flag is False, chunk by chunk.

Only the key columns travel, never the other columns of the rows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.core import DataFrame, Series, new_frame
from jupyter_mars.dataframe.node import FrameNode, empty_like
from jupyter_mars.dataframe.partition import hash_codes, split_by_codes
from jupyter_mars.dataframe.renumber import renumber
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.shuffle import take_part


@dataclass(frozen=True, eq=False)
class Duplicated(Op):
    subset: tuple[Any, ...] | None
    """Key columns of a DataFrame; None: all columns, or a Series' values."""
    keep: Any
    name: Any
    """The result's name (a Series keeps its own)."""

    def label(self) -> str:
        return "duplicated"


def key_frame(chunk: Any, subset: tuple[Any, ...] | None) -> pd.DataFrame:
    """The keys of ``chunk`` as columns 0..k-1, with -0.0 made 0.0 so that equal numbers
    hash alike."""
    if isinstance(chunk, pd.Series):
        columns = [chunk]
    elif subset is None:
        columns = [chunk.iloc[:, j] for j in range(chunk.shape[1])]
    else:
        columns = [chunk[c] for c in subset]
    data: dict[int, Any] = {}
    for j, col in enumerate(columns):
        if isinstance(col.dtype, np.dtype) and col.dtype.kind == "f":
            col = col + 0.0
        data[j] = col.reset_index(drop=True)
    return pd.DataFrame(data, index=pd.RangeIndex(len(chunk)))


def flags_of(chunk: Any, subset: tuple[Any, ...] | None, keep: Any, name: Any) -> pd.Series:
    """pandas' ``duplicated`` of one whole chunk (the frame of one chunk)."""
    if isinstance(chunk, pd.Series):
        return chunk.duplicated(keep=keep)
    flags = chunk.duplicated(subset=None if subset is None else list(subset), keep=keep)
    flags.name = name
    return flags


def split_keys(
    chunk: Any, n_out: int, subset: tuple[Any, ...] | None, chunk_index: int
) -> list[Any]:
    """The tagged keys of ``chunk`` in ``n_out`` parts by hash."""
    keys = key_frame(chunk, subset)
    codes = hash_codes(keys, n_out)
    k = keys.shape[1]
    keys[k] = np.full(len(keys), chunk_index, dtype=np.int64)
    keys[k + 1] = np.arange(len(keys), dtype=np.int64)
    return split_by_codes(keys, codes, n_out)


def decide(keep: Any, n_chunks: int, parts: list[pd.DataFrame]) -> list[Any]:
    """Flags of one part's rows, split by the chunk they came from: for each chunk, the
    row numbers and their flags."""
    rows = pd.concat(parts, ignore_index=True)
    k = rows.shape[1] - 2
    flags = rows.duplicated(subset=list(range(k)), keep=keep).to_numpy()
    chunk_of = rows[k].to_numpy()
    row_of = rows[k + 1].to_numpy()
    order = np.argsort(chunk_of, kind="stable")
    edges = np.searchsorted(chunk_of[order], np.arange(n_chunks + 1))
    return [
        (row_of[order[edges[i] : edges[i + 1]]], flags[order[edges[i] : edges[i + 1]]])
        for i in range(n_chunks)
    ]


def place_flags(chunk: Any, name: Any, *pieces: tuple[Any, Any]) -> pd.Series:
    """The flags of ``chunk``'s rows, in row order, on its index."""
    flags = np.zeros(len(chunk), dtype=bool)
    for rows, found in pieces:
        flags[rows] = found
    return pd.Series(flags, index=chunk.index, name=name)


@tile_rule(Duplicated)
def _tile_duplicated(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Duplicated)
    (t,) = inputs
    keys = t.flat_keys()
    n = len(keys)
    grid = key_grid(node.key, [n])
    if n == 1:
        ctx.add_blockwise(grid[0], flags_of, (Ref(keys[0]), op.subset, op.keep, op.name), {})
        return Tiled(t.nsplits, grid)
    for i, key in enumerate(keys):
        ctx.new_task((f"{node.key}-split", i), split_keys, Ref(key), n, op.subset, i)
    for j in range(n):
        parts = []
        for i in range(n):
            part_key = (f"{node.key}-part", i, j)
            ctx.new_task(part_key, take_part, Ref((f"{node.key}-split", i)), j)
            parts.append(Ref(part_key))
        ctx.new_task((f"{node.key}-decide", j), decide, op.keep, n, parts)
    for i, key in enumerate(keys):
        pieces = []
        for j in range(n):
            back_key = (f"{node.key}-back", j, i)
            ctx.new_task(back_key, take_part, Ref((f"{node.key}-decide", j)), i)
            pieces.append(Ref(back_key))
        ctx.new_task(grid[i], place_flags, Ref(key), op.name, *pieces)
    return Tiled(t.nsplits, grid)


def _check_keep(keep: Any) -> None:
    if keep not in ("first", "last") and keep is not False:
        raise ValueError(f"keep must be 'first', 'last' or False, got {keep!r}")


def _subset(frame: Any, subset: Any) -> tuple[Any, ...] | None:
    if subset is None or isinstance(frame.meta, pd.Series):
        return None
    labels = list(subset) if isinstance(subset, (list, tuple, pd.Index)) else [subset]
    missing = [c for c in labels if c not in frame.meta.columns]
    if missing:
        raise KeyError(f"subset: {missing!r} not among the columns")
    return tuple(labels)


def duplicated(frame: Any, subset: Any = None, keep: Any = "first") -> Any:
    """Whether each row repeats another (earlier with ``keep="first"``, later with
    ``"last"``, any other with False), as a lazy boolean Series on the input's index."""
    _check_keep(keep)
    subset_labels = _subset(frame, subset)
    if isinstance(frame.meta, pd.Series):
        meta = frame.meta.duplicated(keep=keep)
    else:
        meta = frame.meta.duplicated(subset=subset, keep=keep)
    node = frame.node
    assert isinstance(node, FrameNode)
    op = Duplicated(subset_labels, keep, meta.name)
    return new_frame(op, [frame], node.shape[0], empty_like(meta), node.index_key)


def series_duplicated(series: Series, keep: Any = "first") -> Any:
    """Whether each value repeats another one (see ``duplicated``)."""
    return duplicated(series, None, keep)


@dataclass(frozen=True, eq=False)
class DropFlagged(Op):
    """The rows of input 0 whose flag (input 1, chunked alike) is False."""

    def label(self) -> str:
        return "drop_duplicates"


def drop_rows(chunk: Any, flags: pd.Series) -> Any:
    return chunk[~flags.to_numpy()]


@tile_rule(DropFlagged)
def _tile_drop_flagged(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    rows, flags = inputs
    n = len(rows.nsplits[0])
    grid = key_grid(node.key, [n])
    for i in range(n):
        ctx.add_blockwise(grid[i], drop_rows, (Ref(rows.keys[i]), Ref(flags.keys[i])), {})
    return Tiled(((math.nan,) * n,), grid)


def drop_duplicates(
    frame: Any,
    subset: Any = None,
    keep: Any = "first",
    inplace: bool = False,
    ignore_index: bool = False,
) -> Any:
    """The rows that ``duplicated`` does not flag, in their order."""
    if inplace:
        raise NotImplementedError("inplace drop_duplicates is not supported; use the result")
    flags = duplicated(frame, subset, keep)
    out = new_frame(DropFlagged(), [frame, flags], math.nan, frame.meta)
    return renumber(out) if ignore_index else out


def series_drop_duplicates(
    series: Series, keep: Any = "first", inplace: bool = False, ignore_index: bool = False
) -> Any:
    """The values that ``duplicated`` does not flag, in their order."""
    return drop_duplicates(series, None, keep, inplace, ignore_index)


def _attach() -> None:
    frame_methods: dict[str, Any] = {
        "duplicated": duplicated,
        "drop_duplicates": drop_duplicates,
    }
    series_methods: dict[str, Any] = {
        "duplicated": series_duplicated,
        "drop_duplicates": series_drop_duplicates,
    }
    for attr, value in frame_methods.items():
        setattr(DataFrame, attr, value)
    for attr, value in series_methods.items():
        setattr(Series, attr, value)


_attach()
