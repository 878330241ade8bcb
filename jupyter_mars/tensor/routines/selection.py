"""Routines that pick or place elements by position: ``choose``, ``unravel_index``,
``indices``, ``diagflat`` and ``fill_diagonal``.

``choose`` and ``unravel_index`` work chunk by chunk (NumPy's function on each block;
an index out of range is only seen in the data, so it raises at execute, as NumPy
would raise at its call). ``fill_diagonal`` assigns in place, as NumPy does: the tensor
is rebound to a new node, as ``x[index] = value`` rebinds it.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from jupyter_mars.session import ExecutableTuple
from jupyter_mars.tensor.core import Tensor, is_scalar
from jupyter_mars.tensor.creation import arange, diag
from jupyter_mars.tensor.datasource import astensor, tensor
from jupyter_mars.tensor.elemwise import elemwise
from jupyter_mars.tensor.gpu_keyword import check_gpu
from jupyter_mars.tensor.shape import broadcast_to, ravel, reshape, stack
from jupyter_mars.tensor.shape.common import shape_param

_CHOOSE_MODES = ("raise", "wrap", "clip")


def _choose(mode: str, a: Any, *choices: Any) -> Any:
    return np.choose(a, choices, mode=mode)  # type: ignore[call-overload]


def choose(a: Any, choices: Any, out: Any = None, mode: str = "raise") -> Tensor:
    """Lazy ``numpy.choose``: ``choices[a[i]][i]`` for every (broadcast) position ``i``."""
    if out is not None:
        raise TypeError("choose(): the 'out' argument is not supported on tensors")
    if mode not in _CHOOSE_MODES:
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    index = astensor(a)
    if isinstance(choices, Tensor):
        options = [choices[i] for i in range(len(choices))]
    else:
        options = [c if isinstance(c, Tensor) else np.asarray(c) for c in choices]
    if not options:
        raise ValueError("0-length sequence.")
    # NumPy's dtype and index-cast checks, on one element of each operand
    meta = np.choose(
        np.zeros(1, dtype=index.dtype),
        [np.zeros(1, dtype=c.dtype) for c in options],
        mode=mode,  # type: ignore[call-overload]
    )
    return elemwise(_choose, mode, index, *options, name="choose", dtype=meta.dtype)


def _unravel(dims: tuple[int, ...], order: str, i: int, indices: Any) -> Any:
    return np.unravel_index(indices, dims, order=order)[i]  # type: ignore[call-overload]


def unravel_index(indices: Any, shape: Any = None, order: str = "C", dims: Any = None) -> Any:
    """Lazy ``numpy.unravel_index``: a tuple of index tensors, one per dimension."""
    if shape is None:
        shape = dims  # Mars's and older NumPy's name
    if shape is None:
        raise TypeError("unravel_index() missing required argument 'shape'")
    dimensions = shape_param(shape)
    if any(n < 0 for n in dimensions):
        raise ValueError("dimensions must be non-negative")
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    x = astensor(indices)
    # the index dtype check, on no elements
    np.unravel_index(np.zeros(0, dtype=x.dtype), dimensions, order=order)  # type: ignore[call-overload]
    return ExecutableTuple(
        elemwise(
            functools.partial(_unravel, dimensions, order, i),
            x,
            name="unravel_index",
            dtype=np.intp,
        )
        for i in range(len(dimensions))
    )


def indices(
    dimensions: Any,
    dtype: Any = int,
    sparse: bool = False,
    chunk_size: Any = None,
    gpu: Any = None,
) -> Any:
    """Lazy ``numpy.indices``: the index of every position of a grid, per axis;
    ``gpu=True``: made on a GPU."""
    on_gpu = check_gpu(gpu, "indices")
    dims = shape_param(dimensions)
    if any(n < 0 for n in dims):
        raise ValueError(f"negative dimensions are not allowed, got {dims}")
    ndim = len(dims)
    axes = []
    for i, n in enumerate(dims):
        r = arange(n, dtype=dtype, chunk_size=chunk_size, gpu=on_gpu)
        axes.append(reshape(r, (1,) * i + (n,) + (1,) * (ndim - i - 1)))
    if sparse:
        return tuple(axes)
    if not axes:
        return tensor(np.empty((0,), dtype=dtype), gpu=on_gpu)
    return stack([broadcast_to(t, dims) for t in axes])


def diagflat(v: Any, k: Any = 0, chunk_size: Any = None, gpu: Any = None) -> Tensor:
    """Lazy ``numpy.diagflat``: a 2-D tensor with the flattened ``v`` on diagonal ``k``;
    ``gpu=True``: made on a GPU."""
    check_gpu(gpu, "diagflat")
    return diag(ravel(astensor(v)), k=k, chunk_size=chunk_size, gpu=gpu)


def _diagonal_positions(shape: tuple[int, ...], wrap: bool) -> np.ndarray[Any, Any]:
    """Flat positions NumPy's ``fill_diagonal`` writes to."""
    if len(shape) < 2:
        raise ValueError("array must be at least 2-d")
    size = math.prod(shape)
    if len(shape) == 2:
        step = shape[1] + 1
        end = size if wrap else shape[1] * shape[1]
    else:
        if len(set(shape)) != 1:
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + int(np.cumprod(shape[:-1]).sum())
        end = size
    return np.arange(0, min(end, size), step)


def fill_diagonal(a: Any, val: Any, wrap: bool = False) -> None:
    """``numpy.fill_diagonal`` on a tensor, in place; ``val`` repeats to fill the diagonal."""
    if isinstance(a, np.ndarray):  # NumPy's call, dispatched here by a tensor ``val``
        np.fill_diagonal(a, np.asarray(val), wrap=wrap)
        return
    if not isinstance(a, Tensor):
        raise TypeError(f"fill_diagonal(): a must be a tensor, not {type(a).__name__}")
    if any(isinstance(n, float) and math.isnan(n) for n in a.shape):
        raise ValueError("fill_diagonal(): the shape is unknown; execute the tensor first")
    shape = tuple(int(n) for n in a.shape)
    flat = _diagonal_positions(shape, bool(wrap))
    if flat.size == 0:
        return
    where = np.unravel_index(flat, shape)
    if is_scalar(val):
        a[where] = val
        return
    values = ravel(astensor(val))
    if values.size == 0:
        return  # NumPy writes nothing when there is nothing to repeat
    count = int(values.size)
    a[where] = values if count == flat.size else values[np.arange(flat.size) % count]


__all__ = ["choose", "diagflat", "fill_diagonal", "indices", "unravel_index"]
