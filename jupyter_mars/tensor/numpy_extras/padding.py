"""``pad``: NumPy's padding modes, one axis after another as NumPy pads them (so the
corners come out the same).

- ``edge``, ``wrap``, ``reflect`` and ``symmetric`` map each output position along the
  axis to an input position (clipped, periodic with period ``n``, ``2n - 2`` or ``2n``)
  and ``take`` those positions; with ``reflect_type='odd'`` NumPy's own ``pad`` runs on
  blocks whose padded axis is whole.
- ``constant``/``empty``, ``linear_ramp`` and the statistics (``maximum``, ``minimum``,
  ``mean``, ``median``) build the two borders from the edge slabs and join them to the
  tensor.
- A function as ``mode`` is called by NumPy's ``apply_along_axis`` on blocks whose padded
  axis is whole, after padding with zeros, as NumPy does.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.creation import arange, full
from jupyter_mars.tensor.datasource import asarray
from jupyter_mars.tensor.indexing.take import take
from jupyter_mars.tensor.reduction import max as max_
from jupyter_mars.tensor.reduction import mean
from jupyter_mars.tensor.reduction import min as min_
from jupyter_mars.tensor.shape import broadcast_to, concatenate, flip, reshape
from jupyter_mars.tensor.shape.common import is_unknown
from jupyter_mars.tensor.statistics import median
from jupyter_mars.tensor.statistics.common import apply_whole_axes
from jupyter_mars.tensor.ufuncs import floor, rint  # type: ignore[attr-defined]

_KEYWORDS = {
    "constant": {"constant_values"},
    "empty": set(),
    "edge": set(),
    "wrap": set(),
    "reflect": {"reflect_type"},
    "symmetric": {"reflect_type"},
    "linear_ramp": {"end_values"},
    "maximum": {"stat_length"},
    "minimum": {"stat_length"},
    "mean": {"stat_length"},
    "median": {"stat_length"},
}
_STATS: dict[str, Callable[..., Tensor]] = {
    "maximum": max_,
    "minimum": min_,
    "mean": mean,
    "median": median,
}


def _pairs(value: Any, ndim: int, name: str, integral: bool = False) -> np.ndarray[Any, Any]:
    """``value`` as one (before, after) pair per axis, as NumPy broadcasts it."""
    array = np.asarray(value)
    if integral:
        if array.dtype.kind not in "iu":
            raise TypeError(f"`{name}` must be of integral type.")
        if (array < 0).any():
            raise ValueError("index can't contain negative values")
    return np.broadcast_to(array, (ndim, 2))


def _slab(x: Tensor, axis: int, start: int, stop: int) -> Tensor:
    index = (slice(None),) * axis + (slice(start, stop),)
    result: Tensor = x[index]
    return result


def _border_shape(x: Tensor, axis: int, width: int) -> tuple[Any, ...]:
    return tuple(width if d == axis else n for d, n in enumerate(x.shape))


def _source_positions(mode: str, n: int, before: int, after: int) -> np.ndarray[Any, Any]:
    """For each output position along the axis, the input position it copies."""
    i = np.arange(-before, n + after)
    if mode == "edge" or n == 1:
        return np.clip(i, 0, n - 1)
    if mode == "wrap":
        return i % n
    if mode == "symmetric":
        j = i % (2 * n)
        return np.where(j < n, j, 2 * n - 1 - j)
    period = 2 * n - 2  # reflect: the edge itself is not repeated
    j = i % period
    return np.where(j < n, j, period - j)


def pad_block(
    widths: tuple[tuple[int, int], ...], mode: str, kwargs: dict[str, Any], block: Any
) -> Any:
    return np.pad(block, widths, mode, **kwargs)  # type: ignore[call-overload]


def _odd_reflection(x: Tensor, axis: int, before: int, after: int, mode: str) -> Tensor:
    """``reflect_type='odd'`` (each mirrored value also turned about the edge, again at
    every repeat): NumPy's ``pad`` on blocks whose padded axis is whole."""
    widths = tuple((before, after) if d == axis else (0, 0) for d in range(x.ndim))
    kernel = functools.partial(pad_block, widths, mode, {"reflect_type": "odd"})
    shape = tuple(n + before + after if d == axis else n for d, n in enumerate(x.shape))
    out_axes = tuple(None if d == axis else d for d in range(x.ndim))
    return apply_whole_axes(x, kernel, (axis,), out_axes, shape, x.dtype, "pad")


def _ramp(edge: Tensor, end: Any, width: int, axis: int, dtype: np.dtype[Any]) -> Tensor:
    """NumPy's ``linspace(end, edge, width, endpoint=False)`` along ``axis``."""
    shape = tuple(-1 if d == axis else 1 for d in range(edge.ndim))
    steps = reshape(arange(width, dtype=float), shape)
    values = end + steps * ((edge - end) / width)
    if dtype.kind in "iu":
        values = floor(values)
    result: Tensor = values.astype(dtype)
    return result


