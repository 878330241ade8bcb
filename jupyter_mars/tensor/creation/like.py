"""``ones_like``, ``zeros_like``, ``empty_like`` and ``full_like``.

A tensor template gives its shape, dtype and chunks without being computed: the result
is a ``Full`` operator whose only input is the template, read for its chunk layout only.
An array template, a new ``shape`` or a ``chunk_size`` for a template of known shape give
an independent source instead.

The result is where ``gpu`` says, and by default where the template is: the ``*_like`` of
a GPU tensor is made on the GPU, as CuPy's ``*_like`` of a CuPy array is a CuPy array.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import normalize_chunk_size
from jupyter_mars.engine.devices import GPU
from jupyter_mars.tensor.core import Tensor, moved, new_tensor, unknown_shape
from jupyter_mars.tensor.creation.common import (
    as_dtype,
    check_order,
    normalize_shape,
    nsplits_for,
)
from jupyter_mars.tensor.creation.fill import Full, as_fill, check_fill, full_from_tensor
from jupyter_mars.tensor.gpu_keyword import check_gpu


def _check_chunk_form(chunk_size: Any, ndim: int) -> None:
    """Check what can be checked of ``chunk_size`` before the shape is known."""
    if isinstance(chunk_size, (tuple, list)):
        if len(chunk_size) != ndim:
            raise ValueError(
                f"chunk_size must have one entry per axis ({ndim}), got {len(chunk_size)}: "
                f"{tuple(chunk_size)!r}"
            )
    else:
        normalize_chunk_size((1,) * ndim, chunk_size, 8)


def _like(
    kind: str,
    a: Any,
    fill_value: Any,
    dtype: Any,
    order: str,
    shape: Any,
    chunk_size: Any,
    func: str,
    gpu: Any = None,
) -> Tensor:
    on_gpu = check_gpu(gpu, func)
    order = check_order(order, "CFAK", func)
    if isinstance(a, Tensor):
        src_shape: tuple[Any, ...] = a.shape
        src_dtype = a.dtype
        if on_gpu is None and a.node.device == GPU:
            on_gpu = True
    else:
        arr = np.asarray(a)
        src_shape, src_dtype = arr.shape, arr.dtype
    dt = as_dtype(dtype, src_dtype)
    if isinstance(fill_value, Tensor):
        template = _like("empty", a, None, dt, order, shape, chunk_size, func, on_gpu)
        if on_gpu is not None:  # the fill is read where the result is made
            fill_value = moved(fill_value, on_gpu)
        return full_from_tensor(template, fill_value, dt, func)
    fill = as_fill(fill_value) if kind == "full" else None
    if (
        shape is not None
        or not isinstance(a, Tensor)
        or (chunk_size is not None and not unknown_shape(src_shape))
    ):
        shp = normalize_shape(src_shape if shape is None else shape)
        if fill is not None:
            check_fill(fill, shp, dt, func)
        op = Full(kind, fill, nsplits_for(shp, chunk_size, dt), order)
        return new_tensor(op, [], shp, dt, gpu=on_gpu)
    # the chunks of the tensor ``a`` (or chunk_size applied to its shape once known)
    if fill is not None:
        check_fill(fill, src_shape, dt, func)
    if chunk_size is not None:
        _check_chunk_form(chunk_size, len(src_shape))
    op = Full(kind, fill, None, order, chunk_size=chunk_size)
    return new_tensor(op, [a], src_shape, dt, gpu=on_gpu)


def ones_like(
    a: Any,
    dtype: Any = None,
    order: str = "K",
    subok: bool = True,
    shape: Any = None,
    chunk_size: Any = None,
    gpu: Any = None,
) -> Tensor:
    """Ones with the shape and dtype of ``a`` (and, for a tensor, its chunks)."""
    return _like("ones", a, None, dtype, order, shape, chunk_size, "ones_like", gpu)


def zeros_like(
    a: Any,
    dtype: Any = None,
    order: str = "K",
    subok: bool = True,
    shape: Any = None,
    chunk_size: Any = None,
    gpu: Any = None,
) -> Tensor:
    """Zeros with the shape and dtype of ``a`` (and, for a tensor, its chunks)."""
    return _like("zeros", a, None, dtype, order, shape, chunk_size, "zeros_like", gpu)


def empty_like(
    a: Any,
    dtype: Any = None,
    order: str = "K",
    subok: bool = True,
    shape: Any = None,
    chunk_size: Any = None,
    gpu: Any = None,
) -> Tensor:
    """An uninitialised tensor with the shape and dtype of ``a`` (and its chunks)."""
    return _like("empty", a, None, dtype, order, shape, chunk_size, "empty_like", gpu)


def full_like(
    a: Any,
    fill_value: Any,
    dtype: Any = None,
    order: str = "K",
    subok: bool = True,
    shape: Any = None,
    chunk_size: Any = None,
    gpu: Any = None,
) -> Tensor:
    """``fill_value`` with the shape and dtype of ``a`` (and, for a tensor, its chunks)."""
    return _like("full", a, fill_value, dtype, order, shape, chunk_size, "full_like", gpu)
