"""``transpose``, ``swapaxes`` and ``moveaxis`` (and the ``.T`` property).

The chunk grid is transposed; one cheap ``np.transpose`` task per chunk (fused with what
follows). ``swapaxes`` and ``moveaxis`` are permutations passed to ``transpose``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, tile_rule
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.shape.common import (
    check_axis,
    node_grid,
    normalize_axis_tuple,
    wrap_node,
)
from jupyter_mars.tensor.sparse.convert import sparse_like


@dataclass(frozen=True, eq=False)
class Transpose(Op):
    axes: tuple[int, ...]


def _transpose_chunk(block: Any, axes: tuple[int, ...]) -> Any:
    return np.transpose(block, axes)


@tile_rule(Transpose)
def _tile_transpose(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Transpose)
    (x,) = inputs
    nsplits = tuple(x.nsplits[a] for a in op.axes)
    src_keys: Any = x.keys.transpose(op.axes)
    grid = node_grid(node.key, [len(n) for n in nsplits])
    for index in np.ndindex(*grid.shape):
        ctx.add_blockwise(grid[index], _transpose_chunk, (Ref(src_keys[index]),), {"axes": op.axes})
    return Tiled(nsplits, grid)


def transpose(a: Any, axes: Any = None) -> Tensor:
    """Lazy ``numpy.transpose``: the chunk grid is permuted, one task per chunk."""
    x = astensor(a)
    if axes is None:
        perm = tuple(range(x.ndim))[::-1]
    else:
        if isinstance(axes, np.ndarray):
            axes = axes.tolist()
        items = tuple(axes) if isinstance(axes, (tuple, list)) else (axes,)
        if len(items) != x.ndim:
            raise ValueError(
                f"axes don't match array: got {len(items)} axes for a tensor of "
                f"{x.ndim} dimension(s)"
            )
        perm = tuple(check_axis(i, x.ndim, "axes") for i in items)
        if len(set(perm)) != len(perm):
            raise ValueError(f"repeated axis in transpose: axes={axes!r}")
    if perm == tuple(range(x.ndim)):
        return wrap_node(x)
    shape = tuple(x.shape[i] for i in perm)
    return new_tensor(Transpose(perm), [x], shape, x.dtype, sparse=sparse_like(x))


def swapaxes(a: Any, axis1: Any, axis2: Any) -> Tensor:
    """Lazy ``numpy.swapaxes``."""
    x = astensor(a)
    i = check_axis(axis1, x.ndim, "axis1")
    j = check_axis(axis2, x.ndim, "axis2")
    perm = list(range(x.ndim))
    perm[i], perm[j] = perm[j], perm[i]
    return transpose(x, perm)


def moveaxis(a: Any, source: Any, destination: Any) -> Tensor:
    """Lazy ``numpy.moveaxis``."""
    x = astensor(a)
    src = normalize_axis_tuple(source, x.ndim, "source")
    dst = normalize_axis_tuple(destination, x.ndim, "destination")
    if len(src) != len(dst):
        raise ValueError(
            "`source` and `destination` arguments must have the same number of elements"
        )
    order = [i for i in range(x.ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transpose(x, order)
