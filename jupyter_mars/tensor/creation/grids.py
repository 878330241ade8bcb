"""``meshgrid``: coordinate tensors spread from coordinate vectors."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import normalize_chunk_size
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor import datasource
from jupyter_mars.tensor.core import Tensor, new_tensor, unknown_shape
from jupyter_mars.tensor.creation.common import block_indices, chunk_shape, numblocks
from jupyter_mars.tensor.gpu_keyword import check_gpu

# ---- meshgrid ----------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class MeshGrid(Op):
    which: int
    """The input this output spreads."""
    axes: tuple[int, ...]
    """The output axis of each input."""
    sparse: bool
    copy: bool
    chunk_size: Any
    itemsize: int

    def label(self) -> str:
        return "meshgrid"


def mesh_chunk(block: Any, shape: tuple[int, ...], axis: int, copy: bool) -> Any:
    view = [1] * len(shape)
    view[axis] = block.shape[0]
    out = np.broadcast_to(block.reshape(view), shape)
    return out.copy() if copy else out


def _mesh_shape(
    lengths: Sequence[Any], axes: tuple[int, ...], which: int, sparse: bool
) -> list[Any]:
    shape: list[Any] = [1] * len(lengths)
    for j, n in enumerate(lengths):
        if not sparse or j == which:
            shape[axes[j]] = n
    return shape


@tile_rule(MeshGrid)
def _tile_meshgrid(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, MeshGrid)
    ctx.require_known(*inputs)
    lengths = [int(sum(t.nsplits[0])) for t in inputs]
    shape = _mesh_shape(lengths, op.axes, op.which, op.sparse)
    nsplits = normalize_chunk_size(shape, op.chunk_size, op.itemsize)
    axis = op.axes[op.which]
    x = rechunk_tiled(f"{node.key}-in", inputs[op.which], (nsplits[axis],), node.dtype, ctx)
    grid = key_grid(node.key, numblocks(nsplits))
    for index in block_indices(nsplits):
        out_shape = chunk_shape(nsplits, index)
        args = (Ref(x.keys[index[axis]]), out_shape, axis, op.copy)
        ctx.add_blockwise(grid[index], mesh_chunk, args, {})
    return Tiled(nsplits, grid)


def _ravel(x: Any, gpu: bool | None) -> Tensor:
    if not isinstance(x, Tensor):
        return datasource.tensor(np.ravel(np.asarray(x)), gpu=gpu)
    if x.ndim == 1:
        return x
    ravel = getattr(x, "ravel", None)
    if ravel is None:
        raise NotImplementedError("meshgrid() of N-d tensors needs Tensor.ravel")
    out = ravel()
    assert isinstance(out, Tensor)
    return out


def meshgrid(
    *xi: Any,
    copy: bool = True,
    sparse: bool = False,
    indexing: str = "xy",
    chunk_size: Any = None,
    gpu: Any = None,
) -> list[Tensor]:
    """Coordinate tensors from coordinate vectors (``numpy.meshgrid``).

    The outputs share one chunk layout: ``chunk_size`` of the output shape (by default
    chunks of about ``options.chunk_store_limit`` bytes), each chunk spread from the
    part of its input vector it covers. ``gpu=True``: spread on a GPU (by default, where
    the vectors are).
    """
    on_gpu = check_gpu(gpu, "meshgrid")
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    vectors = [_ravel(x, on_gpu) for x in xi]
    ndim = len(vectors)
    axes = list(range(ndim))
    if indexing == "xy" and ndim > 1:
        axes[0], axes[1] = 1, 0
    itemsize = max((max(v.dtype.itemsize, 1) for v in vectors), default=1)
    lengths = [v.shape[0] for v in vectors]
    out = []
    for which, v in enumerate(vectors):
        shape = _mesh_shape(lengths, tuple(axes), which, bool(sparse))
        if not unknown_shape(shape):
            normalize_chunk_size(shape, chunk_size, itemsize)  # raise bad chunk_size here
        op = MeshGrid(which, tuple(axes), bool(sparse), bool(copy), chunk_size, itemsize)
        out.append(new_tensor(op, vectors, tuple(shape), v.dtype, gpu=on_gpu))
    return out
