"""Rechunk: the same array split along other chunk boundaries.

Each new chunk is cut from the old chunks that overlap it. A new chunk that is exactly an
old chunk reuses the old key (no task); one that lies inside one old chunk is a slice;
otherwise the pieces are copied into a fresh array.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import NSplits, rechunk_sources
from jupyter_mars.engine.devices import array_module
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.sparse import fill_sparse, is_sparse_chunk


@dataclass(frozen=True, eq=False)
class Rechunk(Op):
    nsplits: NSplits
    """The chunk lengths wanted, per axis."""

    def label(self) -> str:
        return "rechunk"


def take_slice(block: Any, index: tuple[slice, ...]) -> Any:
    return block[index]


def fill_from_pieces(
    shape: tuple[int, ...], dtype: np.dtype[Any], regions: list[Any], *blocks: Any
) -> Any:
    """A new array of ``shape``; ``regions[i] = (source_slices, target_slices)`` of block i."""
    first = blocks[0]
    if is_sparse_chunk(first):
        return fill_sparse(shape, dtype, regions, blocks)
    out = array_module(*blocks).empty(shape, dtype=getattr(first, "dtype", dtype))
    for (src, dst), block in zip(regions, blocks):
        out[dst] = block[src]
    return out


def rechunk_tiled(
    node_key: str, source: Tiled, nsplits: NSplits, dtype: np.dtype[Any], ctx: TileContext
) -> Tiled:
    """Tile a rechunk of ``source`` into ``nsplits``; used by every op that aligns chunks."""
    ctx.require_known(source)
    if all(tuple(a) == tuple(b) for a, b in zip(source.nsplits, nsplits)):
        return source
    per_axis = [
        rechunk_sources([int(n) for n in old], [int(n) for n in new])
        for old, new in zip(source.nsplits, nsplits)
    ]
    grid = key_grid(node_key, [len(axis) for axis in nsplits])
    for index in itertools.product(*(range(len(axis)) for axis in nsplits)):
        choices = [per_axis[a][i] for a, i in enumerate(index)]
        pieces = list(itertools.product(*choices))
        shape = tuple(int(nsplits[a][i]) for a, i in enumerate(index))
        if len(pieces) == 1:
            old_index = tuple(p[0] for p in pieces[0])
            slices = tuple(p[1] for p in pieces[0])
            old_key = source.keys[old_index]
            old_shape = source.chunk_shape(old_index)
            if all(s.start == 0 and s.stop == n for s, n in zip(slices, old_shape)):
                grid[index] = old_key
                continue
            ctx.new_task(grid[index], take_slice, Ref(old_key), slices)
            continue
        regions = []
        refs = []
        for piece in pieces:
            src = tuple(p[1] for p in piece)
            # where the piece lands inside the new chunk
            dst = []
            for a, (_, sl) in enumerate(piece):
                offset = sum(
                    choices[a][j][1].stop - choices[a][j][1].start
                    for j in range(len(choices[a]))
                    if choices[a][j][0] < piece[a][0]
                )
                dst.append(slice(offset, offset + sl.stop - sl.start))
            regions.append((src, tuple(dst)))
            refs.append(Ref(source.keys[tuple(p[0] for p in piece)]))
        ctx.new_task(grid[index], fill_from_pieces, shape, dtype, regions, *refs)
    return Tiled(tuple(tuple(a) for a in nsplits), grid)


@tile_rule(Rechunk)
def _tile_rechunk(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    assert isinstance(node.op, Rechunk)
    return rechunk_tiled(node.key, inputs[0], node.op.nsplits, node.dtype, ctx)
