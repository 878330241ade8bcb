"""How a frame's rows are cut into new chunks: the ``Rechunk`` operator and its tiling.

The rule reads full-width row chunks (the column-split fallback merges any column
chunks first); each new row chunk is cut from the old ones it overlaps and, with
``cols``, cut again into column chunks, so a frame from any source (``read_csv``,
``read_parquet``, a computation) can be split by columns this way. ``rechunk.py`` gives
frames the method; ``datasource.py`` builds with the operator.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.chunks import row_splits
from jupyter_mars.dataframe.node import FrameNode, concat_chunks
from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule


@dataclass(frozen=True, eq=False)
class Rechunk(Op):
    rows: Any
    """Rows per chunk, or None to keep the row chunks as they are."""
    cols: tuple[int, ...] | None
    """Widths of the column chunks, or None for full-width chunks."""

    def label(self) -> str:
        return "rechunk"


def _rows(chunk: Any, start: int, stop: int) -> Any:
    return chunk[start:stop] if isinstance(chunk, pd.Index) else chunk.iloc[start:stop]


def rows_from(meta: Any, *pieces: Any) -> Any:
    """One chunk from ``(chunk, start, stop)`` row ranges of old chunks (frames, Series or
    indexes), in order."""
    parts = [_rows(pieces[k], pieces[k + 1], pieces[k + 2]) for k in range(0, len(pieces), 3)]
    return concat_chunks(parts, meta)


def columns_from(chunk: pd.DataFrame, start: int, stop: int) -> pd.DataFrame:
    return chunk.iloc[:, start:stop]


def row_tasks(node: Node, op: Rechunk, t: Tiled, ctx: TileContext) -> Tiled:
    """Full-width chunks of ``op.rows`` rows (the input's, with ``rows`` None)."""
    if op.rows is None:
        return t
    ctx.require_known(t)
    lengths = [int(n) for n in t.nsplits[0]]
    assert isinstance(node, FrameNode)
    splits = row_splits(sum(lengths), op.rows, 1)
    old, new = offsets(lengths), offsets(splits)
    grid = key_grid(f"{node.key}-rows", [len(splits)])
    for j in range(len(splits)):
        lo, hi = int(new[j]), int(new[j + 1])
        pieces: list[Any] = []
        for i, n in enumerate(lengths):
            a, b = max(lo, int(old[i])), min(hi, int(old[i]) + n)
            if a < b or (not pieces and i == len(lengths) - 1):
                pieces += [Ref(t.keys[i]), a - int(old[i]), max(a, b) - int(old[i])]
        ctx.new_task(grid[j], rows_from, node.meta, *pieces)
    return Tiled((splits,), grid)


@tile_rule(Rechunk)
def _tile_rechunk(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Rechunk)
    rows = row_tasks(node, op, inputs[0], ctx)
    if op.cols is None:
        return rows
    grid: Any = key_grid(node.key, [len(rows.nsplits[0]), len(op.cols)])
    starts = offsets(op.cols)
    row_keys: Any = rows.keys
    for i, j in np.ndindex(*grid.shape):
        a, b = int(starts[j]), int(starts[j + 1])
        ctx.add_blockwise(grid[i, j], columns_from, (Ref(row_keys[i]), a, b), {})
    return Tiled((rows.nsplits[0], op.cols), grid)
