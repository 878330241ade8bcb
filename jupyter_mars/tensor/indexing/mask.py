"""Indexing with a boolean tensor mask (``MaskIndex``).

The mask is rechunked like the indexed tensor along the masked axes (when it is not
already). The result has one output chunk of unknown (``nan``) length per input chunk along
the first masked axis: a strip of input chunks (the other masked axes) is filtered chunk by
chunk and the pieces are merged back into C order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.devices import array_module
from jupyter_mars.engine.graph import Key, Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.indexing.locate import grid_index, other_axes, product_of
from jupyter_mars.tensor.indexing.normalize import NAN, insert, known, mask_mismatch

# ---- chunk kernels ---------------------------------------------------------------------------


def mask_take_block(block: Any, mask: Any, axis: int, place: int) -> Any:
    mask = array_module(block, mask).asarray(mask, dtype=bool)
    res = block[(slice(None),) * axis + (mask,)]
    return res if place == axis else np.moveaxis(res, axis, place)


def mask_take_piece(block: Any, mask: Any, axis: int, starts: tuple[int, ...]) -> Any:
    """Selected elements (selected dim first) and their coordinates in the strip."""
    xp = array_module(block, mask)
    mask = xp.asarray(mask, dtype=bool)
    res = block[(slice(None),) * axis + (mask,)]
    coords = xp.nonzero(mask)
    rows = [coords[0]] + [c + s for c, s in zip(coords[1:], starts)]
    return xp.moveaxis(res, axis, 0), xp.stack(rows) if rows else xp.empty((0, 0), np.intp)


def mask_merge(place: int, *pieces: Any) -> Any:
    xp = array_module(*(p[0] for p in pieces))
    values = xp.concatenate([p[0] for p in pieces])
    coords = xp.concatenate([p[1] for p in pieces], axis=1)
    order = xp.lexsort(coords[::-1])
    return np.moveaxis(values[order], 0, place)


# ---- aligning a mask with the tensor ---------------------------------------------------------


def _same_splits(a: Sequence[float], b: Sequence[float]) -> bool:
    return a is b or (len(a) == len(b) and known(a) and known(b) and tuple(a) == tuple(b))


def align_mask(
    node_key: str, x: Tiled, mask: Tiled, axes: tuple[int, ...], x_axis: int, ctx: TileContext
) -> Tiled:
    """``mask`` with the chunks of ``x`` along ``axes`` (checked against their lengths)."""
    if all(_same_splits(x.nsplits[a], mask.nsplits[j]) for j, a in enumerate(axes)):
        return mask
    ctx.require_known(x, mask)
    for j, a in enumerate(axes):
        size, got = int(sum(x.nsplits[a])), int(sum(mask.nsplits[j]))
        if size != got:
            raise mask_mismatch(x_axis + j, size, got)
    wanted = tuple(x.nsplits[a] for a in axes)
    return rechunk_tiled(f"{node_key}-mask", mask, wanted, np.dtype(bool), ctx)


# ---- the operator ----------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class MaskIndex(Op):
    axis: int
    """First masked axis of the input."""
    ndim: int
    """Dimensions of the mask."""
    place: int
    x_axis: int

    def label(self) -> str:
        return "mask_index"


@tile_rule(MaskIndex)
def _tile_mask(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, MaskIndex)
    y, mask = inputs
    a, k, p = op.axis, op.ndim, op.place
    axes = tuple(range(a, a + k))
    mask = align_mask(node.key, y, mask, axes, op.x_axis, ctx)
    if any(y.numblocks[ax] > 1 and not known(y.nsplits[ax]) for ax in axes[1:]):
        ctx.require_known(y)
    rest_axes, rest_nsplits = other_axes(y, axes)
    strips = (NAN,) * y.numblocks[a]
    nsplits = tuple(insert(rest_nsplits, p, [strips]))
    grid = key_grid(node.key, [len(d) for d in nsplits])
    sub_grid = product_of([y.nsplits[ax] for ax in axes[1:]])
    sub_starts = [offsets(y.nsplits[ax]) if len(y.nsplits[ax]) > 1 else [0] for ax in axes[1:]]
    for i in range(len(strips)):
        for r in product_of(rest_nsplits):
            out_index = r[:p] + (i,) + r[p:]

            def y_key(sub: tuple[int, ...], r: tuple[int, ...] = r, i: int = i) -> Key:
                key: Key = y.keys[grid_index(y.keys.ndim, (rest_axes, r), (axes, (i, *sub)))]
                return key

            if len(sub_grid) == 1:
                ctx.add_blockwise(
                    grid[out_index],
                    mask_take_block,
                    (Ref(y_key(sub_grid[0])), Ref(mask.keys[(i, *sub_grid[0])]), a, p),
                    {},
                )
                continue
            refs = []
            for n, sub in enumerate(sub_grid):
                key = (f"{node.key}-piece", *out_index, n)
                starts = tuple(int(s[j]) for s, j in zip(sub_starts, sub))
                ctx.add_blockwise(
                    key,
                    mask_take_piece,
                    (Ref(y_key(sub)), Ref(mask.keys[(i, *sub)]), a, starts),
                    {},
                )
                refs.append(Ref(key))
            ctx.new_task(grid[out_index], mask_merge, p, *refs)
    return Tiled(nsplits, grid)
