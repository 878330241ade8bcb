"""``rot90`` (flips and a transpose) and ``resize`` (the flattened input repeated by
joining copies of it, then cut and reshaped: no gather of elements)."""

from __future__ import annotations

import math
from typing import Any

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.creation import zeros
from jupyter_mars.tensor.datasource import asarray
from jupyter_mars.tensor.shape import concatenate, flip, ravel, reshape, transpose
from jupyter_mars.tensor.shape._common import _int_arg, _int_tuple, _isnan, _wrap


def rot90(m: Any, k: Any = 1, axes: Any = (0, 1)) -> Tensor:
    """``m`` rotated by 90 degrees ``k`` times, from the first of ``axes`` to the second."""
    t = asarray(m)
    pair = tuple(axes)
    if len(pair) != 2:
        raise ValueError("len(axes) must be 2.")
    a0, a1 = (_int_arg(a, "axes") for a in pair)
    if a0 == a1 or abs(a0 - a1) == t.ndim:
        raise ValueError("Axes must be different.")
    if not (-t.ndim <= a0 < t.ndim and -t.ndim <= a1 < t.ndim):
        raise ValueError(f"Axes={pair} out of range for array of ndim={t.ndim}.")
    turns = _int_arg(k, "k") % 4
    if turns == 0:
        return _wrap(t)
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
    shape = _int_tuple(new_shape, "new_shape")
    if any(n < 0 for n in shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    if _isnan(t.size):
        raise ValueError("resize() needs the input's size; execute it first")
    total = math.prod(shape)
    if t.size == 0 or total == 0:
        return zeros(shape, dtype=t.dtype)
    flat = ravel(t)
    copies = -(-total // t.size)
    joined = concatenate([flat] * copies) if copies > 1 else flat
    return reshape(joined[:total], shape)


__all__ = ["resize", "rot90"]
