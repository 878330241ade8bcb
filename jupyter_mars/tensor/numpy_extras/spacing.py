"""Sequences and arrays made from rules rather than data: ``logspace``, ``geomspace``,
``fromfunction``, ``vander``; and ``fromiter`` and ``from_dlpack``, which read a local Python
iterable or a DLPack-capable array into a tensor.

``geomspace`` follows NumPy's recipe: the sign (or complex phase) is taken out, the
magnitudes are spaced evenly in log10, and both ends are set to the exact inputs.
Its ends are small, so they are computed with NumPy at the call, which lets a zero end
raise there.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.creation import linspace, ones
from jupyter_mars.tensor.datasource import asarray, tensor
from jupyter_mars.tensor.gpu_keyword import check_gpu
from jupyter_mars.tensor.reduction import cumprod
from jupyter_mars.tensor.routines import indices
from jupyter_mars.tensor.shape import broadcast_to, concatenate, expand_dims, flip, moveaxis
from jupyter_mars.tensor.shape.common import int_arg, is_unknown, shape_param
from jupyter_mars.tensor.ufuncs import multiply, power  # type: ignore[attr-defined]


def logspace(
    start: Any,
    stop: Any,
    num: Any = 50,
    endpoint: bool = True,
    base: Any = 10.0,
    dtype: Any = None,
    axis: Any = 0,
    chunk_size: Any = None,
    gpu: Any = None,
) -> Tensor:
    """``base ** linspace(start, stop, num)``: numbers spaced evenly on a log scale;
    ``gpu=True``: computed on a GPU."""
    check_gpu(gpu, "logspace")
    exponents = linspace(
        start, stop, num, endpoint=endpoint, axis=axis, chunk_size=chunk_size, gpu=gpu
    )
    if np.ndim(base) > 0:
        base = expand_dims(asarray(base), axis)
    result: Tensor = power(base, exponents)
    return result if dtype is None else result.astype(dtype, copy=False)


def geomspace(
    start: Any,
    stop: Any,
    num: Any = 50,
    endpoint: bool = True,
    dtype: Any = None,
    axis: Any = 0,
    chunk_size: Any = None,
    gpu: Any = None,
) -> Tensor:
    """Numbers spaced evenly on a log scale between the ends themselves; ``gpu=True``:
    computed on a GPU."""
    check_gpu(gpu, "geomspace")
    first = np.asarray(start) * 1.0
    last = np.asarray(stop) * 1.0
    if (first == 0).any() or (last == 0).any():
        raise ValueError("Geometric sequence cannot include zero")
    inner = np.result_type(first, last, float(num), np.zeros((), dtype))
    first, last = first.astype(inner), last.astype(inner)
    sign = np.sign(first)  # z / |z| for complex numbers
    first, last = first / sign, last / sign
    result = logspace(
        np.log10(first), np.log10(last), num, endpoint, 10.0, inner, 0, chunk_size, gpu
    )
    if num > 0:
        result[0] = first
        if num > 1 and endpoint:
            result[-1] = last
    signed: Tensor = multiply(sign, result)
    if axis != 0:
        signed = moveaxis(signed, 0, axis)
    return signed.astype(inner if dtype is None else dtype, copy=False)  # type: ignore[no-any-return]


def fromfunction(
    function: Any, shape: Any, *, dtype: Any = float, like: Any = None, **kwargs: Any
) -> Any:
    """``function`` called once with lazy index tensors of ``shape`` (one per axis)."""
    grids = indices(shape_param(shape), dtype=dtype)
    return function(*grids, **kwargs)


def fromiter(
    iter: Any, dtype: Any, count: Any = -1, *, like: Any = None, chunk_size: Any = None
) -> Tensor:
    """The items of a local iterable, read at the call (an iterator can be read once)."""
    return tensor(np.fromiter(iter, dtype=dtype, count=count), chunk_size=chunk_size)


def from_dlpack(
    x: Any, /, *, device: Any = None, copy: Any = None, chunk_size: Any = None
) -> Tensor:
    """A tensor of a DLPack-capable array's values, read at the call."""
    return tensor(np.from_dlpack(x, device=device, copy=copy), chunk_size=chunk_size)


def vander(x: Any, N: Any = None, increasing: bool = False) -> Tensor:
    """The Vandermonde matrix of the 1-d ``x``: its powers as columns, highest first
    unless ``increasing``; built as NumPy does, by a running product along the rows."""
    t = asarray(x)
    if t.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = t.shape[0]
    columns = n if N is None else int_arg(N, "N")
    if is_unknown(n):
        raise ValueError("vander() needs the length of x; execute it first")
    if columns < 0:
        raise ValueError("negative dimensions are not allowed")
    dtype = np.promote_types(t.dtype, int)
    parts = [ones((n, min(columns, 1)), dtype=dtype)]
    if columns > 1:
        repeated = broadcast_to(expand_dims(t.astype(dtype), 1), (n, columns - 1))
        parts.append(cumprod(repeated, axis=1))
    result = concatenate(parts, axis=1)
    return result if increasing else flip(result, 1)


__all__ = ["from_dlpack", "fromfunction", "fromiter", "geomspace", "logspace", "vander"]
