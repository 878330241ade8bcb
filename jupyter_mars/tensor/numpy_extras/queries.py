"""Questions answered from a tensor's shape and dtype alone, without computing it:
``size``, ``iscomplexobj``, ``isrealobj``, ``common_type``, ``broadcast_shapes``."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.elemwise import broadcast_shapes as _broadcast
from jupyter_mars.tensor.shape.common import check_axis


def _meta(x: Any) -> Any:
    """An empty array with a tensor's dtype, for NumPy's own dtype rules."""
    return np.empty(0, dtype=x.dtype) if isinstance(x, Tensor) else x


def size(a: Any, axis: Any = None) -> Any:
    """The number of elements (along ``axis``); ``nan`` while a length depends on data."""
    if not isinstance(a, Tensor):
        return np.size(a, axis)
    if axis is None:
        return a.size
    if isinstance(axis, tuple):
        return math.prod(a.shape[check_axis(ax, a.ndim)] for ax in axis)
    return a.shape[check_axis(axis, a.ndim)]


def iscomplexobj(x: Any) -> bool:
    """Whether ``x``'s dtype is complex (whatever its values)."""
    return bool(np.iscomplexobj(_meta(x)))


def isrealobj(x: Any) -> bool:
    """Whether ``x``'s dtype is not complex (whatever its values)."""
    return not iscomplexobj(x)


def common_type(*arrays: Any) -> Any:
    """The inexact scalar type that all inputs convert to, as ``numpy.common_type``."""
    return np.common_type(*(_meta(a) for a in arrays))


def broadcast_shapes(*args: Any) -> tuple[Any, ...]:
    """The shape that arrays of the given shapes broadcast to (``nan`` matches any length)."""
    shapes = [(s,) if isinstance(s, (int, np.integer)) else tuple(s) for s in args]
    return _broadcast(*shapes)


__all__ = ["broadcast_shapes", "common_type", "iscomplexobj", "isrealobj", "size"]
