"""The reduction node and the kernels most reductions are made of.

A reduction is a tree reduction (``engine/primitives/reduction.py``) described by three
kernels: ``chunk`` turns one input chunk into a partial result, ``combine`` merges
``options.combine_size`` partials at a time, ``aggregate`` turns the last one into the
output chunk. ``reduce`` builds such a node from any three kernels; ``pairwise_reduce``
builds the usual case from the pieces below:

- a partial is an array, or a tuple of arrays, with the reduced axes kept (length 1);
  ``None`` stands for a chunk that is empty along the reduced axes, for operations
  without an identity (``min``, ``argmax``, ``ptp``);
- partials merge with a binary ``pairwise`` function (``np.add``, or ``zip_pairwise``
  for tuples), skipping ``None``;
- ``aggregate`` raises NumPy's error when only ``None`` is left, applies an optional
  ``finalize(part, axis)`` (``total / count``), drops the reduced axes and casts.
"""

from __future__ import annotations

import builtins
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.config import options
from jupyter_mars.engine.devices import array_module
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, tile_rule
from jupyter_mars.engine.primitives.reduction import Reduction
from jupyter_mars.engine.sparse import to_dense
from jupyter_mars.engine.sparse_ops import sparse_reduce
from jupyter_mars.tensor.core import Tensor, new_tensor, unknown_shape
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.reduction._probe import reduced_count
from jupyter_mars.tensor.reduction.args import check_keepdims, normalize_axis
from jupyter_mars.tensor.sparse.convert import issparse

# ---- shapes -------------------------------------------------------------------------------------


def reduced_shape(shape: tuple[Any, ...], axes: tuple[int, ...], keepdims: bool) -> tuple[Any, ...]:
    if keepdims:
        return tuple(1 if i in axes else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i not in axes)


def squeeze_axes(x: Any, axis: tuple[int, ...], keepdims: bool) -> Any:
    if keepdims:
        return x
    return np.squeeze(x, axis=axis) if axis else x


def empty_along(block: Any, axis: tuple[int, ...]) -> bool:
    return builtins.any(block.shape[a] == 0 for a in axis)


def grid_key(grid: Any, index: Any) -> Any:
    """The chunk key at ``index`` of a key grid."""
    return grid[index]


# ---- the node -----------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class _KnownChunks(Op):
    """The input unchanged, once its chunk lengths are known (arg-reductions need offsets)."""

    def label(self) -> str:
        return "known_chunks"


