"""``packbits`` and ``unpackbits``: NumPy's own functions on blocks whose packed axis is
whole (the other axes keep their chunks), so bytes never straddle two chunks."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import asarray
from jupyter_mars.tensor.shape import ravel
from jupyter_mars.tensor.shape.common import check_axis, int_arg, is_unknown
from jupyter_mars.tensor.statistics.common import apply_whole_axes


def _prepare(a: Any, axis: Any, bitorder: str, name: str) -> tuple[Tensor, int]:
    if bitorder not in ("big", "little"):
        raise ValueError("'order' must be either 'little' or 'big'")
    t = asarray(a)
    if axis is None:
        t, ax = ravel(t), 0
    else:
        ax = check_axis(axis, t.ndim)
    if is_unknown(t.shape[ax]):
        raise ValueError(f"{name}() needs the length of the axis; execute the input first")
    return t, ax


def _apply(t: Tensor, ax: int, kernel: Any, length: int, name: str) -> Tensor:
    out_axes = tuple(None if d == ax else d for d in range(t.ndim))
    shape = tuple(length if d == ax else n for d, n in enumerate(t.shape))
    return apply_whole_axes(t, kernel, (ax,), out_axes, shape, np.uint8, name)


def packbits(a: Any, axis: Any = None, bitorder: str = "big") -> Tensor:
    """Each group of eight elements along ``axis`` (true or not) as the bits of a byte."""
    t, ax = _prepare(a, axis, bitorder, "packbits")
    if t.dtype.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    kernel = functools.partial(np.packbits, axis=ax, bitorder=bitorder)
    return _apply(t, ax, kernel, -(-int(t.shape[ax]) // 8), "packbits")


def unpackbits(a: Any, axis: Any = None, count: Any = None, bitorder: str = "big") -> Tensor:
    """The bits of each byte along ``axis`` as elements (``count`` of them in all)."""
    t, ax = _prepare(a, axis, bitorder, "unpackbits")
    if t.dtype != np.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    bits = 8 * int(t.shape[ax])
    if count is None:
        length = bits
    else:
        wanted = int_arg(count, "count")
        if wanted < 0 and -wanted > bits:
            raise ValueError("-count larger than number of elements")
        length = wanted if wanted >= 0 else bits + wanted
    kernel = functools.partial(np.unpackbits, axis=ax, count=count, bitorder=bitorder)
    return _apply(t, ax, kernel, length, "unpackbits")


__all__ = ["packbits", "unpackbits"]
