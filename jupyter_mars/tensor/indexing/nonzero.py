"""Where a tensor is nonzero: ``nonzero``, ``argwhere``, ``flatnonzero`` (``ArgWhere``), and
the flat positions of the True elements of a mask (``MaskRanks``, for ``x[mask] = values``).

One output chunk of unknown (``nan``) length per chunk along the first axis. Each input
chunk gives the global coordinates (or flat C-order positions) of its nonzero elements;
where the input is chunked along other axes too, the pieces of a row of chunks are merged
back into C order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.devices import array_module
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.executable import ExecutableTuple
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.indexing.locate import product_of
from jupyter_mars.tensor.indexing.mask import align_mask
from jupyter_mars.tensor.indexing.normalize import NAN

# ---- chunk kernels ---------------------------------------------------------------------------


def mask_flat_block(mask: Any, starts: tuple[int, ...], shape: tuple[int, ...]) -> Any:
    """Flat C-order positions, in the whole array of ``shape``, of the nonzero (True)
    elements of a chunk (at least 1-d) that starts at ``starts``."""
    xp = array_module(mask)
    coords = xp.nonzero(xp.asarray(mask))
    moved = tuple(c + s for c, s in zip(coords, starts))
    return xp.ravel_multi_index(moved, shape).astype(np.intp, copy=False)


def sorted_concat(*pieces: Any) -> Any:
    xp = array_module(*pieces)
    return xp.sort(xp.concatenate(pieces))


def argwhere_block(block: Any, starts: tuple[int, ...], shape: tuple[int, ...], flat: bool) -> Any:
    """Global coordinates (or flat C-order positions) of the nonzero elements of a chunk."""
    xp = array_module(block)
    block = xp.asarray(block)
    if flat:
        if block.ndim == 0:
            return xp.flatnonzero(block).astype(np.intp)
        return mask_flat_block(block, starts, shape)
    res = xp.argwhere(block)
    if any(starts):
        res += xp.asarray(starts, dtype=res.dtype)
    return res


def argwhere_merge(flat: bool, *pieces: Any) -> Any:
    """Pieces of one strip put back in global C order."""
    if flat:
        return sorted_concat(*pieces)
    xp = array_module(*pieces)
    rows = xp.concatenate(pieces, axis=0)
    return rows[xp.lexsort(rows.T[::-1])]


# ---- operators -------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ArgWhere(Op):
    flat: bool
    """Flat C-order positions (``flatnonzero``) rather than coordinate rows (``argwhere``)."""

    def label(self) -> str:
        return "flatnonzero" if self.flat else "argwhere"


@dataclass(frozen=True, eq=False)
class MaskRanks(Op):
    """Sorted flat positions (within the mask) of the True elements of a mask, one chunk per
    chunk of the indexed tensor along the first masked axis. Inputs: the tensor, the mask."""

    axes: tuple[int, ...]
    x_axis: int

    def label(self) -> str:
        return "mask_ranks"


def _nonzero_strips(node_key: str, x: Tiled, flat: bool, ctx: TileContext) -> Tiled:
    """The tasks of ``ArgWhere(flat)`` on ``x`` (known chunk lengths)."""
    ndim = x.keys.ndim
    whole = tuple(int(sum(a)) for a in x.nsplits)
    starts = [offsets(a) for a in x.nsplits]
    if ndim:  # chunk indices by their position along the first axis (C order inside)
        rest = product_of(x.nsplits[1:])
        strips = [[(i, *s) for s in rest] for i in range(x.numblocks[0])]
    else:
        strips = [[()]]
    lengths = (NAN,) * len(strips)
    nsplits = (lengths,) if flat else (lengths, (ndim,))
    grid = key_grid(node_key, [len(d) for d in nsplits])
    for i, blocks in enumerate(strips):
        out_index = (i,) if flat else (i, 0)
        args = [
            (Ref(x.keys[b]), tuple(int(starts[a][j]) for a, j in enumerate(b)), whole, flat)
            for b in blocks
        ]
        if len(args) == 1:
            ctx.add_blockwise(grid[out_index], argwhere_block, args[0], {})
            continue
        refs = []
        for n, a in enumerate(args):
            key = (f"{node_key}-piece", i, n)
            ctx.add_blockwise(key, argwhere_block, a, {})
            refs.append(Ref(key))
        ctx.new_task(grid[out_index], argwhere_merge, flat, *refs)
    return Tiled(nsplits, grid)


@tile_rule(ArgWhere)
def _tile_argwhere(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, ArgWhere)
    (x,) = inputs
    ctx.require_known(x)
    return _nonzero_strips(node.key, x, op.flat, ctx)


@tile_rule(MaskRanks)
def _tile_mask_ranks(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, MaskRanks)
    x, mask = inputs
    ctx.require_known(x, mask)
    mask = align_mask(node.key, x, mask, op.axes, op.x_axis, ctx)
    return _nonzero_strips(node.key, mask, True, ctx)


# ---- public functions ------------------------------------------------------------------------


def argwhere(a: Any) -> Tensor:
    """Lazy ``numpy.argwhere``: a ``(nan, ndim)`` tensor of global coordinates, C order.

    One output chunk per chunk along the first axis; where the input is chunked along other
    axes too, the pieces of a row of chunks are merged back into C order.
    """
    x = astensor(a)
    return new_tensor(ArgWhere(False), [x], (NAN, x.ndim), np.intp)


def flatnonzero(a: Any) -> Tensor:
    """Lazy ``numpy.flatnonzero``: positions in the flattened (C order) tensor."""
    x = astensor(a)
    return new_tensor(ArgWhere(True), [x], (NAN,), np.intp)


def nonzero(a: Any) -> Any:
    """Lazy ``numpy.nonzero``: a tuple of 1-d ``intp`` tensors of unknown length."""
    x = astensor(a)
    if x.ndim == 0:
        raise ValueError(
            "Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() "
            "instead."
        )
    rows = argwhere(x)
    return ExecutableTuple(rows[:, i] for i in range(x.ndim))
