"""``average``: a weighted mean, as ``sum(a * w) / sum(w)`` over the reduced axes.

Weights given only for the reduced axes are laid out to broadcast against ``a`` with the
shape module's ``transpose`` and ``expand_dims`` (one cheap task per weight chunk).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from jupyter_mars.engine.devices import array_module
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.elemwise import elemwise
from jupyter_mars.tensor.reduction.args import check_keepdims, normalize_axis
from jupyter_mars.tensor.reduction.basic import sum
from jupyter_mars.tensor.reduction.core import count_chunk, pairwise_reduce
from jupyter_mars.tensor.reduction.moments import mean
from jupyter_mars.tensor.shape import expand_dims, transpose


def _multiply_as(a: Any, b: Any, dtype: np.dtype[Any]) -> Any:
    with np.errstate(all="ignore"):
        return np.multiply(a, b, dtype=dtype)


def _divide_weighted(total: Any, weight: Any) -> Any:
    if np.any(weight == 0):
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    with np.errstate(all="ignore"):
        return total / weight


def _broadcast_like(like: Any, values: Any, dtype: np.dtype[Any]) -> Any:
    xp = array_module(like, values)
    shape = np.broadcast_shapes(np.shape(like), np.shape(values))
    return xp.broadcast_to(xp.asarray(values, dtype=dtype), shape).copy()


def _weights_like(w: Tensor, x: Tensor, axis: Any) -> Tensor:
    """NumPy's weight checks; weights of the reduced axes only are laid out to broadcast:
    their axes in the order of ``x``'s, length-1 axes elsewhere."""
    # imported here: the shape package may import from this one

    if tuple(w.shape) == tuple(x.shape):
        return w
    if axis is None:
        raise TypeError("Axis must be specified when shapes of a and weights differ.")
    raw = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    reduced = tuple(int(a) % x.ndim for a in raw)
    if tuple(w.shape) != tuple(x.shape[a] for a in reduced):
        raise ValueError(
            "Shape of weights must be consistent with shape of a along specified axis."
        )
    order = tuple(int(i) for i in np.argsort(reduced))
    others = tuple(a for a in range(x.ndim) if a not in reduced)
    return expand_dims(transpose(w, order), others)


def average(
    a: Any,
    axis: Any = None,
    weights: Any = None,
    returned: bool = False,
    *,
    keepdims: bool = False,
) -> Any:
    """Lazy, chunked ``numpy.average``. With ``returned=True`` a pair ``(average, sum of
    weights)``. Weights summing to zero raise ZeroDivisionError when executed."""
    x = astensor(a)
    axes = normalize_axis(axis, x.ndim)
    keep = check_keepdims(keepdims)
    if weights is None:
        avg = mean(x, axes, keepdims=keep)
        if not returned:
            return avg
        count = functools.partial(count_chunk, avg.dtype)
        return avg, pairwise_reduce(x, "count", count, np.add, axes, keep, avg.dtype)
    w = _weights_like(astensor(weights), x, axis)
    if x.dtype.kind in "biu":
        result_dtype = np.result_type(x.dtype, w.dtype, "f8")
    else:
        result_dtype = np.result_type(x.dtype, w.dtype)
    weighted = elemwise(_multiply_as, x, w, result_dtype, dtype=result_dtype, name="multiply")
    total = sum(weighted, axes, dtype=result_dtype, keepdims=keep)
    scale = sum(w, axes, dtype=result_dtype, keepdims=keep)
    avg = elemwise(_divide_weighted, total, scale, dtype=result_dtype, name="average")
    if not returned:
        return avg
    if tuple(scale.shape) != tuple(avg.shape):
        scale = elemwise(
            _broadcast_like, avg, scale, result_dtype, dtype=result_dtype, name="broadcast_to"
        )
    return avg, scale
