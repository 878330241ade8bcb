"""``gradient``: second-order central differences inside, first- or second-order
one-sided differences at the ends, along each axis, from slices of the tensor (each
chunk is computed beside its neighbours' edge elements).

Spacing is a scalar per axis or the coordinates along it; coordinates with one constant
step count as that scalar, as in NumPy. The formulas are NumPy's documented ones.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jupyter_mars.session import ExecutableTuple
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import asarray
from jupyter_mars.tensor.shape import concatenate
from jupyter_mars.tensor.shape.common import is_unknown, normalize_axis_tuple


def _spacings(varargs: tuple[Any, ...], f: Tensor, axes: tuple[int, ...]) -> list[Any]:
    """Per axis: a scalar step, or a 1-d NumPy array of coordinate differences."""
    if not varargs:
        return [1.0] * len(axes)
    if len(varargs) == 1 and np.ndim(varargs[0]) == 0:
        return [varargs[0]] * len(axes)
    if len(varargs) != len(axes):
        raise TypeError("invalid number of arguments")
    out: list[Any] = []
    for spacing, axis in zip(varargs, axes):
        coords = np.asarray(spacing)
        if coords.ndim == 0:
            out.append(spacing)
            continue
        if coords.ndim != 1:
            raise ValueError("distances must be either scalars or 1d")
        if len(coords) != f.shape[axis]:
            raise ValueError(
                "when 1d, distances must match the length of the corresponding dimension"
            )
        if coords.dtype.kind in "iu":
            coords = coords.astype(np.float64)
        steps = np.diff(coords)
        out.append(steps[0] if (steps == steps[0]).all() else steps)
    return out


def _along(f: Tensor, axis: int, start: int | None, stop: int | None) -> Tensor:
    index = (slice(None),) * axis + (slice(start, stop),)
    result: Tensor = f[index]
    return result


def _column(values: Any, axis: int, ndim: int) -> Any:
    """A 1-d array of per-position factors, shaped to broadcast along ``axis``."""
    return np.asarray(values).reshape(tuple(-1 if d == axis else 1 for d in range(ndim)))


def _axis_gradient(f: Tensor, axis: int, step: Any, edge_order: int) -> Tensor:
    n = int(f.shape[axis])
    ndim = f.ndim

    def part(start: int | None, stop: int | None) -> Tensor:
        return _along(f, axis, start, stop)

    uniform = np.ndim(step) == 0
    if uniform:
        inside = (part(2, None) - part(None, -2)) / (2.0 * step)
    else:
        dx1, dx2 = step[:-1], step[1:]
        a = -dx2 / (dx1 * (dx1 + dx2))
        b = (dx2 - dx1) / (dx1 * dx2)
        c = dx1 / (dx2 * (dx1 + dx2))
        inside = (
            _column(a, axis, ndim) * part(None, -2)
            + _column(b, axis, ndim) * part(1, -1)
            + _column(c, axis, ndim) * part(2, None)
        )
    if edge_order == 1:
        first_step = step if uniform else step[0]
        last_step = step if uniform else step[-1]
        first = (part(1, 2) - part(0, 1)) / first_step
        last = (part(n - 1, n) - part(n - 2, n - 1)) / last_step
    else:
        if uniform:
            a0, b0, c0 = -1.5 / step, 2.0 / step, -0.5 / step
            a1, b1, c1 = 0.5 / step, -2.0 / step, 1.5 / step
        else:
            d1, d2 = step[0], step[1]
            a0 = -(2.0 * d1 + d2) / (d1 * (d1 + d2))
            b0 = (d1 + d2) / (d1 * d2)
            c0 = -d1 / (d2 * (d1 + d2))
            d1, d2 = step[-2], step[-1]
            a1 = d2 / (d1 * (d1 + d2))
            b1 = -(d2 + d1) / (d1 * d2)
            c1 = (2.0 * d2 + d1) / (d2 * (d1 + d2))
        first = a0 * part(0, 1) + b0 * part(1, 2) + c0 * part(2, 3)
        last = a1 * part(n - 3, n - 2) + b1 * part(n - 2, n - 1) + c1 * part(n - 1, n)
    return concatenate([first, inside, last], axis=axis)


def gradient(f: Any, *varargs: Any, axis: Any = None, edge_order: Any = 1) -> Any:
    """The gradient of ``f`` along ``axis`` (every axis when None): one tensor per axis,
    a single tensor when one axis is asked for."""
    t = asarray(f)
    axes = tuple(range(t.ndim)) if axis is None else normalize_axis_tuple(axis, t.ndim)
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    if any(is_unknown(t.shape[a]) for a in axes):
        raise ValueError("gradient() needs the lengths of the axes; execute f first")
    steps = _spacings(varargs, t, axes)
    if t.dtype.kind in "iub":
        t = t.astype(np.float64)
    results = []
    for ax, step in zip(axes, steps):
        if t.shape[ax] < edge_order + 1:
            raise ValueError(
                "Shape of array too small to calculate a numerical gradient, "
                "at least (edge_order + 1) elements are required."
            )
        results.append(_axis_gradient(t, ax, step, int(edge_order)).astype(t.dtype, copy=False))
    return results[0] if len(results) == 1 else ExecutableTuple(results)


__all__ = ["gradient"]
