"""``ones``, ``zeros``, ``empty`` and ``full``: chunks filled with one value.

The ``Full`` operator also serves the ``*_like`` functions (see ``like.py``): without
``nsplits`` it takes the chunks of its input tensor, which it never reads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import NSplits, offsets
from jupyter_mars.engine.devices import GPU, cupy_module
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.recipes import regenerable, sized
from jupyter_mars.engine.sparse import SparseNode, empty_sparse
from jupyter_mars.tensor.core import Tensor, is_scalar, moved, new_tensor, unknown_shape
from jupyter_mars.tensor.creation.common import (
    array_module_named,
    as_dtype,
    block_indices,
    broadcasts_to,
    check_order,
    chunk_region,
    chunk_shape,
    device_args,
    normalize_shape,
    nsplits_for,
    numblocks,
    on_module,
)
from jupyter_mars.tensor.elemwise import elemwise
from jupyter_mars.tensor.gpu_keyword import check_gpu
from jupyter_mars.tensor.sparse.convert import sparse_flag

# ---- kernels -------------------------------------------------------------------------------


def _full_figures(
    shape: tuple[int, ...], value: Any, dtype: np.dtype[Any], order: str, xp: str = "numpy"
) -> tuple[tuple[int, ...], np.dtype[Any]] | None:
    return (tuple(shape), np.dtype(dtype)) if xp == "numpy" else None


def _block_figures(
    shape: tuple[int, ...], dtype: np.dtype[Any], order: str
) -> tuple[tuple[int, ...], np.dtype[Any]]:
    return tuple(shape), np.dtype(dtype)


@sized(_full_figures)
@regenerable
def full_chunk(
    shape: tuple[int, ...], value: Any, dtype: np.dtype[Any], order: str, xp: str = "numpy"
) -> Any:
    """A new chunk of ``shape`` filled with ``value`` (cast as ``np.full`` casts), made
    with the array module ``xp`` (``"cupy"``: on the GPU)."""
    mod = array_module_named(xp, "full(gpu=True)")
    out = mod.empty(shape, dtype=dtype, order=order)
    mod.copyto(out, on_module(value, mod), casting="unsafe")
    return out


def fill_into(block: Any, value: Any) -> Any:
    """A copy of ``block`` with every element set to (the broadcast) ``value``."""
    out = np.empty_like(block)
    np.copyto(out, value, casting="unsafe")
    return out


@sized(_block_figures)
@regenerable
def zeros_block(shape: tuple[int, ...], dtype: np.dtype[Any], order: str) -> Any:
    return np.zeros(shape, dtype=dtype, order=order)  # type: ignore[call-overload]


@sized(_block_figures)
@regenerable
def ones_block(shape: tuple[int, ...], dtype: np.dtype[Any], order: str) -> Any:
    return np.ones(shape, dtype=dtype, order=order)  # type: ignore[call-overload]


@regenerable
def zeros_gpu(shape: tuple[int, ...], dtype: np.dtype[Any], order: str) -> Any:
    return cupy_module("zeros(gpu=True)").zeros(shape, dtype=dtype, order=order)


@regenerable
def ones_gpu(shape: tuple[int, ...], dtype: np.dtype[Any], order: str) -> Any:
    return cupy_module("ones(gpu=True)").ones(shape, dtype=dtype, order=order)


def empty_gpu(shape: tuple[int, ...], dtype: np.dtype[Any], order: str) -> Any:
    return cupy_module("empty(gpu=True)").empty(shape, dtype=dtype, order=order)


# ``empty`` is not drawn again: a chunk dropped and made anew would not hold what it held
_FILL_KERNELS: dict[str, Callable[..., Any]] = {
    "zeros": zeros_block,
    "ones": ones_block,
    "empty": np.empty,
}
_GPU_FILL_KERNELS: dict[str, Callable[..., Any]] = {
    "zeros": zeros_gpu,
    "ones": ones_gpu,
    "empty": empty_gpu,
}


# ---- the operator ----------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Full(Op):
    """Chunks filled with one value (``kind``: ``full``, ``zeros``, ``ones`` or ``empty``)."""

    kind: str
    fill_value: Any
    """The value of ``full`` (a scalar as given, or an array broadcast to the shape)."""
    nsplits: NSplits | None
    """Chunk lengths; None: the chunks of the input tensor (``*_like``), or ``chunk_size``
    applied to its shape once that is known."""
    order: str = "C"
    chunk_size: Any = None

    def label(self) -> str:
        return self.kind


@tile_rule(Full)
def _tile_full(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Full)
    if op.nsplits is not None:
        nsplits = op.nsplits
    else:
        (like,) = inputs
        ctx.require_known(like)
        if op.chunk_size is None:
            nsplits = like.nsplits
        else:
            shape = tuple(int(sum(axis)) for axis in like.nsplits)
            nsplits = nsplits_for(shape, op.chunk_size, node.dtype)
    grid = key_grid(node.key, numblocks(nsplits))
    starts = [offsets(axis) for axis in nsplits]
    for index in block_indices(nsplits):
        shape = chunk_shape(nsplits, index)
        if op.kind == "full":
            value = chunk_region(op.fill_value, starts, index, shape)
            xp = device_args(ctx)
            ctx.new_task(grid[index], full_chunk, shape, value, node.dtype, op.order, *xp)
        elif isinstance(node, SparseNode):
            ctx.new_task(grid[index], empty_sparse, shape, node.dtype)  # sparse zeros
        else:
            kernels = _GPU_FILL_KERNELS if ctx.device == GPU else _FILL_KERNELS
            ctx.new_task(grid[index], kernels[op.kind], shape, node.dtype, op.order)
    return Tiled(tuple(tuple(axis) for axis in nsplits), grid)


# ---- fill values -----------------------------------------------------------------------------


def as_fill(fill_value: Any) -> Any:
    """A fill value as ``Full`` holds it: a scalar as given, anything else as an array."""
    return fill_value if is_scalar(fill_value) else np.asarray(fill_value)


def _check_broadcast(fill_shape: tuple[Any, ...], shape: tuple[Any, ...], func: str) -> None:
    """NumPy's error for a fill value that does not broadcast to ``shape`` (when known)."""
    if unknown_shape(fill_shape) or unknown_shape(shape):
        return
    if not broadcasts_to(fill_shape, shape):
        raise ValueError(
            f"{func}(): could not broadcast fill_value from shape {fill_shape} "
            f"into shape {tuple(shape)}"
        )


