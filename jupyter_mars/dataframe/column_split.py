"""Frames split by columns as well as rows: their layout, and the fallback for the rules
that do not know it.

``md.DataFrame(data, chunk_size=(rows, cols))`` tiles into a grid of chunks: ``nsplits``
is ``(row lengths, column widths)`` and chunk ``(i, j)`` holds row chunk i's rows of
column chunk j's columns. The engine still sees a frame as rows only (its ``shape`` is
the number of rows); the column split is a layout that tile rules either understand or
never see:

- operator types listed in ``SPLIT_AWARE`` are given split inputs as they are. Their
  rules work column chunk by column chunk (element-wise maps, column selections, row
  filters, reductions down the rows) or decline, in which case they get merged inputs;
- every other rule gets each split input merged back into full-width row chunks first
  (one task per row chunk, shared by all the readers of a plan), so an operation that
  knows nothing of column chunks still gives pandas' result.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import TILE_RULES, Node, Op, TileContext, Tiled, TileRule, key_grid

SplitRule = Callable[[Node, list[Tiled], TileContext], Tiled | None]
"""A tile rule for split inputs; None declines (the row-only rule then runs on merged
inputs)."""

SPLIT_AWARE: set[type[Op]] = set()
"""Operator types whose tile rules are given column-split inputs as they are."""


def is_split(tiled: Tiled) -> bool:
    """Whether a frame's chunks are split by columns too (a 2-d grid of chunks)."""
    return bool(tiled.keys.ndim == 2)


def concat_columns(*parts: Any) -> Any:
    """One full-width row chunk from its column chunks, left to right."""
    return parts[0] if len(parts) == 1 else pd.concat(parts, axis=1)


def merge_columns(node_key: str, tiled: Tiled, ctx: TileContext) -> Tiled:
    """``tiled`` as full-width row chunks: one concatenating task per row chunk, added
    once per plan whoever reads it."""
    note = ("merged-columns", node_key)
    merged = ctx.notes.get(note)
    if merged is None:
        rows = len(tiled.nsplits[0])
        grid = key_grid(f"{node_key}-columns", [rows])
        for i in range(rows):
            ctx.new_task(grid[i], concat_columns, *(Ref(k) for k in tiled.keys[i]))
        merged = ctx.notes[note] = Tiled((tiled.nsplits[0],), grid)
    assert isinstance(merged, Tiled)
    return merged


def tiled_for(node: Node, reader: Node, tiled: Tiled, ctx: TileContext) -> Tiled:
    """``node``'s chunks as ``reader``'s rule takes them: split only for split-aware ones."""
    if not is_split(tiled) or type(reader.op) in SPLIT_AWARE:
        return tiled
    return merge_columns(node.key, tiled, ctx)


def split_rule(op_type: type[Op]) -> Callable[[SplitRule], SplitRule]:
    """Register how ``op_type`` tiles when an input is split by columns, around its
    row-only rule (which must be registered first): the split rule runs when some input
    is split, and when it declines, the row-only rule runs on merged inputs."""

    def register(rule: SplitRule) -> SplitRule:
        rows_only = TILE_RULES[op_type]

        def tile(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
            if any(is_split(t) for t in inputs):
                out = rule(node, inputs, ctx)
                if out is not None:
                    return out
                inputs = [
                    merge_columns(i.key, t, ctx) if is_split(t) else t
                    for i, t in zip(node.inputs, inputs)
                ]
            return rows_only(node, inputs, ctx)

        TILE_RULES[op_type] = tile
        SPLIT_AWARE.add(op_type)
        return rule

    return register


def assemble_grid(chunks: list[Any], numblocks: tuple[int, ...]) -> list[Any]:
    """Row chunks from a row-major list of chunks of a ``numblocks`` grid."""
    if len(numblocks) < 2:
        return chunks
    rows, cols = numblocks
    return [concat_columns(*chunks[i * cols : (i + 1) * cols]) for i in range(rows)]


def column_offsets(widths: tuple[float, ...]) -> np.ndarray[Any, Any]:
    """Where each column chunk starts, and the width of all of them last."""
    return np.concatenate([[0], np.cumsum(widths, dtype=np.int64)])


__all__ = ["SPLIT_AWARE", "TileRule", "is_split", "merge_columns", "split_rule", "tiled_for"]
