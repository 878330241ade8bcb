"""A fresh ``RangeIndex`` over rows whose chunk lengths are data-dependent.

``ignore_index=True`` after a sort or a filter numbers the rows 0..n-1 in order: each chunk
needs the number of rows before it, so the rule waits until the lengths are known
(iterative tiling) and then relabels every chunk with its own slice of the range.
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
    out = chunk.copy(deep=False)
    out.index = pd.RangeIndex(start, start + len(chunk))
    return out


@tile_rule(Renumber)
def _tile_renumber(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    (t,) = inputs
    ctx.require_known(t)
    starts = offsets(t.nsplits[0])
    grid = key_grid(node.key, [len(t.nsplits[0])])
    for i, key in enumerate(t.flat_keys()):
        ctx.add_blockwise(grid[i], with_range_index, (Ref(key), int(starts[i])), {})
    return Tiled(t.nsplits, grid)


def renumber(frame: Any) -> Any:
    """``frame`` with its rows labelled 0..n-1 (``ignore_index=True``)."""
    node = frame.node
    assert isinstance(node, FrameNode)
    meta = with_range_index(node.meta, 0)
    return new_frame(Renumber(), [frame], node.shape[0], meta)
