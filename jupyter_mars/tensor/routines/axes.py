"""``hsplit``, ``vsplit``, ``dsplit`` (``split`` along a fixed axis) and ``rollaxis``
(a ``transpose``), with NumPy's checks at the call."""

from __future__ import annotations

from typing import Any

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.shape.common import AxisError, check_axis, int_arg
from jupyter_mars.tensor.shape.split import split
from jupyter_mars.tensor.shape.transpose import transpose


def hsplit(ary: Any, indices_or_sections: Any) -> list[Tensor]:
    """Lazy ``numpy.hsplit``: split along the second axis (the first of a 1-d tensor)."""
    x = astensor(ary)
    if x.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(x, indices_or_sections, axis=1 if x.ndim > 1 else 0)


def vsplit(ary: Any, indices_or_sections: Any) -> list[Tensor]:
    """Lazy ``numpy.vsplit``: split along the first axis of a tensor of 2 or more dimensions."""
    x = astensor(ary)
    if x.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(x, indices_or_sections, axis=0)


def dsplit(ary: Any, indices_or_sections: Any) -> list[Tensor]:
    """Lazy ``numpy.dsplit``: split along the third axis of a tensor of 3 or more dimensions."""
    x = astensor(ary)
    if x.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(x, indices_or_sections, axis=2)


def rollaxis(a: Any, axis: Any, start: Any = 0) -> Tensor:
    """Lazy ``numpy.rollaxis``: move ``axis`` to lie before position ``start``."""
    x = astensor(a)
    n = x.ndim
    ax = check_axis(axis, n)
    st = int_arg(start, "start")
    if st < 0:
        st += n
    if not 0 <= st < n + 1:
        raise AxisError(f"'start' arg requires {-n} <= start < {n + 1}, but {start} was passed in")
    if ax < st:
        st -= 1  # the axis is removed before it is put back
    order = [i for i in range(n) if i != ax]
    order.insert(st, ax)
    return transpose(x, order)


__all__ = ["dsplit", "hsplit", "rollaxis", "vsplit"]
