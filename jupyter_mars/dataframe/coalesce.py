"""Merging runs of adjacent small chunks into chunks of about ``chunk_store_limit`` bytes.

After a selective filter or an inner merge, a frame may hold many chunks of few or no
rows; every later operation then pays a task per chunk. ``coalesce`` groups adjacent
chunks, in order, until a group holds about ``options.chunk_store_limit`` bytes (rows
times the bytes of one row of the meta's dtypes), and concatenates each group in one
task. The chunks' lengths are needed, so when they are unknown tiling pauses until they
are computed (``require_known``). Rows, their order and the index stay as they were.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.config import options
from jupyter_mars.dataframe.core import FrameBase, new_frame
from jupyter_mars.dataframe.node import FrameNode, concat_chunks
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule

__all__ = ["coalesce", "group_chunks"]

OBJECT_BYTES = 64
"""What a Python object (a string, say) is counted as, beyond its pointer."""


@dataclass(frozen=True, eq=False)
class Coalesce(Op):
    limit: int
    """Bytes a merged chunk may hold."""
    min_chunks: int = 0
    """A frame of at most this many chunks is left as it is (without waiting for sizes)."""

    def label(self) -> str:
        return "coalesce"


def row_bytes(meta: Any) -> int:
    """Bytes of one row of ``meta``'s dtypes (and its index), an estimate for objects."""
    dtypes = list(meta.dtypes) if isinstance(meta, pd.DataFrame) else [meta.dtype]
    dtypes.append(meta.index.dtype)
    total = 0
    for dtype in dtypes:
        size = dtype.itemsize if isinstance(dtype, np.dtype) else 8
        total += size + (OBJECT_BYTES if getattr(dtype, "kind", "O") == "O" else 0)
    return max(1, total)


def group_chunks(lengths: tuple[int, ...], max_rows: int) -> list[list[int]]:
    """Runs of adjacent chunks holding at most ``max_rows`` rows each (a chunk larger than
    that is a run of its own); empty chunks join a neighbour's run.

    >>> group_chunks((5, 0, 1, 9, 2, 2), 8)
    [[0, 1, 2], [3], [4, 5]]
    """
    groups: list[list[int]] = []
    rows = 0
    for i, n in enumerate(lengths):
        if groups and rows + n <= max_rows:
            groups[-1].append(i)
            rows += n
        else:
            groups.append([i])
            rows = n
    return groups


def concat_group(meta: Any, *chunks: Any) -> Any:
    return concat_chunks([c for c in chunks if len(c)] or list(chunks[:1]), meta)


@tile_rule(Coalesce)
def _tile_coalesce(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Coalesce)
    assert isinstance(node, FrameNode)
    (t,) = inputs
    if len(t.nsplits[0]) <= op.min_chunks:
        return Tiled(t.nsplits, t.keys)
    ctx.require_known(t)
    lengths = tuple(int(n) for n in t.nsplits[0])
    groups = group_chunks(lengths, max(1, op.limit // row_bytes(node.meta)))
    grid = key_grid(node.key, [len(groups)])
    for j, group in enumerate(groups):
        ctx.new_task(grid[j], concat_group, node.meta, *(Ref(t.keys[i]) for i in group))
    return Tiled((tuple(sum(lengths[i] for i in g) for g in groups),), grid)


def coalesce(frame: FrameBase, limit: int | None = None, min_chunks: int = 0) -> Any:
    """``frame`` with runs of adjacent small chunks merged (see the module docstring);
    unchanged when it has at most ``min_chunks`` chunks."""
    node = frame.node
    assert isinstance(node, FrameNode)
    size = options.chunk_store_limit if limit is None else limit
    return new_frame(Coalesce(size, min_chunks), [frame], node.shape[0], node.meta)
