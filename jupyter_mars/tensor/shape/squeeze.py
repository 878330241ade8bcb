"""``squeeze`` and ``expand_dims``: drop or insert length-1 axes.

One task per chunk; no chunk lengths are needed, so they work on data-dependent (``nan``)
shapes. ``reshape`` uses the same operator for reshapes that only add or drop length-1 axes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.shape.common import (
    is_unknown,
    node_grid,
    normalize_axis_tuple,
    shape_str,
    wrap_node,
)


@dataclass(frozen=True, eq=False)
class SqueezeExpand(Op):
    squeeze: tuple[int, ...]
    """Input axes of length 1 to drop."""
    expand: tuple[int, ...]
    """Output positions where length-1 axes are inserted (after the drop)."""

    def label(self) -> str:
        if not self.expand:
            return "squeeze"
        return "expand_dims" if not self.squeeze else "reshape"


def _squeeze_expand_chunk(block: Any, squeeze: tuple[int, ...], expand: tuple[int, ...]) -> Any:
    if squeeze:
        block = np.squeeze(block, axis=squeeze)
    if expand:
        block = np.expand_dims(block, expand)
    return block


@tile_rule(SqueezeExpand)
def _tile_squeeze_expand(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, SqueezeExpand)
    (x,) = inputs
    if any(len(x.nsplits[a]) != 1 for a in op.squeeze):
        # an axis of data-dependent length in several chunks: it must hold one element
        ctx.require_known(x)
        for a in op.squeeze:
            if sum(x.nsplits[a]) != 1:
                raise ValueError(
                    "cannot select an axis to squeeze out which has size not equal to one "
                    f"(axis {a} has size {int(sum(x.nsplits[a]))})"
                )
        target = tuple((1,) if a in op.squeeze else n for a, n in enumerate(x.nsplits))
        x = rechunk_tiled(f"{node.key}-in", x, target, node.inputs[0].dtype, ctx)
    kept = [a for a in range(len(x.nsplits)) if a not in op.squeeze]
    nsplits = [x.nsplits[a] for a in kept]
    for pos in sorted(op.expand):
        nsplits.insert(pos, (1,))
    src_keys: Any = x.keys.reshape([x.keys.shape[a] for a in kept])
    src_keys = src_keys.reshape(tuple(len(n) for n in nsplits))
    grid = node_grid(node.key, [len(n) for n in nsplits])
    for index in np.ndindex(*grid.shape):
        ctx.add_blockwise(
            grid[index],
            _squeeze_expand_chunk,
            (Ref(src_keys[index]),),
            {"squeeze": op.squeeze, "expand": op.expand},
        )
    return Tiled(tuple(nsplits), grid)


def squeeze(a: Any, axis: Any = None) -> Tensor:
    """Lazy ``numpy.squeeze``: drop length-1 axes (all of them, or those in ``axis``).

    With ``axis=None`` on a tensor with data-dependent (``nan``) lengths, only the axes
    known to have length 1 are dropped.
    """
    x = astensor(a)
    if axis is None:
        axes = tuple(i for i, n in enumerate(x.shape) if n == 1)
    else:
        axes = tuple(sorted(normalize_axis_tuple(axis, x.ndim)))
        for i in axes:
            if not is_unknown(x.shape[i]) and x.shape[i] != 1:
                raise ValueError(
                    "cannot select an axis to squeeze out which has size not equal to one "
                    f"(axis {i} of shape {shape_str(x.shape)})"
                )
    if not axes:
        return wrap_node(x)
    shape = tuple(n for i, n in enumerate(x.shape) if i not in axes)
    return new_tensor(SqueezeExpand(axes, ()), [x], shape, x.dtype)


def expand_dims(a: Any, axis: Any) -> Tensor:
    """Lazy ``numpy.expand_dims``: insert length-1 axes at the positions ``axis``."""
    x = astensor(a)
    count = len(axis) if isinstance(axis, (tuple, list)) else 1
    axes = tuple(sorted(normalize_axis_tuple(axis, x.ndim + count)))
    if not axes:
        return wrap_node(x)
    shape = list(x.shape)
    for pos in axes:
        shape.insert(pos, 1)
    return new_tensor(SqueezeExpand((), axes), [x], tuple(shape), x.dtype)
