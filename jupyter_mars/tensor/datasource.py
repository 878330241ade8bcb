"""Tensors made from data the user already holds: ``tensor``, ``array``, ``asarray``."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import NSplits, chunk_slices, normalize_chunk_size
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.sparse import is_sparse_chunk
from jupyter_mars.tensor.core import Tensor, new_tensor
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
    for index in itertools.product(*(range(len(axis)) for axis in op.nsplits)):
        region = tuple(per_axis[a][i] for a, i in enumerate(index))
        block = op.data[region]
        ctx.new_task(grid[index], identity, np.asfortranarray(block) if fortran else block)
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
    **kwargs: Any,
) -> Tensor:
    """A tensor from array-like ``data`` (a copy of it; a tensor is rechunked/cast if asked).

    A SciPy sparse matrix gives a sparse tensor, as ``sparse=True`` does for 2-d data.
    """
    if kwargs:
        raise TypeError(f"tensor() got unexpected keyword arguments {sorted(kwargs)}")
    dt = _check_dtype(dtype)
    if order not in ("C", "F", "A", "K"):
        raise ValueError(f"tensor(): order must be one of 'C', 'F', 'A' or 'K', got {order!r}")
    if sparse:
        return tosparse(tensor(data, dtype=dt, chunk_size=chunk_size))
    if isinstance(data, Tensor):
        out = data if dt is None and order in ("A", "K") else data.astype(dt or data.dtype, order)
        return out.rechunk(chunk_size) if chunk_size is not None else out
    if is_sparse_chunk(data):
        m = sparse_matrix(data, dt)
        nsplits = normalize_chunk_size(m.shape, chunk_size, m.dtype.itemsize)
        return new_tensor(FromArray(m, nsplits), [], m.shape, m.dtype, sparse=True)
    arr: np.ndarray[Any, Any] = np.array(data, dtype=dt, order=order)  # type: ignore[call-overload]
    if arr.dtype.kind == "O":
        raise TypeError("object arrays are not supported; give a numeric, bool or string array")
    nsplits = normalize_chunk_size(arr.shape, chunk_size, arr.dtype.itemsize)
    return new_tensor(FromArray(arr, nsplits), [], arr.shape, arr.dtype)


def array(
    x: Any,
    dtype: Any = None,
    copy: bool = True,
    ndmin: int | None = None,
    chunk_size: Any = None,
    order: str = "K",
) -> Tensor:
    if ndmin is not None and not isinstance(x, Tensor):
        x = np.array(x, ndmin=ndmin, order=order)  # type: ignore[call-overload]
    return tensor(x, dtype=dtype, chunk_size=chunk_size, order=order)


def asarray(x: Any, dtype: Any = None, order: str | None = None, chunk_size: Any = None) -> Tensor:
    layout = "K" if order is None else order
    if isinstance(x, Tensor) and dtype is None and chunk_size is None and layout in ("A", "K"):
        return x
    return tensor(x, dtype=dtype, chunk_size=chunk_size, order=layout)


def astensor(x: Any, dtype: Any = None) -> Tensor:
    """``x`` itself when it is a tensor, else a one-chunk-per-budget tensor of it."""
    if isinstance(x, Tensor):
        return x if dtype is None or x.dtype == np.dtype(dtype) else x.astype(dtype)
    return tensor(x, dtype=dtype)


__all__ = ["array", "asarray", "astensor", "tensor"]
