"""A new ``RangeIndex`` over a whole frame: rows labelled ``0 .. n-1`` across its chunks.

Chunk ``i``'s labels start at the number of rows before it, so the rule needs every
chunk's length: when they are data-dependent (after a merge), tiling pauses until the
chunks are computed (``require_known``), then each chunk is relabelled in place of
itself, one task per chunk.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jupyter_mars.dataframe.core import _Frame, new_frame
from jupyter_mars.dataframe.joins.kernels import with_range_index
from jupyter_mars.dataframe.node import FrameNode
from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule


@dataclass(frozen=True, eq=False)
class RangeRenumber(Op):
    def label(self) -> str:
        return "renumber"


@tile_rule(RangeRenumber)
def _tile_renumber(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    (t,) = inputs
    ctx.require_known(t)
    lengths = t.nsplits[0]
    grid = key_grid(node.key, [len(lengths)])
    for i, start in enumerate(offsets(lengths)[: len(lengths)]):
        ctx.add_blockwise(grid[i], with_range_index, (Ref(t.keys[i]), int(start)), {})
    return Tiled(t.nsplits, grid)


def renumber(frame: _Frame, meta: Any) -> Any:
    """``frame`` with a ``RangeIndex`` from 0 over all its rows; ``meta`` is the result's."""
    node = frame.node
    assert isinstance(node, FrameNode)
    return new_frame(RangeRenumber(), [frame], node.shape[0], meta)
