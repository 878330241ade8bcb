"""Fancy indexing with integer arrays known at build time (``FancyIndex``).

NumPy arrays, lists, and NumPy boolean masks (as their ``nonzero`` arrays) are broadcast
together; the broadcast index shape is split into chunks (a sorted 1-d index is cut where it
moves to the next input chunk). Every output chunk reads only the input chunks its indices
fall in: one task per output chunk, and none for one that is a whole input chunk.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import auto_chunk_sizes, offsets, split_evenly
from jupyter_mars.engine.devices import array_module
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.tensor.indexing.locate import (
    chunk_starts,
    grid_index,
    groups,
    locate,
    other_axes,
    product_of,
)
from jupyter_mars.tensor.indexing.normalize import (
    Parsed,
    broadcast_index_shapes,
    insert,
    known,
    prod,
)

# ---- chunk kernels ---------------------------------------------------------------------------


def axes_first(block: Any, axes: tuple[int, ...]) -> Any:
    """``block`` with ``axes`` moved to the front, in that order."""
    m = len(axes)
    return block if axes == tuple(range(m)) else np.moveaxis(block, axes, tuple(range(m)))


def place_dims(res: Any, b_shape: tuple[int, ...], place: int) -> Any:
    """``(k, *rest)`` -> ``rest`` with dims ``b_shape`` (k elements) inserted at ``place``."""
    out = res.reshape(tuple(b_shape) + res.shape[1:])
    nb = len(b_shape)
    if place and nb:
        out = np.moveaxis(out, tuple(range(nb)), tuple(range(place, place + nb)))
    return out


def take_flat(block: Any, axes: tuple[int, ...], local: tuple[Any, ...], k: int) -> Any:
    """Elements ``block[local]`` over ``axes``, as ``(k, *other dims)``."""
    if not axes:
        xp = array_module(block)
        return xp.repeat(xp.asarray(block)[np.newaxis], k, axis=0)
    return axes_first(block, axes)[tuple(local)]


def fancy_take_block(
    block: Any,
    axes: tuple[int, ...],
    local: tuple[Any, ...],
    b_shape: tuple[int, ...],
    place: int,
) -> Any:
    return place_dims(take_flat(block, axes, local, prod(b_shape)), b_shape, place)


def fancy_gather(
    b_shape: tuple[int, ...],
    place: int,
    axes: tuple[int, ...],
    parts: list[tuple[Any, Any]],
    *blocks: Any,
) -> Any:
    """One output chunk from several input chunks: ``parts[i] = (local indices, positions
    in the output)`` of the elements taken from ``blocks[i]``."""
    out: Any = None
    for (local, positions), block in zip(parts, blocks):
        piece = take_flat(block, axes, local, len(positions))
        if out is None:
            out = array_module(piece).empty((prod(b_shape),) + piece.shape[1:], dtype=piece.dtype)
        out[positions] = piece
    return place_dims(out, b_shape, place)


# ---- the operator ----------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class FancyIndex(Op):
    axes: tuple[int, ...]
    """Input axis each index array indexes (distinct)."""
    arrays: tuple[np.ndarray[Any, Any], ...]
    """Integer index arrays, all broadcast to ``b_shape`` (may be negative)."""
    b_shape: tuple[int, ...]
    place: int
    """Position of the ``b_shape`` dims among the output dims."""
    x_axes: tuple[int, ...]
    """Axis numbers of the indexed tensor, for error messages."""

    def label(self) -> str:
        return "fancy_index"


def _b_nsplits(
    b_shape: tuple[int, ...], flat: list[Any], bids: list[Any], lengths: Sequence[Sequence[float]]
) -> tuple[tuple[int, ...], ...]:
    """Chunks of the broadcast index dims: a sorted 1-d index is cut where it moves to the
    next input chunk; otherwise about as many elements per chunk as an input chunk has."""
    cap = max(prod([max(int(max(ls)), 1) for ls in lengths]), 1)
    if (
        len(flat) == 1
        and len(b_shape) == 1
        and b_shape[0] > 1
        and bool(np.all(np.diff(flat[0]) >= 0))
    ):
        cuts = [0, *(np.flatnonzero(np.diff(bids[0])) + 1).tolist(), b_shape[0]]
        pieces: list[int] = []
        for lo, hi in zip(cuts[:-1], cuts[1:]):
            pieces.extend(split_evenly(hi - lo, cap))
        return (tuple(pieces),)
    sizes = auto_chunk_sizes(b_shape, 1, cap)
    return tuple(split_evenly(n, s) for n, s in zip(b_shape, sizes))


@tile_rule(FancyIndex)
def _tile_fancy(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, FancyIndex)
    (y,) = inputs
    if any(not known(y.nsplits[ax]) for ax in op.axes):
        ctx.require_known(y)
    lengths = [y.nsplits[ax] for ax in op.axes]
    k_total = prod(op.b_shape)
    at = locate(op.arrays, [chunk_starts(ls) for ls in lengths], op.x_axes, k_total)
    b_nsplits = _b_nsplits(op.b_shape, at.flat, at.bids, lengths)
    rest_axes, rest_nsplits = other_axes(y, op.axes)
    p = op.place
    nsplits = tuple(insert(rest_nsplits, p, b_nsplits))
    grid = key_grid(node.key, [len(d) for d in nsplits])
    positions_grid = np.arange(k_total).reshape(op.b_shape)
    b_starts = [offsets(d) for d in b_nsplits]
    for cb in product_of(b_nsplits):
        region = tuple(slice(int(s[i]), int(s[i + 1])) for s, i in zip(b_starts, cb))
        c_shape = tuple(int(d[i]) for d, i in zip(b_nsplits, cb))
        positions = positions_grid[region].ravel()
        reads = []  # per input chunk read: (its index along the fancy axes, local, positions)
        for g, sel in groups(at.gid[positions]) or [(0, np.empty(0, np.intp))]:
            bidx = tuple(int(b) for b in np.unravel_index(g, at.grid)) if at.grid else ()
            reads.append((bidx, tuple(loc[positions[sel]] for loc in at.local), sel))
        whole = False
        if len(reads) == 1 and len(op.axes) == 1 and len(op.b_shape) == 1 and p == op.axes[0]:
            (b0,), (loc0,), _ = reads[0]
            n0 = y.nsplits[op.axes[0]][b0]
            whole = len(loc0) == n0 and bool(np.array_equal(loc0, np.arange(n0)))
        for r in product_of(rest_nsplits):
            out_index = r[:p] + cb + r[p:]
            parts = [
                (y.keys[grid_index(y.keys.ndim, (rest_axes, r), (op.axes, bidx))], local, sel)
                for bidx, local, sel in reads
            ]
            if len(parts) == 1:
                key, local, _ = parts[0]
                if whole:  # the output chunk is exactly this input chunk
                    grid[out_index] = key
                    continue
                ctx.add_blockwise(
                    grid[out_index], fancy_take_block, (Ref(key), op.axes, local, c_shape, p), {}
                )
                continue
            ctx.new_task(
                grid[out_index],
                fancy_gather,
                c_shape,
                p,
                op.axes,
                [(local, sel) for _, local, sel in parts],
                *(Ref(key) for key, _, _ in parts),
            )
    return Tiled(nsplits, grid)


# ---- building the node -----------------------------------------------------------------------


def numpy_fancy(
    parsed: Parsed, axes_of: dict[int, tuple[int, ...]]
) -> tuple[tuple[int, ...], tuple[np.ndarray[Any, Any], ...], tuple[int, ...], tuple[int, ...]]:
    """Index arrays (masks as their nonzero arrays) broadcast together, with the axes they
    index (``axes_of[j]`` for advanced index j), their broadcast shape and the axes of the
    indexed tensor (for error messages)."""
    shapes: list[tuple[Any, ...]] = []
    arrays: list[np.ndarray[Any, Any]] = []
    axes: list[int] = []
    x_axes: list[int] = []
    for j, a in enumerate(parsed.adv):
        if a.kind == "np":
            shapes.append(a.value.shape)
            arrays.append(a.value)
            axes.append(axes_of[j][0])
            x_axes.append(a.x_axes[0])
        elif a.kind == "npmask":
            nz = np.nonzero(a.value)
            shapes.append(nz[0].shape)
            for d, arr in enumerate(nz):
                arrays.append(arr)
                axes.append(axes_of[j][d])
                x_axes.append(a.x_axes[d])
        else:
            shapes.append((1,) if a.value else (0,))
    b_shape = tuple(int(n) for n in broadcast_index_shapes(shapes))
    return (
        tuple(axes),
        tuple(np.broadcast_to(arr, b_shape) for arr in arrays),
        b_shape,
        tuple(x_axes),
    )