@tile_rule(_KnownChunks)
def _tile_known_chunks(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    ctx.require_known(inputs[0])
    return Tiled(inputs[0].nsplits, inputs[0].keys)


def reduce(
    x: Any,
    name: str,
    chunk: Callable[..., Any],
    combine: Callable[..., Any],
    aggregate: Callable[..., Any],
    axis: Any,
    keepdims: bool,
    dtype: Any,
    chunk_kwargs: dict[str, Any] | None = None,
    with_offsets: bool = False,
    combine_size: int | None = None,
) -> Tensor:
    """Build a reduction node over ``axis`` of ``x`` (see ``engine/primitives/reduction.py``
    for the kernel contract); the fan-in is ``combine_size`` or ``options.combine_size``."""
    t = astensor(x)
    axes = normalize_axis(axis, t.ndim)
    keep = check_keepdims(keepdims)
    if with_offsets and unknown_shape(t.shape):
        t = new_tensor(_KnownChunks(), [t], t.shape, t.dtype)
    # a sparse input is read by the chunk kernel's sparse twin, or else as dense blocks
    sparse: bool | None = None
    twin = sparse_twin(chunk) if issparse(t) else None
    if twin is not None:
        chunk, sparse = twin, False
    op = Reduction(
        chunk=chunk,
        combine=combine,
        aggregate=aggregate,
        axis=axes,
        keepdims=keep,
        combine_size=combine_size or options.combine_size,
        name=name,
        chunk_kwargs=chunk_kwargs or {},
        with_offsets=with_offsets,
    )
    return new_tensor(op, [t], reduced_shape(t.shape, axes, keep), dtype, sparse=sparse)


# ---- shared kernels -----------------------------------------------------------------------------


def numpy_chunk(
    func: Callable[..., Any],
    block: Any,
    axis: Any,
    keepdims: bool,
    *,
    skip_empty: bool = False,
    **kwargs: Any,
) -> Any:
    """``func(block, axis=axis, keepdims=True, **kwargs)``; ``None`` for a block empty along
    ``axis`` when ``skip_empty`` (an operation without identity)."""
    if skip_empty and empty_along(block, axis):
        return None
    with np.errstate(all="ignore"):
        if "initial" in kwargs:
            return reduce_with_initial(func, block, axis, **kwargs)
        return func(block, axis=axis, keepdims=True, **kwargs)


def reduce_with_initial(
    func: Callable[..., Any], block: Any, axis: Any, *, initial: Any, **kwargs: Any
) -> Any:
    """``func(block, axis=axis, keepdims=True, initial=initial)``. CuPy's reductions take no
    ``initial``: on a GPU the block's reduction is reduced once more with ``initial``, which
    NumPy counts as one more item of every reduced slice (``sum``, ``prod``, ``max``, ``min``
    and their NaN forms, the only reductions that take it)."""
    xp = array_module(block)
    if xp is np:
        return func(block, axis=axis, keepdims=True, initial=initial, **kwargs)
    shape = reduced_shape(block.shape, axis, True)
    if empty_along(block, axis):
        dtype = kwargs.get("dtype")
        return xp.full(shape, initial, dtype=block.dtype if dtype is None else dtype)
    reduced = func(block, axis=axis, keepdims=True, **kwargs)
    start = xp.full(shape, initial, dtype=reduced.dtype)
    return func(xp.stack([reduced, start]), axis=0).astype(reduced.dtype, copy=False)


def sparse_numpy_chunk(
    func: Callable[..., Any],
    block: Any,
    axis: Any,
    keepdims: bool,
    *,
    skip_empty: bool = False,
    **kwargs: Any,
) -> Any:
    """``numpy_chunk`` of a sparse block: SciPy's ``sum``/``max``/``min`` where ``func`` is
    one of those (NumPy's on the dense block otherwise)."""
    method = _SCIPY_METHODS.get(func)
    if method is None or set(kwargs) - {"dtype"} or empty_along(block, axis):
        return numpy_chunk(func, to_dense(block), axis, keepdims, skip_empty=skip_empty, **kwargs)
    with np.errstate(all="ignore"):
        return sparse_reduce(method, block, axis, kwargs.get("dtype"))


_SCIPY_METHODS: dict[Any, str] = {np.sum: "sum", np.max: "max", np.min: "min"}
_SCIPY_METHODS.update({np.amax: "max", np.amin: "min"})

SPARSE_TWINS: dict[Callable[..., Any], Callable[..., Any]] = {numpy_chunk: sparse_numpy_chunk}
"""Chunk kernel -> its form that reads a sparse block, called with the same arguments
(registered beside each kernel). A reduction of a sparse tensor whose kernel has no twin
reads the blocks made dense."""


def sparse_twin(chunk: Callable[..., Any]) -> Callable[..., Any] | None:
    """``chunk`` (a partial of a kernel) with the kernel's sparse twin, if it has one."""
    if isinstance(chunk, functools.partial) and chunk.func in SPARSE_TWINS:
        return functools.partial(SPARSE_TWINS[chunk.func], *chunk.args, **chunk.keywords)
    return None


def count_chunk(dtype: np.dtype[Any], block: Any, axis: Any, keepdims: bool) -> Any:
    """The number of items reduced, in the shape of a partial."""
    count = reduced_count(block.shape, axis)
    return array_module(block).full(reduced_shape(block.shape, axis, True), count, dtype=dtype)


def combine_pairwise(pairwise: Callable[..., Any], parts: list[Any], axis: Any) -> Any:
    present = [p for p in parts if p is not None]
    if not present:
        return None
    with np.errstate(all="ignore"):
        return functools.reduce(pairwise, present)


def zip_pairwise(pairwise: tuple[Callable[..., Any], ...], a: Any, b: Any) -> Any:
    """Merge two tuple partials item by item, ``pairwise[i]`` for item ``i``."""
    return tuple(f(u, v) for f, u, v in zip(pairwise, a, b))


def as_result(value: Any, dtype: np.dtype[Any]) -> Any:
    with np.errstate(all="ignore"):
        return array_module(value).asarray(value).astype(dtype, copy=False)


def aggregate(
    finalize: Callable[..., Any] | None,
    dtype: np.dtype[Any],
    empty_message: str,
    part: Any,
    axis: Any,
    keepdims: bool,
) -> Any:
    if part is None:
        raise ValueError(empty_message)
    if finalize is not None:
        with np.errstate(all="ignore"):
            part = finalize(part, axis)
    return as_result(squeeze_axes(part, axis, keepdims), dtype)


def pairwise_reduce(
    x: Any,
    name: str,
    chunk: Callable[..., Any],
    pairwise: Callable[..., Any],
    axis: Any,
    keepdims: bool,
    dtype: Any,
    *,
    finalize: Callable[..., Any] | None = None,
    empty_message: str | None = None,
    with_offsets: bool = False,
) -> Tensor:
    """A reduction whose partials merge with ``pairwise`` and end with ``finalize``. An
    all-empty reduced axis raises ``empty_message`` when executed (NumPy's "no identity"
    message by default)."""
    if empty_message is None:
        opname = getattr(pairwise, "__name__", name)
        empty_message = f"zero-size array to reduction operation {opname} which has no identity"
    return reduce(
        x,
        name,
        chunk,
        functools.partial(combine_pairwise, pairwise),
        functools.partial(aggregate, finalize, np.dtype(dtype), empty_message),
        axis,
        keepdims,
        dtype,
        with_offsets=with_offsets,
    )
