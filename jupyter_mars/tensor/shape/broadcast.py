"""``broadcast_to``: a tensor seen with a larger shape, as in NumPy's broadcasting.

Input chunks are broadcast; new and stretched axes are cut so each chunk stays within
``options.chunk_store_limit``. Chunks are read-only views, as NumPy's. Data-dependent
(``nan``) input lengths are checked once known (``ctx.require_known``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.config import options
from jupyter_mars.engine.chunks import auto_chunk_sizes, split_evenly
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, tile_rule
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.shape.common import (
    is_unknown,
    node_grid,
    shape_param,
    shape_str,
    tiled_keys,
    wrap_node,
)


@dataclass(frozen=True, eq=False)
class BroadcastTo(Op):
    shape: tuple[int, ...]
    max_bytes: int

    def label(self) -> str:
        return "broadcast_to"


def _broadcast_chunk(block: Any, shape: tuple[int, ...]) -> Any:
    return np.broadcast_to(block, shape)


@tile_rule(BroadcastTo)
def _tile_broadcast_to(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, BroadcastTo)
    (x,) = inputs
    ndim = len(op.shape)
    lead = ndim - len(x.nsplits)
    if not x.known:
        ctx.require_known(x)
    in_shape = tuple(int(sum(a)) for a in x.nsplits)
    stretched = []
    for b, n in enumerate(op.shape):
        a = b - lead
        if a < 0:
            stretched.append(b)
        elif in_shape[a] != n:
            if in_shape[a] != 1:
                raise ValueError(
                    f"broadcast_to(): cannot broadcast a tensor of shape {shape_str(in_shape)}"
                    f" to shape {shape_str(op.shape)}"
                )
            stretched.append(b)
    fixed_elems = math.prod(
        int(max(x.nsplits[b - lead])) for b in range(ndim) if b not in stretched
    )
    sizes = auto_chunk_sizes(
        [op.shape[b] for b in stretched],
        max(node.dtype.itemsize, 1) * max(fixed_elems, 1),
        op.max_bytes,
    )
    nsplits: list[tuple[float, ...]] = []
    for b in range(ndim):
        if b in stretched:
            nsplits.append(split_evenly(op.shape[b], sizes[stretched.index(b)]))
        else:
            nsplits.append(x.nsplits[b - lead])
    grid = node_grid(node.key, [len(n) for n in nsplits])
    for index in np.ndindex(*grid.shape):
        src = tuple(0 if b in stretched else index[b] for b in range(lead, ndim))
        chunk_shape = tuple(int(nsplits[b][i]) for b, i in enumerate(index))
        ctx.add_blockwise(
            grid[index], _broadcast_chunk, (Ref(tiled_keys(x)[src]),), {"shape": chunk_shape}
        )
    return Tiled(tuple(nsplits), grid)


def broadcast_to(array: Any, shape: Any, subok: bool = False) -> Tensor:
    """Lazy ``numpy.broadcast_to`` (chunks are read-only views, as in NumPy)."""
    x = astensor(array)
    target = shape_param(shape)
    if any(n < 0 for n in target):
        raise ValueError(f"all elements of broadcast shape must be non-negative, got {target}")
    if x.ndim > len(target):
        raise ValueError(
            f"broadcast_to(): cannot broadcast a tensor of shape {shape_str(x.shape)} to "
            f"shape {shape_str(target)}: the input has more dimensions than the shape"
        )
    lead = len(target) - x.ndim
    for a, n in enumerate(x.shape):
        if not is_unknown(n) and n != 1 and n != target[a + lead]:
            raise ValueError(
                f"broadcast_to(): cannot broadcast a tensor of shape {shape_str(x.shape)} to "
                f"shape {shape_str(target)}: axis {a} has length {n}, not 1 or "
                f"{target[a + lead]}"
            )
    if target == x.shape:
        return wrap_node(x)
    return new_tensor(BroadcastTo(target, options.chunk_store_limit), [x], target, x.dtype)
