"""Cumulative reductions: ``cumsum``, ``cumprod``, ``nancumsum``, ``nancumprod``.

Each is a scan along one axis, in O(number of chunks) tasks and without gathering an axis
into one chunk:

1. every chunk is scanned on its own (``np.cumsum`` and friends);
2. the last slice of each chunk's scan along the axis (its total) is taken;
3. a chain of small tasks accumulates those totals, so chunk ``j`` gets the total of
   chunks ``0 .. j-1`` (its carry);
4. the carry is added (multiplied) into chunk ``j``'s local scan.

With ``axis=None`` the input is first flattened in C order (``_Flatten``): it is rechunked
so that each chunk is a contiguous run of the flat array (trailing axes whole, chunks no
bigger than the largest input chunk), and each chunk is raveled.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.devices import array_module, device_module
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.outputs import accepts_out
from jupyter_mars.tensor.reduction._probe import probe_dtype
from jupyter_mars.tensor.reduction.args import single_axis, unsupported
from jupyter_mars.tensor.reduction.core import grid_key

# ---- flatten (C order) --------------------------------------------------------------------------
# Not ``jupyter_mars.tensor.shape.ravel``: ravel cuts the flat array into whole rows of the
# trailing axes (at least one row per chunk, about as many items as an input chunk, rounded
# to rows), so a (4, 1000) tensor in (2, 10) chunks ravels into chunks of 1000 items, 50
# times the largest input chunk. ``flat_layout`` splits inside a row instead and keeps every
# chunk within the largest input chunk, which bounds a scan's memory per task.


@dataclass(frozen=True, eq=False)
class _Flatten(Op):
    """The input raveled in C order (1-D); chunks are contiguous runs of the flat array."""

    def label(self) -> str:
        return "flatten"


def _empty_flat(dtype: np.dtype[Any], device: str | None) -> Any:
    return device_module(device).empty((0,), dtype=dtype)


def flat_layout(shape: tuple[int, ...], target: int) -> tuple[tuple[int, ...], ...]:
    """Chunking of ``shape`` whose chunks are contiguous in C order, at most ``target`` items
    each where possible: trailing axes whole, one axis split, leading axes in chunks of 1.

    >>> flat_layout((4, 3), 6)
    ((2, 2), (3,))
    >>> flat_layout((2, 3, 4), 2)
    ((1, 1), (1, 1, 1), (2, 2))
    """
    ndim = len(shape)
    split = ndim - 1
    trailing = 1
    while split > 0 and trailing * shape[split] <= target:
        trailing *= shape[split]
        split -= 1
    out: list[tuple[int, ...]] = []
    for axis, n in enumerate(shape):
        if axis < split:
            out.append((1,) * n)
        elif axis > split:
            out.append((n,))
        else:
            size = max(1, target // trailing)
            full, rest = divmod(n, size)
            out.append((size,) * full + ((rest,) if rest else ()))
    return tuple(out)


@tile_rule(_Flatten)
def _tile_flatten(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    (x,) = inputs
    grid = key_grid(node.key, [1])
    if len(x.nsplits) == 0:
        ctx.add_blockwise(grid_key(grid, 0), np.ravel, (Ref(grid_key(x.keys, ())),), {})
        return Tiled(((1,),), grid)
    if len(x.nsplits) == 1:
        return x
    ctx.require_known(x)
    shape = tuple(int(sum(axis)) for axis in x.nsplits)
    if 0 in shape:
        ctx.new_task(grid_key(grid, 0), _empty_flat, node.dtype, ctx.device)
        return Tiled(((0,),), grid)
    target = max(math.prod(int(max(axis)) for axis in x.nsplits), 1)
    layout = flat_layout(shape, target)
    source = rechunk_tiled(f"{node.key}-rechunk", x, layout, node.dtype, ctx)
    lengths: list[int] = []
    out = np.empty(math.prod(len(axis) for axis in layout), dtype=object)
    for i, index in enumerate(itertools.product(*(range(len(axis)) for axis in layout))):
        out[i] = (node.key, i)
        ctx.add_blockwise(out[i], np.ravel, (Ref(grid_key(source.keys, index)),), {})
        lengths.append(math.prod(layout[a][j] for a, j in enumerate(index)))
    return Tiled((tuple(lengths),), out)


def flatten(x: Tensor) -> Tensor:
    """``x`` raveled in C order, as a 1-D tensor (rechunked so chunks are contiguous)."""
    if x.ndim == 1:
        return x
    size = math.prod(x.shape) if x.ndim else 1
    return new_tensor(_Flatten(), [x], (size,), x.dtype)


# ---- scan ---------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Cumulative(Op):
    func: Callable[..., Any]
    """Scan of one chunk: ``func(block, axis=axis, dtype=dtype)``."""
    combine: Callable[..., Any]
    """How a carry is merged: ``np.add`` or ``np.multiply``."""
    axis: int
    identity: int
    name: str

    def label(self) -> str:
        return self.name


def scan_chunk(func: Callable[..., Any], block: Any, axis: int, dtype: np.dtype[Any]) -> Any:
    with np.errstate(all="ignore"):
        return array_module(block).asarray(func(block, axis=axis, dtype=dtype))


def last_along(block: Any, axis: int, identity: int) -> Any:
    """The last slice of ``block`` along ``axis`` (length 1 kept); identity when empty."""
    if block.shape[axis] == 0:
        shape = list(block.shape)
        shape[axis] = 1
        return array_module(block).full(shape, identity, dtype=block.dtype)
    index = [slice(None)] * block.ndim
    index[axis] = slice(block.shape[axis] - 1, None)
    return block[tuple(index)]


def merge_carry(combine: Callable[..., Any], left: Any, right: Any) -> Any:
    with np.errstate(all="ignore"):
        return combine(left, right).astype(left.dtype, copy=False)


@tile_rule(Cumulative)
def _tile_cumulative(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Cumulative)
    (x,) = inputs
    axis = op.axis
    numblocks = x.numblocks
    n = numblocks[axis]
    grid = key_grid(node.key, numblocks)
    scan = functools.partial(scan_chunk, op.func)
    other = [range(b) if a != axis else range(1) for a, b in enumerate(numblocks)]
    for line in itertools.product(*other):
        carry: Any = None
        for j in range(n):
            index = tuple(j if a == axis else i for a, i in enumerate(line))
            source = (Ref(grid_key(x.keys, index)), axis, node.dtype)
            if j == 0:  # nothing to carry: the local scan is the result
                ctx.add_blockwise(grid_key(grid, index), scan, source, {})
                local = grid_key(grid, index)
            else:
                local = (f"{node.key}-local", *index)
                ctx.add_blockwise(local, scan, source, {})
                ctx.add_blockwise(
                    grid_key(grid, index), merge_carry, (op.combine, Ref(local), Ref(carry)), {}
                )
            if j == n - 1:
                break
            tail = (f"{node.key}-tail", *index)
            ctx.add_blockwise(tail, last_along, (Ref(local), axis, op.identity), {})
            if carry is None:
                carry = tail
            else:
                total = (f"{node.key}-carry", *index)
                ctx.new_task(total, merge_carry, op.combine, Ref(carry), Ref(tail))
                carry = total
    return Tiled(x.nsplits, grid)


def _cumulative(
    name: str,
    npfunc: Callable[..., Any],
    combine: Callable[..., Any],
    identity: int,
    a: Any,
    axis: Any,
    dtype: Any,
    out: Any,
) -> Tensor:
    unsupported(name, out=out)
    x = astensor(a)
    ax = single_axis(axis, x.ndim, name)
    out_dtype = probe_dtype(npfunc, x.dtype, dtype=dtype)
    if ax is None or x.ndim == 0:
        x = flatten(x)
        ax = 0
    op = Cumulative(func=npfunc, combine=combine, axis=ax, identity=identity, name=name)
    return new_tensor(op, [x], x.shape, out_dtype)


@accepts_out(np.cumsum)
def cumsum(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Tensor:
    """Lazy, chunked ``numpy.cumsum``: a scan, O(number of chunks) tasks (see module doc)."""
    return _cumulative("cumsum", np.cumsum, np.add, 0, a, axis, dtype, out)


@accepts_out(np.cumprod)
def cumprod(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Tensor:
    """Lazy, chunked ``numpy.cumprod``: a scan, O(number of chunks) tasks (see module doc)."""
    return _cumulative("cumprod", np.cumprod, np.multiply, 1, a, axis, dtype, out)


@accepts_out(np.nancumsum)
def nancumsum(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Tensor:
    """Lazy, chunked ``numpy.nancumsum`` (NaN counts as zero)."""
    return _cumulative("nancumsum", np.nancumsum, np.add, 0, a, axis, dtype, out)


@accepts_out(np.nancumprod)
def nancumprod(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Tensor:
    """Lazy, chunked ``numpy.nancumprod`` (NaN counts as one)."""
    return _cumulative("nancumprod", np.nancumprod, np.multiply, 1, a, axis, dtype, out)
