"""Tensors made from data the user already holds: ``tensor``, ``array``, ``asarray``.

With ``gpu=True`` the data is split on the host as always, and each chunk is copied to
the GPU by its own task (``to_device``), so the whole array is never copied at once and
its chunks can be copied by several GPUs. A tensor given as data is moved as
``to_gpu()``/``to_cpu()`` move it.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import NSplits, chunk_slices, normalize_chunk_size
from jupyter_mars.engine.devices import GPU, array_module, is_device_array, to_device, to_host
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.sparse import SparseNode, is_sparse_chunk
from jupyter_mars.tensor.core import Tensor, moved, new_tensor
from jupyter_mars.tensor.gpu_keyword import check_gpu
from jupyter_mars.tensor.sparse.convert import sparse_matrix, tosparse


@dataclass(frozen=True, eq=False)
class FromArray(Op):
    data: np.ndarray[Any, Any]
    nsplits: NSplits

    def label(self) -> str:
        return "tensor_data"


def identity(block: Any) -> Any:
    return block


@tile_rule(FromArray)
def _tile_from_array(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, FromArray)
    grid = key_grid(node.key, [len(axis) for axis in op.nsplits])
    per_axis = [chunk_slices([int(n) for n in axis]) for axis in op.nsplits]
    # chunks of Fortran-ordered data are Fortran-ordered too, as NumPy keeps the layout
    data = op.data
    fortran = (
        isinstance(data, np.ndarray) and data.flags.f_contiguous and not data.flags.c_contiguous
    )
    # a chunk for a GPU is copied there by its own task, on a GPU slot
    kernel = to_device if ctx.device == GPU else identity
    for index in itertools.product(*(range(len(axis)) for axis in op.nsplits)):
        region = tuple(per_axis[a][i] for a, i in enumerate(index))
        block = op.data[region]
        ctx.new_task(grid[index], kernel, np.asfortranarray(block) if fortran else block)
    return Tiled(op.nsplits, grid)


def _check_dtype(dtype: Any) -> np.dtype[Any] | None:
    if dtype is None:
        return None
    try:
        dt: np.dtype[Any] = np.dtype(dtype)
        return dt
    except TypeError as exc:
        raise TypeError(f"dtype {dtype!r} is not understood as a NumPy dtype") from exc


def tensor(
    data: Any = None,
    dtype: Any = None,
    order: str = "K",
    chunk_size: Any = None,
    sparse: bool = False,
    gpu: Any = None,
    **kwargs: Any,
) -> Tensor:
    """A tensor from array-like ``data`` (a copy of it; a tensor is rechunked/cast if asked).

    A SciPy sparse matrix gives a sparse tensor, as ``sparse=True`` does for 2-d data.
    ``gpu=True``: the chunks are copied to a GPU, each by its own task (a tensor ``data``
    is moved as ``to_gpu()`` moves it); ``gpu=False`` keeps them in host memory. A CuPy
    array gives a GPU tensor (``gpu=False``: copied to host memory).
    """
    if kwargs:
        raise TypeError(f"tensor() got unexpected keyword arguments {sorted(kwargs)}")
    on_gpu = check_gpu(gpu, "tensor")
    dt = _check_dtype(dtype)
    if order not in ("C", "F", "A", "K"):
        raise ValueError(f"tensor(): order must be one of 'C', 'F', 'A' or 'K', got {order!r}")
    if sparse and on_gpu:
        raise NotImplementedError(
            "tensor(): sparse tensors live in host memory; give gpu=True or sparse=True, not both"
        )
    if sparse:
        return tosparse(tensor(data, dtype=dt, chunk_size=chunk_size))
    if isinstance(data, Tensor):
        out = data if dt is None and order in ("A", "K") else data.astype(dt or data.dtype, order)
        out = out.rechunk(chunk_size) if chunk_size is not None else out
        if on_gpu and isinstance(out.node, SparseNode):
            raise NotImplementedError(
                "tensor(): a sparse tensor lives in host memory; gpu=True is not supported"
            )
        return out if on_gpu is None else moved(out, on_gpu)
    if is_sparse_chunk(data):
        if on_gpu:
            raise NotImplementedError(
                "tensor(): a sparse matrix lives in host memory; gpu=True is not supported"
            )
        m = sparse_matrix(data, dt)
        nsplits = normalize_chunk_size(m.shape, chunk_size, m.dtype.itemsize)
        return new_tensor(FromArray(m, nsplits), [], m.shape, m.dtype, sparse=True)
    if is_device_array(data):
        if on_gpu is False:
            data = to_host(data)  # asked for in host memory: one copy off the device
        else:
            # a CuPy array stays on its device, as in Mars: its chunks are cut from it there
            held = array_module(data).array(data, dtype=dt, order=order)
            nsplits = normalize_chunk_size(held.shape, chunk_size, held.dtype.itemsize)
            return new_tensor(FromArray(held, nsplits), [], held.shape, held.dtype, gpu=True)
    arr: np.ndarray[Any, Any] = np.array(data, dtype=dt, order=order)  # type: ignore[call-overload]
    if arr.dtype.kind == "O":
        raise TypeError("object arrays are not supported; give a numeric, bool or string array")
    nsplits = normalize_chunk_size(arr.shape, chunk_size, arr.dtype.itemsize)
    return new_tensor(FromArray(arr, nsplits), [], arr.shape, arr.dtype, gpu=on_gpu)


def array(
    x: Any,
    dtype: Any = None,
    copy: bool = True,
    ndmin: int | None = None,
    chunk_size: Any = None,
    order: str = "K",
    gpu: Any = None,
) -> Tensor:
    """``tensor(x)``, with NumPy's ``ndmin``; ``gpu=True``: chunks copied to a GPU."""
    check_gpu(gpu, "array")
    if ndmin is not None and not isinstance(x, Tensor):
        x = np.array(x, ndmin=ndmin, order=order)  # type: ignore[call-overload]
    return tensor(x, dtype=dtype, chunk_size=chunk_size, order=order, gpu=gpu)


def asarray(
    x: Any, dtype: Any = None, order: str | None = None, chunk_size: Any = None, gpu: Any = None
) -> Tensor:
    """``x`` itself when it is a tensor and nothing is asked of it, else ``tensor(x)``;
    ``gpu=True``: chunks on a GPU (a GPU tensor is itself)."""
    check_gpu(gpu, "asarray")
    layout = "K" if order is None else order
    if isinstance(x, Tensor) and dtype is None and chunk_size is None and layout in ("A", "K"):
        return x if gpu is None else moved(x, bool(gpu))
    return tensor(x, dtype=dtype, chunk_size=chunk_size, order=layout, gpu=gpu)


def astensor(x: Any, dtype: Any = None) -> Tensor:
    """``x`` itself when it is a tensor, else a one-chunk-per-budget tensor of it."""
    if isinstance(x, Tensor):
        return x if dtype is None or x.dtype == np.dtype(dtype) else x.astype(dtype)
    return tensor(x, dtype=dtype)


__all__ = ["array", "asarray", "astensor", "tensor"]
