"""``inner``, ``vdot`` and ``outer``, and the flattening (``Ravel``) of ``vdot``/``outer``.

``inner`` contracts the last axes; ``inner(a, a)`` is symmetric, so only the output chunks
on and above the diagonal are computed (the others are transposed views of them).
``vdot`` and ``outer`` flatten their operands first: trailing axes are gathered whole and
the chunks follow the first axis.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.products.checks import (
    check_out,
    differ,
    dot_dtype,
    fmt_shape,
    multiply,
    tiny,
)
from jupyter_mars.tensor.products.contraction import contract
from jupyter_mars.tensor.products.kernels import outer_kernel, vdot_kernel
from jupyter_mars.tensor.products.tensordot import contract_axes


def inner(a: Any, b: Any) -> Tensor:
    """Lazy, chunked ``numpy.inner``: contract the last axes of ``a`` and ``b``.

    ``inner(a, a)`` computes only the chunks on and above the diagonal.
    """
    a, b = astensor(a), astensor(b)
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b)
    if differ(a.shape[-1], b.shape[-1]):
        raise ValueError(
            f"shapes {fmt_shape(a.shape)} and {fmt_shape(b.shape)} not aligned: "
            f"{a.shape[-1]} (dim {a.ndim - 1}) != {b.shape[-1]} (dim {b.ndim - 1})"
        )
    return contract_axes(a, b, (a.ndim - 1,), (b.ndim - 1,), "inner", dot_dtype(a, b, "inner"))


def vdot(a: Any, b: Any) -> Tensor:
    """Lazy, chunked ``numpy.vdot``: both flattened, ``a`` conjugated, then dotted."""
    a, b = astensor(a), astensor(b)
    if differ(a.size, b.size):
        raise ValueError(
            f"vdot: a has {a.size} elements and b has {b.size}; they must have the same size"
        )
    try:
        dtype = np.asarray(np.vdot(tiny(a, 1), tiny(b, 1))).dtype
    except TypeError as exc:
        raise TypeError(f"vdot: unsupported operand dtypes {a.dtype} and {b.dtype}: {exc}") from exc
    fa, fb = ravel_tensor(a), ravel_tensor(b)
    return contract([fa, fb], [(0,), (0,)], (), dtype, vdot_kernel, "vdot")


def outer(a: Any, b: Any, out: Any = None) -> Tensor:
    """Lazy, chunked ``numpy.outer``: ``a`` and ``b`` flattened, every product."""
    check_out("outer", out)
    a, b = astensor(a), astensor(b)
    try:
        dtype = np.outer(tiny(a, 1), tiny(b, 1)).dtype
    except TypeError as exc:
        raise TypeError(
            f"outer: unsupported operand dtypes {a.dtype} and {b.dtype}: {exc}"
        ) from exc
    fa, fb = ravel_tensor(a), ravel_tensor(b)
    return contract([fa, fb], [(0,), (1,)], (0, 1), dtype, outer_kernel, "outer")


# ---- flattening for vdot/outer -------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Ravel(Op):
    """Flatten in C order: trailing axes are gathered whole, chunks follow the first axis."""

    def label(self) -> str:
        return "ravel"


def reshape_block(block: Any, shape: tuple[int, ...]) -> Any:
    return np.reshape(block, shape)


@tile_rule(Ravel)
def _tile_ravel(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    (x,) = inputs
    ctx.require_known(x)
    if x.keys.ndim == 0:
        grid = key_grid(node.key, [1])
        ctx.new_task(grid[0], reshape_block, Ref(x.flat_keys()[0]), (1,))
        return Tiled(((1,),), grid)
    rest = math.prod(int(sum(s)) for s in x.nsplits[1:])
    target = (x.nsplits[0], *((sum(s),) for s in x.nsplits[1:]))
    rx = rechunk_tiled(f"{node.key}-whole", x, target, node.dtype, ctx)
    grid = key_grid(node.key, [len(target[0])])
    for i in range(len(target[0])):
        src = (i,) + (0,) * (x.keys.ndim - 1)
        ctx.new_task(grid[i], reshape_block, Ref(rx.keys[src]), (-1,))
    return Tiled((tuple(n * rest for n in target[0]),), grid)


def ravel_tensor(x: Tensor) -> Tensor:
    """``x`` flattened (itself when 1-D); chunks follow the first axis."""
    if x.ndim == 1:
        return x
    size = x.size
    return new_tensor(Ravel(), [x], (size,), x.dtype)
