"""Reordering elements along axes: ``flip``, ``fliplr``, ``flipud`` and ``roll``.

- ``flip``: the chunk grid is reversed and each chunk flipped (one task per chunk).
- ``roll``: slices and re-concatenates the chunk grid; only the chunks cut by the shift get
  a task. It needs real chunk lengths along the rolled axes (``ctx.require_known``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, tile_rule
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.shape._tiled import concat_tiled, slice_axis_tiled
from jupyter_mars.tensor.shape.common import (
    check_axis,
    int_tuple,
    is_unknown,
    node_grid,
    normalize_axis_tuple,
    tiled_keys,
    wrap_node,
)
from jupyter_mars.tensor.shape.reshape import ravel, reshape

# ---- flip --------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Flip(Op):
    axes: tuple[int, ...]


def _flip_chunk(block: Any, axes: tuple[int, ...]) -> Any:
    return np.flip(block, axis=axes)


@tile_rule(Flip)
def _tile_flip(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Flip)
    (x,) = inputs
    nsplits = tuple(tuple(reversed(n)) if a in op.axes else n for a, n in enumerate(x.nsplits))
    grid = node_grid(node.key, x.numblocks)
    for index in np.ndindex(*grid.shape):
        src = tuple(x.numblocks[a] - 1 - i if a in op.axes else i for a, i in enumerate(index))
        ctx.add_blockwise(grid[index], _flip_chunk, (Ref(tiled_keys(x)[src]),), {"axes": op.axes})
    return Tiled(nsplits, grid)


def flip(m: Any, axis: Any = None) -> Tensor:
    """Lazy ``numpy.flip``: reverse the order of elements along ``axis`` (all by default)."""
    x = astensor(m)
    axes = tuple(range(x.ndim)) if axis is None else normalize_axis_tuple(axis, x.ndim)
    if not axes:
        return wrap_node(x)
    return new_tensor(Flip(tuple(sorted(axes))), [x], x.shape, x.dtype)


def fliplr(m: Any) -> Tensor:
    """Lazy ``numpy.fliplr``: reverse axis 1."""
    x = astensor(m)
    if x.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return flip(x, 1)


def flipud(m: Any) -> Tensor:
    """Lazy ``numpy.flipud``: reverse axis 0."""
    x = astensor(m)
    if x.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return flip(x, 0)


# ---- roll --------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Roll(Op):
    shifts: tuple[int, ...]
    axes: tuple[int, ...]


@tile_rule(Roll)
def _tile_roll(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Roll)
    (x,) = inputs
    if any(is_unknown(n) for a in op.axes for n in x.nsplits[a]):
        ctx.require_known(x)
    t = x
    for k, (shift, axis) in enumerate(zip(op.shifts, op.axes)):
        n = int(sum(t.nsplits[axis]))
        s = shift % n if n else 0
        if s == 0:
            continue
        tail = slice_axis_tiled(f"{node.key}-{k}a", t, axis, n - s, n, ctx)
        head = slice_axis_tiled(f"{node.key}-{k}b", t, axis, 0, n - s, ctx)
        t = concat_tiled([tail, head], axis)
    return t


def roll(a: Any, shift: Any, axis: Any = None) -> Tensor:
    """Lazy ``numpy.roll``; ``shift`` and ``axis`` may be tuples (broadcast together)."""
    x = astensor(a)
    if axis is None:
        if x.ndim == 1:
            return roll(x, shift, 0)
        if sum(1 for n in x.shape if is_unknown(n)) > 1:
            raise ValueError(
                "roll(): with axis=None the shape must be known on all axes but one; "
                "execute the input first or give axis"
            )
        back = tuple(-1 if is_unknown(n) else n for n in x.shape)
        return reshape(roll(ravel(x), shift, 0), back)
    shifts = int_tuple(shift, "shift")
    axes = tuple(
        check_axis(i, x.ndim) for i in (axis if isinstance(axis, (tuple, list)) else (axis,))
    )
    if len(shifts) != len(axes) and 1 not in (len(shifts), len(axes)):
        raise ValueError(
            f"roll(): shift {shift!r} and axis {axis!r} cannot be broadcast to a single shape "
            f"({len(shifts)} shifts for {len(axes)} axes)"
        )
    if len(shifts) == 1:
        shifts = shifts * len(axes)
    if len(axes) == 1:
        axes = axes * len(shifts)
    total: dict[int, int] = {}
    for s, ax in zip(shifts, axes):
        total[ax] = total.get(ax, 0) + s
    moves = {
        ax: s
        for ax, s in total.items()
        if is_unknown(x.shape[ax]) or (x.shape[ax] and s % x.shape[ax])
    }
    if not moves:
        return wrap_node(x)
    op = Roll(tuple(moves.values()), tuple(moves))
    return new_tensor(op, [x], x.shape, x.dtype)
