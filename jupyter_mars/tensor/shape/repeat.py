"""Repeating data: ``repeat`` and ``tile``.

- ``repeat``: one output chunk per input chunk, cut into smaller pieces when a repeated
  chunk would exceed ``options.chunk_store_limit``. Per-element counts need real chunk
  lengths (``ctx.require_known``).
- ``tile``: along an axis held in one chunk, copies are grouped into chunks of about the
  chunk-size budget; along an axis in several chunks, the chunk keys are repeated (no copy).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.config import options
from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.devices import array_module
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
    tiled_keys,
    wrap_node,
)
from jupyter_mars.tensor.shape.reshape import ravel
from jupyter_mars.tensor.shape.squeeze import expand_dims

# ---- repeat ------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Repeat(Op):
    repeats: Any
    """An int, or a 1-d int array with one count per element along ``axis``."""
    axis: int
    max_bytes: int


def _repeat_chunk(block: Any, repeats: Any, axis: int, sl: slice | None) -> Any:
    if sl is not None:
        block = block[(slice(None),) * axis + (sl,)]
    if isinstance(repeats, np.ndarray) and array_module(block) is not np:
        repeats = repeats.tolist()  # CuPy takes counts as an int, a list or its own array
    return np.repeat(block, repeats, axis=axis)


def _pieces_scalar(length: int, repeats: int, max_len: int) -> list[tuple[int, int]]:
    """Runs of one input chunk such that each repeated run has at most ``max_len`` items."""
    per = max(1, max_len // max(repeats, 1))
    if length <= per:
        return [(0, length)]
    return [(i, min(i + per, length)) for i in range(0, length, per)]


def _pieces_counts(counts: np.ndarray[Any, Any], max_len: int) -> list[tuple[int, int]]:
    pieces = []
    start, total = 0, 0
    for i, c in enumerate(counts.tolist()):
        if i > start and total + c > max_len:
            pieces.append((start, i))
            start, total = i, 0
        total += c
    pieces.append((start, len(counts)))
    return pieces


@tile_rule(Repeat)
def _tile_repeat(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Repeat)
    (x,) = inputs
    axis = op.axis
    per_element = isinstance(op.repeats, np.ndarray)
    if per_element or not x.known:
        ctx.require_known(x)
    lengths = [int(n) for n in x.nsplits[axis]]
    starts = offsets(lengths)
    if per_element and op.repeats.shape[0] != sum(lengths):
        raise ValueError(
            f"repeat(): repeats has {op.repeats.shape[0]} counts but axis {axis} has length "
            f"{sum(lengths)}"
        )
    other = math.prod(int(max(n)) for a, n in enumerate(x.nsplits) if a != axis)
    max_len = max(1, op.max_bytes // max(node.dtype.itemsize * max(other, 1), 1))
    # (input chunk, slice of it or None, repeats for it, output length)
    plan: list[tuple[int, slice | None, Any, int]] = []
    for i, n in enumerate(lengths):
        if per_element:
            counts = op.repeats[int(starts[i]) : int(starts[i]) + n]
            pieces = _pieces_counts(counts, max_len) if n else [(0, 0)]
        else:
            pieces = _pieces_scalar(n, op.repeats, max_len)
        for lo, hi in pieces:
            sl = None if (lo, hi) == (0, n) else slice(lo, hi)
            if per_element:
                reps: Any = counts[lo:hi]
                out_len = int(reps.sum())
            else:
                reps = op.repeats
                out_len = (hi - lo) * op.repeats
            plan.append((i, sl, reps, out_len))
    nsplits = list(x.nsplits)
    nsplits[axis] = tuple(p[3] for p in plan)
    grid = node_grid(node.key, [len(n) for n in nsplits])
    for index in np.ndindex(*grid.shape):
        i, sl, reps, _ = plan[index[axis]]
        src = tiled_keys(x)[index[:axis] + (i,) + index[axis + 1 :]]
        ctx.add_blockwise(
            grid[index], _repeat_chunk, (Ref(src),), {"repeats": reps, "axis": axis, "sl": sl}
        )
    return Tiled(tuple(nsplits), grid)


def repeat(a: Any, repeats: Any, axis: Any = None) -> Tensor:
    """Lazy ``numpy.repeat``: ``repeats`` is an int or one count per element along ``axis``.

    With ``axis=None`` the tensor is flattened first. Each input chunk gives one output
    chunk, cut in pieces where a repeated chunk would exceed ``options.chunk_store_limit``.
    """
    x = astensor(a)
    if axis is None:
        x = ravel(x)
        axis = 0
    ax = check_axis(axis, x.ndim)
    try:
        reps = np.asarray(repeats, dtype=np.intp)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"repeat(): repeats must be an int or a sequence of ints ({exc})") from exc
    if reps.ndim > 1:
        raise ValueError(f"repeat(): repeats must be an int or a 1-d sequence, got {reps.ndim}-d")
    if (reps < 0).any():
        raise ValueError(f"repeat(): repeats may not contain negative values, got {repeats!r}")
    n = x.shape[ax]
    shape = list(x.shape)
    if reps.ndim == 1 and reps.shape[0] != 1:
        if not is_unknown(n) and reps.shape[0] != n:
            raise ValueError(
                f"repeat(): operands could not be broadcast together: repeats has "
                f"{reps.shape[0]} counts but axis {ax} has length {n}"
            )
        shape[ax] = math.nan if is_unknown(n) else int(reps.sum())
        op = Repeat(reps, ax, options.chunk_store_limit)
    else:
        r = int(reps.reshape(-1)[0])
        shape[ax] = n * r if not is_unknown(n) else math.nan
        if r == 1:
            return wrap_node(x)
        op = Repeat(r, ax, options.chunk_store_limit)
    return new_tensor(op, [x], tuple(shape), x.dtype)


# ---- tile --------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class TileAxis(Op):
    axis: int
    reps: int
    max_bytes: int

    def label(self) -> str:
        return "tile"


def _tile_chunk(block: Any, axis: int, copies: int) -> Any:
    return np.concatenate([block] * copies, axis=axis)


@tile_rule(TileAxis)
def _tile_tile_axis(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, TileAxis)
    (x,) = inputs
    axis = op.axis
    if op.reps == 0:
        return slice_axis_tiled(node.key, x, axis, 0, 0, ctx)
    copies = 1
    if x.numblocks[axis] == 1 and x.known:
        chunk_bytes = max(node.dtype.itemsize * math.prod(int(max(n)) for n in x.nsplits), 1)
        copies = int(min(op.reps, max(1, op.max_bytes // chunk_bytes)))
    if copies == 1:
        return concat_tiled([x] * op.reps, axis)
    counts = [copies] * (op.reps // copies) + ([op.reps % copies] if op.reps % copies else [])
    nsplits = list(x.nsplits)
    nsplits[axis] = tuple(int(x.nsplits[axis][0]) * c for c in counts)
    grid = node_grid(node.key, [len(n) for n in nsplits])
    for index in np.ndindex(*grid.shape):
        src = tiled_keys(x)[index[:axis] + (0,) + index[axis + 1 :]]
        ctx.add_blockwise(
            grid[index], _tile_chunk, (Ref(src),), {"axis": axis, "copies": counts[index[axis]]}
        )
    return Tiled(tuple(nsplits), grid)


def tile(A: Any, reps: Any) -> Tensor:  # noqa: N803 - NumPy's argument name
    """Lazy ``numpy.tile``.

    Along an axis held in one chunk, copies are grouped into chunks within
    ``options.chunk_store_limit``; along an axis in several chunks the input chunks are
    reused (no copy).
    """
    x = astensor(A)
    counts = int_tuple(reps, "reps")
    if any(r < 0 for r in counts):
        raise ValueError(f"tile(): reps must be non-negative, got {reps!r}")
    ndim = max(x.ndim, len(counts))
    counts = (1,) * (ndim - len(counts)) + counts
    if x.ndim < ndim:
        x = expand_dims(x, tuple(range(ndim - x.ndim)))
    out = wrap_node(x)
    for axis, r in enumerate(counts):
        if r == 1:
            continue
        shape = list(out.shape)
        shape[axis] = shape[axis] * r
        op = TileAxis(axis, r, options.chunk_store_limit)
        out = new_tensor(op, [out], tuple(shape), out.dtype)
    return out
