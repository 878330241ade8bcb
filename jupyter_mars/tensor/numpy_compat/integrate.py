"""``trapezoid`` (NumPy 2's name) and ``trapz`` (Mars's and NumPy 1's): integration by
the trapezoidal rule along one axis, built from slices, a difference and a sum."""

from __future__ import annotations

from typing import Any

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.reduction import sum as tensor_sum
from jupyter_mars.tensor.routines import diff
from jupyter_mars.tensor.shape import reshape
from jupyter_mars.tensor.shape.common import check_axis


def trapezoid(y: Any, x: Any = None, dx: Any = 1.0, axis: int = -1) -> Tensor:
    """Lazy ``numpy.trapezoid``: the integral of ``y`` along ``axis`` by the trapezoidal
    rule, with sample points ``x`` (spaced ``dx`` apart when not given)."""
    values = astensor(y)
    if values.ndim == 0:
        # NumPy indexes the (missing) axis and fails the same way
        raise IndexError("list assignment index out of range")
    ax = check_axis(axis, values.ndim)
    if x is None:
        spacing: Any = dx
    else:
        points = astensor(x)
        spacing = diff(points, axis=-1 if points.ndim == 1 else ax)
        if points.ndim == 1:
            # the spacings of a 1-d ``x`` lie along ``axis`` of ``y``
            shape = [1] * values.ndim
            shape[ax] = spacing.shape[0]
            spacing = reshape(spacing, tuple(shape))
    head = (slice(None),) * ax
    upper = values[(*head, slice(1, None))]
    lower = values[(*head, slice(None, -1))]
    result: Tensor = tensor_sum(spacing * (upper + lower) / 2.0, axis=ax)
    return result


def trapz(y: Any, x: Any = None, dx: Any = 1.0, axis: int = -1) -> Tensor:
    """Lazy ``numpy.trapz`` (Mars's name): the same as ``trapezoid``."""
    return trapezoid(y, x=x, dx=dx, axis=axis)


__all__ = ["trapezoid", "trapz"]