def check_fill(fill: Any, shape: tuple[Any, ...], dtype: np.dtype[Any], func: str) -> None:
    """NumPy's errors for a fill value that does not broadcast to ``shape`` or cast to dtype."""
    fill_shape = np.shape(fill)
    _check_broadcast(fill_shape, shape, func)
    probe = np.empty(fill_shape, dtype=dtype)
    np.copyto(probe, fill, casting="unsafe")


def full_from_tensor(template: Tensor, fill: Tensor, dtype: np.dtype[Any], func: str) -> Tensor:
    """``fill`` broadcast into the chunks of ``template`` (whose values are not read)."""
    _check_broadcast(fill.shape, template.shape, func)
    return elemwise(fill_into, template, fill, dtype=dtype, name="full")


# ---- ones, zeros, empty, full ----------------------------------------------------------------


def _filled(
    kind: str,
    shape: Any,
    dtype: Any,
    order: str,
    chunk_size: Any,
    func: str,
    sparse: Any = False,
    gpu: Any = None,
) -> Tensor:
    on_gpu = check_gpu(gpu, func)
    shp = normalize_shape(shape)
    dt = as_dtype(dtype)
    order = check_order(order, "CF", func)
    op = Full(kind, None, nsplits_for(shp, chunk_size, dt), order)
    return new_tensor(op, [], shp, dt, sparse=sparse_flag(sparse, shp, func), gpu=on_gpu)


def ones(
    shape: Any, dtype: Any = None, order: str = "C", chunk_size: Any = None, gpu: Any = None
) -> Tensor:
    """A tensor of ``shape`` filled with ones (``numpy.ones``); float64 by default.
    ``gpu=True``: its chunks are made on a GPU (CuPy arrays)."""
    return _filled("ones", shape, dtype, order, chunk_size, "ones", gpu=gpu)


def zeros(
    shape: Any,
    dtype: Any = None,
    order: str = "C",
    chunk_size: Any = None,
    sparse: bool = False,
    gpu: Any = None,
) -> Tensor:
    """A tensor of ``shape`` filled with zeros (``numpy.zeros``); float64 by default.
    ``sparse=True`` (a 2-d shape): a sparse tensor storing nothing; ``gpu=True``: chunks
    made on a GPU."""
    return _filled("zeros", shape, dtype, order, chunk_size, "zeros", sparse, gpu)


def empty(
    shape: Any, dtype: Any = None, order: str = "C", chunk_size: Any = None, gpu: Any = None
) -> Tensor:
    """A tensor of ``shape`` whose values are arbitrary (``numpy.empty``); ``gpu=True``:
    chunks allocated on a GPU."""
    return _filled("empty", shape, dtype, order, chunk_size, "empty", gpu=gpu)


def full(
    shape: Any,
    fill_value: Any,
    dtype: Any = None,
    order: str = "C",
    chunk_size: Any = None,
    gpu: Any = None,
) -> Tensor:
    """A tensor of ``shape`` filled with ``fill_value`` (``numpy.full``).

    The dtype is ``fill_value``'s unless given; an array ``fill_value`` is broadcast (each
    chunk receives only the part it covers); a tensor ``fill_value`` is broadcast chunk by
    chunk. ``gpu=True``: chunks filled on a GPU.
    """
    on_gpu = check_gpu(gpu, "full")
    shp = normalize_shape(shape)
    order = check_order(order, "CF", "full")
    if isinstance(fill_value, Tensor):
        dt = as_dtype(dtype, fill_value.dtype)
        if on_gpu is not None:  # the fill is read where the result is made
            fill_value = moved(fill_value, on_gpu)
        template = empty(shp, dt, order, chunk_size, gpu=on_gpu)
        return full_from_tensor(template, fill_value, dt, "full")
    if dtype is None:
        fill = np.asarray(fill_value)
        dt = as_dtype(fill.dtype)
    else:
        dt = as_dtype(dtype)
        fill = as_fill(fill_value)
    check_fill(fill, shp, dt, "full")
    op = Full("full", fill, nsplits_for(shp, chunk_size, dt), order)
    return new_tensor(op, [], shp, dt, gpu=on_gpu)
