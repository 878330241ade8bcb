"""Joining tensors: ``concatenate``, the ``stack`` family and ``atleast_1d/2d/3d``.

The chunk grids are laid side by side; input chunks are reused as they are (no task, no
copy) unless the dtype is promoted or the other axes are chunked differently (then those
inputs are rechunked to common boundaries, which needs real chunk lengths:
``ctx.require_known``). ``stack``, ``vstack``, ``hstack``, ``dstack`` and ``column_stack``
add length-1 axes where NumPy does, then concatenate.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.shape._tiled import concat_tiled
from jupyter_mars.tensor.shape.common import (
    check_axis,
    is_unknown,
    node_grid,
    same_length,
    shape_str,
    tiled_keys,
    wrap_node,
)
from jupyter_mars.tensor.shape.reshape import ravel
from jupyter_mars.tensor.shape.split import split_parts
from jupyter_mars.tensor.shape.squeeze import expand_dims, squeeze
from jupyter_mars.tensor.sparse.convert import issparse


@dataclass(frozen=True, eq=False)
class Concatenate(Op):
    axis: int


def _cast_chunk(block: Any, dtype: np.dtype[Any]) -> Any:
    return block.astype(dtype, copy=False)


def _union_lengths(candidates: Sequence[tuple[float, ...]]) -> tuple[int, ...]:
    bounds = sorted({int(b) for lengths in candidates for b in offsets(lengths)})
    return tuple(b - a for a, b in zip(bounds[:-1], bounds[1:])) or (0,)


def _align_other_axes(
    prefix: str,
    parts: list[Tiled],
    skip_axis: int,
    dtypes: Sequence[np.dtype[Any]],
    ctx: TileContext,
) -> list[Tiled]:
    """Rechunk ``parts`` to common boundaries on every axis but ``skip_axis``."""
    ndim = len(parts[0].nsplits)
    others = [a for a in range(ndim) if a != skip_axis]
    if all(p is parts[0] for p in parts):
        return parts
    needs_known = any(is_unknown(n) for p in parts for a in others for n in p.nsplits[a])
    if needs_known:
        ctx.require_known(*parts)
    wanted: dict[int, tuple[float, ...]] = {}
    for a in others:
        candidates = [p.nsplits[a] for p in parts]
        totals = [sum(c) for c in candidates]
        for i, total in enumerate(totals):
            if total != totals[0]:
                raise ValueError(
                    "all the input array dimensions except for the concatenation axis must "
                    f"match exactly, but along dimension {a}, the array at index 0 has size "
                    f"{int(totals[0])} and the array at index {i} has size {int(total)}"
                )
        if all(tuple(c) == tuple(candidates[0]) for c in candidates):
            wanted[a] = candidates[0]
        else:
            wanted[a] = _union_lengths(candidates)
    out = []
    for i, p in enumerate(parts):
        target = tuple(p.nsplits[a] if a == skip_axis else wanted[a] for a in range(ndim))
        if all(tuple(x) == tuple(y) for x, y in zip(target, p.nsplits)):
            out.append(p)
        else:
            out.append(rechunk_tiled(f"{prefix}-in{i}", p, target, dtypes[i], ctx))
    return out


@tile_rule(Concatenate)
def _tile_concatenate(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Concatenate)
    dtypes = [n.dtype for n in node.inputs]
    parts = list(inputs)
    keep = [i for i, p in enumerate(parts) if sum(p.nsplits[op.axis]) != 0]
    if keep and len(keep) < len(parts):
        parts = [parts[i] for i in keep]
        dtypes = [dtypes[i] for i in keep]
    elif not keep:
        parts, dtypes = parts[:1], dtypes[:1]
    parts = _align_other_axes(node.key, parts, op.axis, dtypes, ctx)
    pieces = []
    for i, (p, dt) in enumerate(zip(parts, dtypes)):
        if dt == node.dtype:
            pieces.append(p)
            continue
        grid = node_grid(f"{node.key}-cast{i}", p.numblocks)
        for index in np.ndindex(*grid.shape):
            ctx.add_blockwise(
                grid[index], _cast_chunk, (Ref(tiled_keys(p)[index]),), {"dtype": node.dtype}
            )
        pieces.append(Tiled(p.nsplits, grid))
    return concat_tiled(pieces, op.axis)


def _as_sequence(arrays: Any, func: str) -> list[Any]:
    """The items of a list/tuple of arrays, or the sub-arrays of one tensor along axis 0."""
    if isinstance(arrays, Tensor):
        if arrays.ndim == 0:
            raise ValueError(f"{func}(): zero-dimensional arrays cannot be concatenated")
        return [squeeze(t, 0) for t in split_parts(arrays, len(arrays), (), 0, False)]
    if isinstance(arrays, np.ndarray):
        return list(arrays)
    if not isinstance(arrays, (list, tuple)):
        raise TypeError(
            f'arrays to {func} must be passed as a "sequence" type such as list or tuple, '
            f"got {type(arrays).__name__}"
        )
    return list(arrays)


def _concat_dtype(tensors: Sequence[Tensor], dtype: Any, casting: str) -> np.dtype[Any]:
    probes = [np.empty((0,), dtype=t.dtype) for t in tensors]
    concat: Any = np.concatenate
    out_dtype: np.dtype[Any] = concat(probes, dtype=dtype, casting=casting).dtype
    return out_dtype


def concatenate(
    arrays: Any, axis: Any = 0, out: Any = None, *, dtype: Any = None, casting: str = "same_kind"
) -> Tensor:
    """Lazy ``numpy.concatenate``.

    The input chunks are reused as the output's chunks (no copy) unless the dtype is
    promoted or the other axes are chunked differently. ``axis=None`` flattens the inputs.
    """
    if out is not None:
        raise TypeError("concatenate(): the 'out' argument is not supported on tensors")
    tensors = [astensor(t) for t in _as_sequence(arrays, "concatenate")]
    if not tensors:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        tensors = [ravel(t) for t in tensors]
        axis = 0
    ndim = tensors[0].ndim
    if ndim == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    for i, t in enumerate(tensors):
        if t.ndim != ndim:
            raise ValueError(
                "all the input arrays must have same number of dimensions, but the array at "
                f"index 0 has {ndim} dimension(s) and the array at index {i} has {t.ndim} "
                "dimension(s)"
            )
    ax = check_axis(axis, ndim)
    first = tensors[0].shape
    for i, t in enumerate(tensors):
        for d in range(ndim):
            if d != ax and not same_length(first[d], t.shape[d]):
                raise ValueError(
                    "all the input array dimensions except for the concatenation axis must "
                    f"match exactly, but along dimension {d}, the array at index 0 has size "
                    f"{first[d]} and the array at index {i} has size {t.shape[d]}"
                )
    out_dtype = _concat_dtype(tensors, dtype, casting)
    if len(tensors) == 1 and out_dtype == tensors[0].dtype:
        return wrap_node(tensors[0])
    shape = []
    for d in range(ndim):
        if d == ax:
            lengths = [t.shape[d] for t in tensors]
            shape.append(math.nan if any(is_unknown(n) for n in lengths) else sum(lengths))
        else:
            known = [t.shape[d] for t in tensors if not is_unknown(t.shape[d])]
            shape.append(known[0] if known else math.nan)
    # sparse tensors joined stay sparse (chunks are only rearranged); with a dense one among
    # them, all are read as dense
    sparse = True if all(issparse(t) for t in tensors) else None
    return new_tensor(Concatenate(ax), tensors, tuple(shape), out_dtype, sparse=sparse)


def stack(
    arrays: Any, axis: Any = 0, out: Any = None, *, dtype: Any = None, casting: str = "same_kind"
) -> Tensor:
    """Lazy ``numpy.stack``: join same-shaped tensors along a new axis."""
    if out is not None:
        raise TypeError("stack(): the 'out' argument is not supported on tensors")
    tensors = [astensor(t) for t in _as_sequence(arrays, "stack")]
    if not tensors:
        raise ValueError("need at least one array to stack")
    first = tensors[0].shape
    for i, t in enumerate(tensors):
        if len(t.shape) != len(first) or not all(map(same_length, first, t.shape)):
            raise ValueError(
                "all input arrays must have the same shape, but the array at index 0 has "
                f"shape {shape_str(first)} and the array at index {i} has shape "
                f"{shape_str(t.shape)}"
            )
    ax = check_axis(axis, len(first) + 1)
    return concatenate([expand_dims(t, ax) for t in tensors], ax, dtype=dtype, casting=casting)


def _atleast(arys: tuple[Any, ...], ndmin: int) -> Any:
    out = []
    for a in arys:
        x = astensor(a)
        if x.ndim < ndmin:
            if ndmin == 3 and x.ndim == 1:
                x = expand_dims(x, (0, 2))
            elif ndmin == 3 and x.ndim == 2:
                x = expand_dims(x, 2)
            else:
                x = expand_dims(x, tuple(range(ndmin - x.ndim)))
        out.append(x)
    return out[0] if len(out) == 1 else tuple(out)


def atleast_1d(*arys: Any) -> Any:
    """Lazy ``numpy.atleast_1d``: a tensor (or a tuple of them) with at least one axis."""
    return _atleast(arys, 1)


def atleast_2d(*arys: Any) -> Any:
    """Lazy ``numpy.atleast_2d``: 1-d inputs become rows ``(1, N)``."""
    return _atleast(arys, 2)


def atleast_3d(*arys: Any) -> Any:
    """Lazy ``numpy.atleast_3d``: ``(N,) -> (1, N, 1)``, ``(M, N) -> (M, N, 1)``."""
    return _atleast(arys, 3)


def _stack_inputs(tup: Any, func: str) -> list[Any]:
    items = _as_sequence(tup, func)
    if not items:
        raise ValueError("need at least one array to concatenate")
    return items


def vstack(tup: Any, *, dtype: Any = None, casting: str = "same_kind") -> Tensor:
    """Lazy ``numpy.vstack``: concatenate along axis 0 after ``atleast_2d``."""
    items = [atleast_2d(t) for t in _stack_inputs(tup, "stack")]
    return concatenate(items, 0, dtype=dtype, casting=casting)


def hstack(tup: Any, *, dtype: Any = None, casting: str = "same_kind") -> Tensor:
    """Lazy ``numpy.hstack``: along axis 1, or axis 0 for 1-d inputs."""
    items = [atleast_1d(t) for t in _stack_inputs(tup, "stack")]
    axis = 0 if items[0].ndim == 1 else 1
    return concatenate(items, axis, dtype=dtype, casting=casting)


def dstack(tup: Any) -> Tensor:
    """Lazy ``numpy.dstack``: concatenate along axis 2 after ``atleast_3d``."""
    items = [atleast_3d(t) for t in _stack_inputs(tup, "stack")]
    return concatenate(items, 2)


def column_stack(tup: Any) -> Tensor:
    """Lazy ``numpy.column_stack``: 1-d inputs become columns, then concatenate on axis 1."""
    items = []
    for t in _stack_inputs(tup, "stack"):
        x = astensor(t)
        if x.ndim < 2:
            x = expand_dims(x, tuple(range(x.ndim, 2)))
        items.append(x)
    return concatenate(items, 1)
