"""Indexing with integer tensors, whose values are unknown when tiling (``ShuffleIndex``).

A shuffle: each chunk of the (broadcast) index tensors is bucketed by the input chunk its
indices fall in (``bucket_indices``); each input chunk serves the buckets that ask for it
(``shuffle_gather``); each output chunk assembles its pieces (``shuffle_assemble``).
Out-of-bounds indices raise NumPy's IndexError when the buckets are computed. The
bucketing is shared with ``x[tensor] = value`` (``setitem_tensor``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import NSplits
from jupyter_mars.engine.devices import array_module, to_host
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.blockwise import unify_chunks
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.indexing.fancy import axes_first, place_dims
from jupyter_mars.tensor.indexing.locate import (
    chunk_starts,
    grid_index,
    groups,
    locate,
    other_axes,
    product_of,
)
from jupyter_mars.tensor.indexing.nonzero import nonzero
from jupyter_mars.tensor.indexing.normalize import (
    Parsed,
    broadcast_index_shapes,
    insert,
    isnan,
    known,
    prod,
    shape_mismatch,
)

# ---- chunk kernels ---------------------------------------------------------------------------


def bucket_indices(
    info: tuple[Any, ...], *chunks: Any
) -> tuple[tuple[int, ...], dict[int, tuple[Any, tuple[Any, ...]]]]:
    """Group one chunk of (broadcast) index arrays by the input chunk each index falls in.

    ``info[j]`` is ``(chunk starts, axis number)`` for index j, or None for one that only
    takes part in broadcasting. Returns the chunk's broadcast shape and, per flat
    input-chunk number, the positions (in the flattened index chunk) and local indices.
    Index chunks on a GPU are bucketed on the host: the buckets are small plans of which
    element goes where, which CuPy takes as indices as they are.
    """
    arrays = [np.asarray(to_host(c)) for c in chunks]
    try:
        arrays = list(np.broadcast_arrays(*arrays))
    except ValueError:
        raise shape_mismatch([a.shape for a in arrays]) from None
    shape = arrays[0].shape if arrays else ()
    used = [(arr, spec) for arr, spec in zip(arrays, info) if spec is not None]
    at = locate([a for a, _ in used], [s[0] for _, s in used], [s[1] for _, s in used], prod(shape))
    return shape, {g: (sel, tuple(loc[sel] for loc in at.local)) for g, sel in groups(at.gid)}


def shuffle_gather(block: Any, g: int, axes: tuple[int, ...], *buckets: Any) -> list[Any]:
    """For each index chunk, the elements of this input chunk it asks for, as (k, *rest)."""
    moved = axes_first(block, axes)
    empty = tuple(np.empty(0, np.intp) for _ in axes)
    out = []
    for _, grps in buckets:
        grp = grps.get(g)
        out.append(moved[grp[1] if grp is not None else empty])
    return out


def shuffle_assemble(place: int, c: int, bucket: Any, *gathered: Any) -> Any:
    shape, grps = bucket
    first = gathered[0][c]
    out = array_module(first).empty((prod(shape),) + first.shape[1:], dtype=first.dtype)
    for g, pieces in enumerate(gathered):
        grp = grps.get(g)
        if grp is not None:
            out[grp[0]] = pieces[c]
    return place_dims(out, shape, place)


# ---- bucketing index tensors (shared with setitem) -------------------------------------------


def _bcast_chunk(t: Tiled, index: tuple[int, ...]) -> tuple[int, ...]:
    """The chunk of ``t`` (broadcast against a grid) that output chunk ``index`` reads."""
    offset = len(index) - t.keys.ndim
    return tuple(0 if t.keys.shape[a] == 1 else index[a + offset] for a in range(t.keys.ndim))


def _index_broadcast(
    node_key: str, idx: Sequence[Tiled], b_shape: tuple[float, ...], ctx: TileContext
) -> tuple[tuple[float, ...], list[Tiled]]:
    """The broadcast shape of the index tensors once their lengths are known (IndexError
    when they do not broadcast; ``b_shape`` while some are unknown), and the indices with
    every axis of length 1 in one chunk, so that it broadcasts chunk-wise."""
    shapes = [tuple(sum(a) for a in t.nsplits) for t in idx]
    if any(isnan(n) for s in shapes for n in s):
        return b_shape, list(idx)
    shape = tuple(broadcast_index_shapes([tuple(int(n) for n in s) for s in shapes]))
    out = []
    for j, t in enumerate(idx):
        if any(len(a) > 1 and sum(a) == 1 for a in t.nsplits):
            wanted = tuple((1,) if sum(a) == 1 else a for a in t.nsplits)
            t = rechunk_tiled(f"{node_key}-one{j}", t, wanted, np.dtype(np.intp), ctx)
        out.append(t)
    return shape, out


@dataclass
class Buckets:
    """The bucket tasks of a grid of index chunks."""

    b_nsplits: NSplits
    """Chunks of the broadcast index dims."""
    b_grid: list[tuple[int, ...]]
    """Every index chunk, in C order."""
    refs: list[Ref]
    """The bucket of each index chunk."""
    fancy_axes: tuple[int, ...]
    """The axes of ``x`` that the index tensors index."""
    fancy_grid: tuple[int, ...]
    """Chunks of ``x`` along ``fancy_axes``."""


def bucket_tasks(
    node_key: str,
    x: Tiled,
    idx: Sequence[Tiled],
    axes: tuple[int, ...],
    x_axes: tuple[int, ...],
    b_shape: tuple[float, ...],
    ctx: TileContext,
) -> Buckets:
    """One ``bucket_indices`` task per chunk of the index tensors ``idx`` (broadcast
    together), which index axes ``axes`` of ``x`` (-1: broadcasting only)."""
    b_shape, idx = _index_broadcast(node_key, idx, b_shape, ctx)
    b_nsplits, aligned = unify_chunks(f"{node_key}-idx", b_shape, idx, ctx)
    info = tuple(
        None if ax < 0 else (chunk_starts(x.nsplits[ax]), xa) for ax, xa in zip(axes, x_axes)
    )
    fancy_axes = tuple(ax for ax in axes if ax >= 0)
    b_grid = product_of(b_nsplits)
    refs = []
    for c in b_grid:
        key = (f"{node_key}-bucket", *c)
        chunks = [Ref(t.keys[_bcast_chunk(t, c)]) for t in aligned]
        ctx.add_blockwise(key, bucket_indices, (info, *chunks), {})
        refs.append(Ref(key))
    fancy_grid = tuple(x.numblocks[ax] for ax in fancy_axes)
    return Buckets(b_nsplits, b_grid, refs, fancy_axes, fancy_grid)


# ---- the operator ----------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ShuffleIndex(Op):
    axes: tuple[int, ...]
    """Input axis of each index tensor; -1 for one that only takes part in broadcasting."""
    place: int
    b_ndim: int
    x_axes: tuple[int, ...]

    def label(self) -> str:
        return "tensor_index"


@tile_rule(ShuffleIndex)
def _tile_shuffle(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, ShuffleIndex)
    y, idx = inputs[0], inputs[1:]
    if any(not known(y.nsplits[ax]) for ax in op.axes if ax >= 0):
        ctx.require_known(y)
    p = op.place
    b_hint = tuple(node.shape[p : p + op.b_ndim])
    bk = bucket_tasks(node.key, y, idx, op.axes, op.x_axes, b_hint, ctx)
    rest_axes, rest_nsplits = other_axes(y, bk.fancy_axes)
    nsplits = tuple(insert(rest_nsplits, p, bk.b_nsplits))
    grid = key_grid(node.key, [len(d) for d in nsplits])
    g_list = list(np.ndindex(*bk.fancy_grid))
    for r in product_of(rest_nsplits):
        gathered = []
        for g_flat, g in enumerate(g_list):
            y_index = grid_index(y.keys.ndim, (rest_axes, r), (bk.fancy_axes, g))
            key = (f"{node.key}-gather", *y_index)
            ctx.new_task(key, shuffle_gather, Ref(y.keys[y_index]), g_flat, bk.fancy_axes, *bk.refs)
            gathered.append(Ref(key))
        for c_flat, c in enumerate(bk.b_grid):
            out_index = r[:p] + c + r[p:]
            ctx.new_task(grid[out_index], shuffle_assemble, p, c_flat, bk.refs[c_flat], *gathered)
    return Tiled(nsplits, grid)


# ---- building the node -----------------------------------------------------------------------


def index_tensors(
    parsed: Parsed, axes_of: dict[int, tuple[int, ...]]
) -> tuple[list[Tensor], tuple[int, ...], tuple[int, ...]]:
    """Every advanced index as integer tensors (masks as their ``nonzero`` columns), with
    the axes they index (-1: a boolean scalar, broadcasting only) and the axes of the
    indexed tensor (for error messages)."""
    tensors: list[Tensor] = []
    axes: list[int] = []
    x_axes: list[int] = []
    for j, a in enumerate(parsed.adv):
        if a.kind in ("np", "tint"):
            tensors.append(astensor(a.value))
            axes.append(axes_of[j][0])
            x_axes.append(a.x_axes[0])
        elif a.kind in ("npmask", "tmask"):
            cols = np.nonzero(a.value) if a.kind == "npmask" else nonzero(a.value)
            for d, col in enumerate(cols):
                tensors.append(astensor(col))
                axes.append(axes_of[j][d])
                x_axes.append(a.x_axes[d])
        else:
            tensors.append(astensor(np.zeros(1 if a.value else 0, np.intp)))
            axes.append(-1)
            x_axes.append(-1)
    return tensors, tuple(axes), tuple(x_axes)
