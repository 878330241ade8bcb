"""``sort`` and ``argsort``.

Along an axis held in one chunk, each chunk is sorted by NumPy directly. Along a split axis
(and for ``axis=None``, the flattened array) the sort is the parallel sort by regular
sampling of ``psrs``, whose result keeps the input's chunks. ``argsort`` is always stable
(it equals NumPy's ``kind='stable'`` result, a valid answer for every kind).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.devices import array_module, device_module
from jupyter_mars.engine.graph import Key, Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.shape.common import check_axis
from jupyter_mars.tensor.sorting._common import (
    INTP,
    chunk_indices,
    chunk_origins,
    known_nsplits,
)
from jupyter_mars.tensor.sorting.psrs import psrs_local_axis, psrs_local_flat, psrs_tasks

# ---- argument checks --------------------------------------------------------------------------


def _probe_sort(func: Callable[..., Any], dtype: np.dtype[Any], **kwargs: Any) -> None:
    """Let NumPy validate ``kind``/``order``/``stable`` on a one-element array."""
    func(np.zeros(1, dtype=dtype), **kwargs)


def _sort_kwargs(kind: Any, order: Any, stable: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if kind is not None:
        out["kind"] = kind
    if order is not None:
        out["order"] = order
    if stable is not None:
        out["stable"] = stable
    return out


# ---- kernels: one chunk along the axis --------------------------------------------------------


def sort_block(block: Any, axis: int, arg: bool) -> Any:
    if arg:
        return np.argsort(block, axis=axis, kind="stable")
    return np.sort(block, axis=axis)


def sort_flat_block(block: Any, arg: bool) -> Any:
    flat = array_module(block).asarray(block).ravel()
    return np.argsort(flat, kind="stable") if arg else np.sort(flat)


def empty_result(dtype: np.dtype[Any], device: str | None = None) -> Any:
    return device_module(device).empty(0, dtype=dtype)


# ---- the sort operator ------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Sort(Op):
    axis: int | None
    """Sorted axis; None sorts the flattened array."""
    arg: bool
    """True for ``argsort``: the result holds global indices."""
    name: str = "sort"

    def label(self) -> str:
        return self.name


def sort_tiled(
    node_key: str, x: Tiled, axis: int | None, arg: bool, dtype: np.dtype[Any], ctx: TileContext
) -> Tiled:
    """Tile a sort (or argsort) of ``x`` along ``axis`` (None: flattened)."""
    nsplits = known_nsplits(x, ctx)
    shape = tuple(sum(lengths) for lengths in nsplits)
    size = math.prod(shape)
    if axis is None:
        return _sort_flat_tiled(node_key, x, nsplits, shape, size, arg, dtype, ctx)
    grid = key_grid(node_key, x.numblocks)
    if x.numblocks[axis] == 1 or size == 0:
        for index in chunk_indices(x.numblocks):
            ctx.add_blockwise(grid[index], sort_block, (Ref(x.keys[index]), axis, arg), {})
        return Tiled(nsplits, grid)
    starts = offsets(nsplits[axis])
    others = [a for a in range(len(shape)) if a != axis]
    for group in chunk_indices([x.numblocks[a] for a in others]):
        sources: list[Key] = []
        local_args: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
        for i in range(x.numblocks[axis]):
            sources.append(x.keys[_with_axis(group, others, axis, i)])
            local_args.append((psrs_local_axis, (axis, int(starts[i]), arg)))
        other_shape = tuple(nsplits[a][g] for a, g in zip(others, group))
        prefix = "-".join([node_key, *map(str, group)])
        outs = psrs_tasks(
            prefix, ctx, sources, list(nsplits[axis]), local_args, arg, axis, other_shape
        )
        for i, key in enumerate(outs):
            grid[_with_axis(group, others, axis, i)] = key
    return Tiled(nsplits, grid)


@tile_rule(Sort)
def _tile_sort(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Sort)
    return sort_tiled(node.key, inputs[0], op.axis, op.arg, node.dtype, ctx)


def _with_axis(group: tuple[int, ...], others: list[int], axis: int, i: int) -> tuple[int, ...]:
    index = [0] * (len(others) + 1)
    for a, g in zip(others, group):
        index[a] = g
    index[axis] = i
    return tuple(index)


def _sort_flat_tiled(
    node_key: str,
    x: Tiled,
    nsplits: tuple[tuple[int, ...], ...],
    shape: tuple[int, ...],
    size: int,
    arg: bool,
    dtype: np.dtype[Any],
    ctx: TileContext,
) -> Tiled:
    indices = list(chunk_indices(x.numblocks))
    if len(indices) == 1 or size == 0:
        grid = key_grid(node_key, (1,))
        if size == 0:
            ctx.new_task(grid[0], empty_result, dtype, ctx.device)
        else:
            ctx.add_blockwise(grid[0], sort_flat_block, (Ref(x.keys[indices[0]]), arg), {})
        return Tiled(((size,),), grid)
    origins = chunk_origins(nsplits)
    lengths = [math.prod(nsplits[a][i] for a, i in enumerate(index)) for index in indices]
    bases = offsets(lengths)
    local_args: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
    for n, index in enumerate(indices):
        local_args.append((psrs_local_flat, (origins[index], shape, int(bases[n]), arg)))
    sources = [x.keys[index] for index in indices]
    outs = psrs_tasks(node_key, ctx, sources, lengths, local_args, arg, None, ())
    grid = key_grid(node_key, (len(outs),))
    for i, key in enumerate(outs):
        grid[i] = key
    return Tiled((tuple(lengths),), grid)


def sort_node(x: Tensor, axis: Any, arg: bool, name: str) -> Tensor:
    """The ``Sort`` node of ``x`` along ``axis`` (checked; None: flattened, 1-d result)."""
    dtype = INTP if arg else x.dtype
    if axis is None:
        size = math.nan if isinstance(x.size, float) else x.size
        return new_tensor(Sort(None, arg, name), [x], (size,), dtype)
    ax = check_axis(axis, x.ndim, expected="an int or None")
    return new_tensor(Sort(ax, arg, name), [x], x.shape, dtype)


def sort(
    a: Any,
    axis: int | None = -1,
    kind: str | None = None,
    order: Any = None,
    *,
    stable: bool | None = None,
) -> Tensor:
    """A sorted copy of ``a`` along ``axis`` (flattened when ``axis`` is None).

    ``kind``/``stable`` are validated as NumPy does and otherwise ignored: along a split
    axis the sort is a parallel sort by regular sampling whose result keeps the input's
    chunks (see the ``psrs`` module). With ``axis=None`` the result is 1-d with one chunk
    per input chunk (same sizes, in grid order). ``order`` (structured arrays) is not
    supported.
    """
    x = astensor(a)
    _probe_sort(np.sort, x.dtype, **_sort_kwargs(kind, order, stable))
    return sort_node(x, axis, False, "sort")


def argsort(
    a: Any,
    axis: int | None = -1,
    kind: str | None = None,
    order: Any = None,
    *,
    stable: bool | None = None,
) -> Tensor:
    """Global indices that sort ``a`` along ``axis`` (flat indices when ``axis`` is None).

    Always a stable order (NumPy's ``kind='stable'`` result), computed like ``sort``.
    """
    x = astensor(a)
    _probe_sort(np.argsort, x.dtype, **_sort_kwargs(kind, order, stable))
    return sort_node(x, axis, True, "argsort")