def _round_if_integer(stat: Tensor, dtype: np.dtype[Any]) -> Tensor:
    """NumPy rounds a mean or median for an integer tensor, rather than truncating it."""
    rounded: Tensor = rint(stat) if dtype.kind in "iu" else stat
    result: Tensor = rounded.astype(dtype)
    return result


def _pad_axis(
    x: Tensor, axis: int, before: int, after: int, mode: str, kw: dict[str, Any], k: int
) -> Tensor:
    n = int(x.shape[axis])
    if mode in ("edge", "wrap", "reflect", "symmetric"):
        if kw.get("reflect_type", "even") == "odd" and mode in ("reflect", "symmetric"):
            return _odd_reflection(x, axis, before, after, mode)
        return take(x, _source_positions(mode, n, before, after), axis=axis)
    dtype = x.dtype
    if mode in ("constant", "empty"):
        values = kw["constant_values"][k] if mode == "constant" else (0, 0)
        left = full(_border_shape(x, axis, before), values[0], dtype=dtype)
        right = full(_border_shape(x, axis, after), values[1], dtype=dtype)
    elif mode == "linear_ramp":
        ends = kw["end_values"][k]
        left = _ramp(_slab(x, axis, 0, 1), ends[0], before, axis, dtype)
        right = flip(_ramp(_slab(x, axis, n - 1, n), ends[1], after, axis, dtype), axis)
    else:
        lengths = kw["stat_length"][k] if kw.get("stat_length") is not None else (n, n)
        stat = _STATS[mode]
        borders = []
        for width, length, at_start in ((before, lengths[0], True), (after, lengths[1], False)):
            span = min(int(length), n)
            if width and span == 0:
                raise ValueError("stat_length of 0 yields no value for padding")
            region = _slab(x, axis, 0, span) if at_start else _slab(x, axis, n - span, n)
            value = _round_if_integer(stat(region, axis=axis, keepdims=True), dtype)
            borders.append(broadcast_to(value, _border_shape(x, axis, width)))
        left, right = borders
    return concatenate([left, x, right], axis=axis)


def call_pad_function(
    function: Any, widths: tuple[int, int], axis: int, kwargs: dict[str, Any], block: Any
) -> Any:
    block = np.array(block)  # the function writes into each vector of its own copy
    np.apply_along_axis(function, axis, block, widths, axis, kwargs)
    return block


def pad(array: Any, pad_width: Any, mode: Any = "constant", **kwargs: Any) -> Tensor:
    """``array`` padded by ``pad_width`` elements before and after each axis."""
    x = asarray(array)
    widths = _pairs(pad_width, x.ndim, "pad_width", integral=True)
    if any(is_unknown(n) for n in x.shape):
        raise ValueError("pad() needs the input's lengths; execute it first")
    if callable(mode):
        padded = pad(x, widths, "constant")
        for axis in range(x.ndim):
            pair = (int(widths[axis][0]), int(widths[axis][1]))
            kernel = functools.partial(call_pad_function, mode, pair, axis, dict(kwargs))
            axes = tuple(range(x.ndim))
            padded = apply_whole_axes(padded, kernel, (axis,), axes, padded.shape, x.dtype, "pad")
        return padded
    if mode not in _KEYWORDS:
        raise ValueError(f"mode '{mode}' is not supported")
    unsupported = set(kwargs) - _KEYWORDS[mode]
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {unsupported}")
    kw = dict(kwargs)
    if mode == "constant":
        kw["constant_values"] = _pairs(kwargs.get("constant_values", 0), x.ndim, "constant_values")
    if mode == "linear_ramp":
        kw["end_values"] = _pairs(kwargs.get("end_values", 0), x.ndim, "end_values")
    if kwargs.get("stat_length") is not None:
        kw["stat_length"] = _pairs(kwargs["stat_length"], x.ndim, "stat_length", integral=True)
    if kwargs.get("reflect_type", "even") not in ("even", "odd"):
        raise ValueError("reflect_type must be 'even' or 'odd'")
    result = x
    for axis in range(x.ndim):
        before, after = int(widths[axis][0]), int(widths[axis][1])
        if not before and not after:
            continue
        if result.shape[axis] == 0 and mode not in ("constant", "empty"):
            raise ValueError(
                f"can't extend empty axis {axis} using modes other than 'constant' or 'empty'"
            )
        result = _pad_axis(result, axis, before, after, mode, kw, axis)
    return result


__all__ = ["pad"]
