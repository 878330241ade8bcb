"""Diagonals and triangles: ``diagonal``, ``trace``, and the index generators
``diag_indices(_from)``, ``tril_indices(_from)``, ``triu_indices(_from)``, ``mask_indices``.

A diagonal is read with two integer index tensors on the last two axes, so each chunk
of the result gathers from the chunks it crosses. The triangle index generators know
their length from ``n``, ``m`` and ``k``: the per-row counts are a vector of ``n``
numbers, and the indices are ranges repeated by those counts.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jupyter_mars.session import ExecutableTuple
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.creation import arange, ones
from jupyter_mars.tensor.datasource import asarray
from jupyter_mars.tensor.indexing.nonzero import nonzero
from jupyter_mars.tensor.reduction import sum as sum_
from jupyter_mars.tensor.shape import moveaxis, repeat
from jupyter_mars.tensor.shape.common import check_axis, int_arg, is_unknown


def diagonal(a: Any, offset: Any = 0, axis1: Any = 0, axis2: Any = 1) -> Tensor:
    """The ``offset`` diagonal of the planes spanned by ``axis1`` and ``axis2``; those axes
    are removed and the diagonal becomes the last one, as in NumPy."""
    x = asarray(a)
    if x.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    k = int_arg(offset, "offset")
    ax1 = check_axis(axis1, x.ndim, "axis1")
    ax2 = check_axis(axis2, x.ndim, "axis2")
    if ax1 == ax2:
        raise ValueError("axis1 and axis2 cannot be the same")
    rows, cols = x.shape[ax1], x.shape[ax2]
    if is_unknown(rows) or is_unknown(cols):
        raise ValueError("diagonal() needs the lengths of axis1 and axis2; execute a first")
    n = max(0, min(rows - max(0, -k), cols - max(0, k)))
    planes = moveaxis(x, (ax1, ax2), (-2, -1))
    i = arange(n)
    result: Tensor = planes[..., i + max(0, -k), i + max(0, k)]
    return result


def trace(
    a: Any, offset: Any = 0, axis1: Any = 0, axis2: Any = 1, dtype: Any = None, out: Any = None
) -> Tensor:
    """The sum along a diagonal (see ``diagonal``), with ``sum``'s dtype rules."""
    return sum_(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype, out=out)


def diag_indices(n: Any, ndim: Any = 2) -> ExecutableTuple:
    """The indices of the main diagonal of an ``(n,) * ndim`` array."""
    i = arange(int_arg(n, "n"))
    return ExecutableTuple((i,) * int_arg(ndim, "ndim"))


def diag_indices_from(arr: Any) -> ExecutableTuple:
    """``diag_indices`` for ``arr``, whose axes must all have the same length."""
    x = asarray(arr)
    if x.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(x.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(x.shape[0], x.ndim)


def _triangle(n: Any, k: Any, m: Any, lower: bool) -> ExecutableTuple:
    rows_n = int_arg(n, "n")
    cols_n = rows_n if m is None else int_arg(m, "m")
    shift = int_arg(k, "k")
    row = np.arange(max(rows_n, 0))
    # the first and one-past-last column of each row's part of the triangle
    if lower:
        start = np.zeros_like(row)
        stop = np.clip(row + shift + 1, 0, max(cols_n, 0))
    else:
        start = np.clip(row + shift, 0, max(cols_n, 0))
        stop = np.full_like(row, max(cols_n, 0))
    counts = np.maximum(stop - start, 0)
    rows = repeat(arange(len(row)), counts)
    begins = np.cumsum(counts) - counts  # where each row's run starts in the output
    cols = arange(int(counts.sum())) - repeat(asarray(begins - start), counts)
    return ExecutableTuple((rows, cols))


def tril_indices(n: Any, k: Any = 0, m: Any = None) -> ExecutableTuple:
    """Row and column indices of the lower triangle of an ``(n, m)`` array."""
    return _triangle(n, k, m, lower=True)


def triu_indices(n: Any, k: Any = 0, m: Any = None) -> ExecutableTuple:
    """Row and column indices of the upper triangle of an ``(n, m)`` array."""
    return _triangle(n, k, m, lower=False)


def _square_2d(arr: Any) -> Tensor:
    x = asarray(arr)
    if x.ndim != 2:
        raise ValueError("input array must be 2-d")
    return x


def tril_indices_from(arr: Any, k: Any = 0) -> ExecutableTuple:
    """``tril_indices`` for the shape of the 2-d ``arr``."""
    x = _square_2d(arr)
    return tril_indices(x.shape[0], k, x.shape[1])


def triu_indices_from(arr: Any, k: Any = 0) -> ExecutableTuple:
    """``triu_indices`` for the shape of the 2-d ``arr``."""
    x = _square_2d(arr)
    return triu_indices(x.shape[0], k, x.shape[1])


def mask_indices(n: Any, mask_func: Any, k: Any = 0) -> Any:
    """The indices where ``mask_func(ones((n, n)), k)`` is non-zero; ``mask_func`` gets a
    tensor (NumPy's ``triu``/``tril`` dispatch to ``mt``'s), and the lengths are known
    once executed."""
    size = int_arg(n, "n")
    return nonzero(mask_func(ones((size, size), dtype=int), k) != 0)


__all__ = [
    "diag_indices",
    "diag_indices_from",
    "diagonal",
    "mask_indices",
    "tril_indices",
    "tril_indices_from",
    "trace",
    "triu_indices",
    "triu_indices_from",
]
