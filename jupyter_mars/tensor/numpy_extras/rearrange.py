"""``rot90`` (flips and a transpose), ``resize`` (the flattened input repeated by
joining copies of it, then cut and reshaped: no gather of elements) and ``trim_zeros``
(a mask of the slabs to keep from running counts of non-zero slabs)."""

from __future__ import annotations

import math
from typing import Any

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.creation import zeros
from jupyter_mars.tensor.datasource import asarray
from jupyter_mars.tensor.indexing.take import compress
from jupyter_mars.tensor.reduction import any as any_
from jupyter_mars.tensor.reduction import cumsum
from jupyter_mars.tensor.shape import concatenate, flip, ravel, reshape, transpose
from jupyter_mars.tensor.shape.common import (
    int_arg,
    int_tuple,
    is_unknown,
    normalize_axis_tuple,
    wrap_node,
)
from jupyter_mars.tensor.ufuncs import greater, logical_and, not_equal  # type: ignore[attr-defined]


def rot90(m: Any, k: Any = 1, axes: Any = (0, 1)) -> Tensor:
    """``m`` rotated by 90 degrees ``k`` times, from the first of ``axes`` to the second."""
    t = asarray(m)
    pair = tuple(axes)
    if len(pair) != 2:
        raise ValueError("len(axes) must be 2.")
    a0, a1 = (int_arg(a, "axes") for a in pair)
    if a0 == a1 or abs(a0 - a1) == t.ndim:
        raise ValueError("Axes must be different.")
    if not (-t.ndim <= a0 < t.ndim and -t.ndim <= a1 < t.ndim):
        raise ValueError(f"Axes={pair} out of range for array of ndim={t.ndim}.")
    turns = int_arg(k, "k") % 4
    if turns == 0:
        return wrap_node(t)
    if turns == 2:
        return flip(flip(t, a0), a1)
    order = list(range(t.ndim))
    order[a0 % t.ndim], order[a1 % t.ndim] = order[a1 % t.ndim], order[a0 % t.ndim]
    if turns == 1:
        return transpose(flip(t, a1), order)
    return flip(transpose(t, order), a1)


def resize(a: Any, new_shape: Any) -> Tensor:
    """A tensor of ``new_shape`` filled with ``a``'s elements in order, repeated as needed."""
    t = asarray(a)
    shape = int_tuple(new_shape, "new_shape")
    if any(n < 0 for n in shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    if is_unknown(t.size):
        raise ValueError("resize() needs the input's size; execute it first")
    total = math.prod(shape)
    if t.size == 0 or total == 0:
        return zeros(shape, dtype=t.dtype)
    flat = ravel(t)
    copies = -(-total // t.size)
    joined = concatenate([flat] * copies) if copies > 1 else flat
    return reshape(joined[:total], shape)


def trim_zeros(filt: Any, trim: str = "fb", axis: Any = None) -> Tensor:
    """``filt`` without its leading (``'f'``) and trailing (``'b'``) zeros along ``axis``
    (every axis when None): a slab is kept unless it and all before it (or after it) are
    zero. The result's lengths are known once executed."""
    letters = str(trim).lower()
    if letters not in ("fb", "bf", "f", "b"):
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    t = asarray(filt)
    axes = range(t.ndim) if axis is None else normalize_axis_tuple(axis, t.ndim)
    for ax in axes:
        others = tuple(d for d in range(t.ndim) if d != ax)
        nonzero = any_(not_equal(t, 0), axis=others) if others else not_equal(t, 0)
        from_front = greater(cumsum(nonzero), 0)
        from_back = flip(greater(cumsum(flip(nonzero, 0)), 0), 0)
        if letters == "f":
            keep = from_front
        elif letters == "b":
            keep = from_back
        else:
            keep = logical_and(from_front, from_back)
        t = compress(keep, t, axis=ax)
    return t


__all__ = ["resize", "rot90", "trim_zeros"]
