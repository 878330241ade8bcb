"""A new ``RangeIndex`` over a whole frame: rows labelled ``0 .. n-1`` across its chunks.

For ``ignore_index=True`` after a sort, a merge or a concat, and for readers whose chunks'
lengths are data-dependent (a CSV byte range, a filtered Parquet row group). Chunk ``i``'s
labels start at the number of rows before it, so the rule needs every chunk's length:
when they are unknown, tiling pauses until the chunks are computed (``require_known``),
then each chunk is relabelled, one task per chunk.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.core import new_frame
from jupyter_mars.dataframe.node import FrameNode
from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule


@dataclass(frozen=True, eq=False)
class Renumber(Op):
    def label(self) -> str:
        return "renumber"


def with_range_index(chunk: Any, start: int) -> Any:
    """``chunk`` relabelled ``start, start + 1, ...``."""
    return chunk.set_axis(pd.RangeIndex(start, start + len(chunk)), axis=0)


@tile_rule(Renumber)
def _tile_renumber(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    (t,) = inputs
    ctx.require_known(t)
    lengths = t.nsplits[0]
    grid = key_grid(node.key, [len(lengths)])
    for i, start in enumerate(offsets(lengths)[: len(lengths)]):
        ctx.add_blockwise(grid[i], with_range_index, (Ref(t.keys[i]), int(start)), {})
    return Tiled(t.nsplits, grid)


def renumber(frame: Any, meta: Any = None) -> Any:
    """``frame`` (a handle or a node) with its rows labelled 0..n-1; ``meta`` is the
    result's (by default the frame's, with a ``RangeIndex``)."""
    node = frame if isinstance(frame, FrameNode) else frame.node
    assert isinstance(node, FrameNode)
    if meta is None:
        meta = with_range_index(node.meta, 0)
    return new_frame(Renumber(), [node], node.shape[0], meta)
