"""``reshape``, ``ravel`` and ``ndarray.flatten`` (C order).

The axes are split into groups whose products match (``(6, 4) -> (24,)`` is one group,
``(2, 3, 4) -> (6, 4)`` two). A group is reshaped chunk by chunk when its inner input axes
are each one chunk and the chunk boundaries along its first axis fall on whole output rows;
then no data moves. Otherwise the input is first rechunked so that it does: inner axes whole
and the first axis cut into runs of rows with about the same number of elements per chunk as
before (rounded to whole output rows, so a chunk can grow to at least one output row). Each
output chunk is then a contiguous piece of the input.

Reshapes that only add or drop length-1 axes become a ``SqueezeExpand`` (one task per chunk,
no chunk lengths needed). Other reshapes need real chunk lengths (``ctx.require_known``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import NSplits, offsets, split_evenly
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor, unknown_shape
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.shape.common import (
    check_order,
    is_unknown,
    node_grid,
    shape_param,
    shape_str,
    tiled_keys,
    wrap_node,
)
from jupyter_mars.tensor.shape.squeeze import SqueezeExpand
from jupyter_mars.tensor.shape.transpose import transpose


@dataclass(frozen=True, eq=False)
class Reshape(Op):
    shape: tuple[int, ...]
    """The requested shape; one entry may be negative (inferred from the size)."""


def _reshape_chunk(block: Any, shape: tuple[int, ...]) -> Any:
    return np.reshape(block, shape)


def _resolve_shape(size: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    """``shape`` with its negative entry (if any) inferred; ValueError if sizes differ."""
    negatives = [i for i, n in enumerate(shape) if n < 0]
    if len(negatives) > 1:
        raise ValueError("can only specify one unknown dimension")
    known = math.prod(n for n in shape if n >= 0)
    if negatives:
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape array of size {size} into shape {shape_str(shape)}")
        out = list(shape)
        out[negatives[0]] = size // known
        return tuple(out)
    if known != size:
        raise ValueError(f"cannot reshape array of size {size} into shape {shape_str(shape)}")
    return shape


def _reshape_groups(
    in_shape: tuple[int, ...], out_shape: tuple[int, ...]
) -> list[tuple[list[int], list[int]]]:
    """Groups of (input axes, output axes) with equal products, length-1 axes left out."""
    ins = [a for a, n in enumerate(in_shape) if n != 1]
    outs = [b for b, n in enumerate(out_shape) if n != 1]
    groups = []
    i = j = 0
    while i < len(ins):
        ii, jj = i + 1, j + 1
        pi, pj = in_shape[ins[i]], out_shape[outs[j]]
        while pi != pj:
            if pi < pj:
                pi *= in_shape[ins[ii]]
                ii += 1
            else:
                pj *= out_shape[outs[jj]]
                jj += 1
        groups.append((ins[i:ii], outs[j:jj]))
        i, j = ii, jj
    return groups


def plan_reshape(
    in_nsplits: NSplits, out_shape: tuple[int, ...]
) -> tuple[NSplits, NSplits, list[tuple[int, int]]]:
    """Input chunking that reshapes chunk by chunk, the output chunking, and axis pairs.

    Returns ``(input nsplits, output nsplits, [(output axis, input axis), ...])``: output
    chunk index ``k`` along a paired output axis comes from input chunk ``k`` along the
    paired input axis; every other axis of both has a single chunk. Sizes must be known and
    the total size non-zero.

    >>> plan_reshape(((2, 2), (3,)), (12,))
    (((2, 2), (3,)), ((6, 6),), [(0, 0)])
    >>> plan_reshape(((3, 3), (2, 2)), (24,))[1]
    ((8, 8, 8),)
    """
    in_shape = tuple(int(sum(a)) for a in in_nsplits)
    new_in: list[tuple[int, ...]] = [(n,) for n in in_shape]
    new_out: list[tuple[int, ...]] = [(n,) for n in out_shape]
    pairs = []
    for ins, outs in _reshape_groups(in_shape, out_shape):
        a0, b0 = ins[0], outs[0]
        row_in = math.prod(in_shape[a] for a in ins[1:])
        row_out = math.prod(out_shape[b] for b in outs[1:])
        step = row_out // math.gcd(row_in, row_out)
        current = tuple(int(n) for n in in_nsplits[a0])
        fits = all(len(in_nsplits[a]) == 1 for a in ins[1:]) and all(
            int(o) % step == 0 for o in offsets(current)[1:-1]
        )
        if fits:
            lengths = current
        else:
            volume = math.prod(int(max(in_nsplits[a])) for a in ins)
            rows = max(1, round(volume / row_in))
            rows = max(step, round(rows / step) * step)
            lengths = split_evenly(in_shape[a0], rows)
        new_in[a0] = lengths
        new_out[b0] = tuple(n * row_in // row_out for n in lengths)
        pairs.append((b0, a0))
    return tuple(new_in), tuple(new_out), pairs


@tile_rule(Reshape)
def _tile_reshape(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Reshape)
    (x,) = inputs
    ctx.require_known(x)
    in_shape = tuple(int(sum(a)) for a in x.nsplits)
    out_shape = _resolve_shape(math.prod(in_shape), op.shape)
    if math.prod(in_shape) == 0:
        whole = rechunk_tiled(
            f"{node.key}-in", x, tuple((n,) for n in in_shape), node.inputs[0].dtype, ctx
        )
        grid = node_grid(node.key, [1] * len(out_shape))
        src = tiled_keys(whole)[(0,) * len(in_shape)]
        ctx.add_blockwise(
            grid[(0,) * len(out_shape)], _reshape_chunk, (Ref(src),), {"shape": out_shape}
        )
        return Tiled(tuple((n,) for n in out_shape), grid)
    in_nsplits, out_nsplits, pairs = plan_reshape(x.nsplits, out_shape)
    src_tiled = rechunk_tiled(f"{node.key}-in", x, in_nsplits, node.inputs[0].dtype, ctx)
    grid = node_grid(node.key, [len(a) for a in out_nsplits])
    for index in np.ndindex(*grid.shape):
        src = [0] * len(in_shape)
        for b, a in pairs:
            src[a] = index[b]
        chunk_shape = tuple(int(out_nsplits[b][i]) for b, i in enumerate(index))
        ctx.add_blockwise(
            grid[index],
            _reshape_chunk,
            (Ref(tiled_keys(src_tiled)[tuple(src)]),),
            {"shape": chunk_shape},
        )
    return Tiled(out_nsplits, grid)


def _ones_only_change(
    in_shape: tuple[Any, ...], out_shape: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """(axes to drop, positions to insert) when the reshape only drops/adds length-1 axes."""
    kept_in = [n for n in in_shape if n != 1]
    kept_out = [n for n in out_shape if n != 1]
    if len(kept_in) != len(kept_out) or any(
        is_unknown(a) or a != b for a, b in zip(kept_in, kept_out)
    ):
        return None
    squeeze = tuple(a for a, n in enumerate(in_shape) if n == 1)
    expand = tuple(b for b, n in enumerate(out_shape) if n == 1)
    return squeeze, expand


def reshape(
    a: Any, shape: Any = None, order: str = "C", *, newshape: Any = None, copy: Any = None
) -> Tensor:
    """Lazy ``numpy.reshape``; ``order='F'`` reads and places the elements in Fortran
    order (the transposed tensor reshaped to the reversed shape, transposed back: NumPy's
    element order, in F-ordered chunks). ``'A'`` and ``'K'`` are C order here.

    One length may be -1 (inferred). Reshapes that only add or drop length-1 axes run one
    task per chunk and do not need the chunk lengths; others reshape chunk by chunk after a
    rechunk where needed (see the module docstring). For a tensor whose size depends on the
    data, the size is checked when it is executed, and a -1 length is ``nan`` until then.
    """
    if shape is None:
        if newshape is None:
            raise TypeError("reshape() missing required argument 'shape'")
        shape = newshape
    elif newshape is not None:
        raise TypeError("reshape(): give only one of 'shape' and 'newshape'")
    check_order(order, "reshape")
    x = astensor(a)
    wanted = shape_param(shape)
    if order == "F" and x.ndim > 1 or order == "F" and len(wanted) > 1:
        return transpose(reshape(transpose(x), tuple(reversed(wanted))))
    if unknown_shape(x.shape):
        if sum(1 for n in wanted if n < 0) > 1:
            raise ValueError("can only specify one unknown dimension")
        out_shape: tuple[Any, ...] = tuple(math.nan if n < 0 else n for n in wanted)
        ones = _ones_only_change(x.shape, wanted) if all(n >= 0 for n in wanted) else None
        if ones is not None:
            return new_tensor(SqueezeExpand(*ones), [x], out_shape, x.dtype)
        return new_tensor(Reshape(wanted), [x], out_shape, x.dtype)
    resolved = _resolve_shape(int(x.size), wanted)
    if resolved == x.shape:
        return wrap_node(x)
    ones = _ones_only_change(x.shape, resolved)
    if ones is not None:
        return new_tensor(SqueezeExpand(*ones), [x], resolved, x.dtype)
    return new_tensor(Reshape(resolved), [x], resolved, x.dtype)


def ravel(a: Any, order: str = "C") -> Tensor:
    """Lazy ``numpy.ravel``: the tensor as 1-d, in C order (``order='F'``: Fortran)."""
    check_order(order, "ravel")
    x = astensor(a)
    if order == "F" and x.ndim > 1:
        return reshape(transpose(x), -1)
    return wrap_node(x) if x.ndim == 1 else reshape(x, -1)


def flatten(self: Tensor, order: str = "C") -> Tensor:
    """A 1-d copy of the tensor, in C order (``order='F'``: Fortran)."""
    check_order(order, "flatten")
    if order == "F" and self.ndim > 1:
        return ravel(self, "F")
    return reshape(self, -1) if self.ndim != 1 else wrap_node(self)
