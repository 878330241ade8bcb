"""NumPy 2's new names for functions ``mt`` has (``concat``, ``permute_dims``,
``matrix_transpose``, ``unstack``), and conversions that have nothing to do on a tensor
beyond ``asarray`` (``asanyarray``, ``require``)."""

from __future__ import annotations

from typing import Any

from jupyter_mars.session import ExecutableTuple
from jupyter_mars.tensor.datasource import asarray
from jupyter_mars.tensor.shape import concatenate, moveaxis, swapaxes, transpose
from jupyter_mars.tensor.shape.common import check_axis

concat = concatenate


def permute_dims(a: Any, axes: Any = None) -> Any:
    """``numpy.permute_dims``: ``transpose`` under the array API's name."""
    return transpose(a, axes)


def matrix_transpose(x: Any) -> Any:
    """The last two axes swapped, for a stack of matrices."""
    t = asarray(x)
    if t.ndim < 2:
        raise ValueError(f"Input array must be at least 2-dimensional, but it is {t.ndim}")
    return swapaxes(t, -1, -2)


def unstack(x: Any, *, axis: Any = 0) -> ExecutableTuple:
    """The slices of ``x`` along ``axis``, as a tuple of tensors."""
    t = asarray(x)
    if t.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    moved = moveaxis(t, check_axis(axis, t.ndim), 0)
    return ExecutableTuple(moved[i] for i in range(len(moved)))


def asanyarray(a: Any, dtype: Any = None, order: Any = None, *, like: Any = None) -> Any:
    """``asarray``: a tensor has no subclasses to keep."""
    return asarray(a, dtype=dtype)


# NumPy's requirement flags, each under all of its spellings
_REQUIREMENTS = {
    "C": "C",
    "C_CONTIGUOUS": "C",
    "CONTIGUOUS": "C",
    "F": "F",
    "F_CONTIGUOUS": "F",
    "FORTRAN": "F",
    "A": "A",
    "ALIGNED": "A",
    "W": "W",
    "WRITEABLE": "W",
    "O": "O",
    "OWNDATA": "O",
    "E": "E",
    "ENSUREARRAY": "E",
}


def require(a: Any, dtype: Any = None, requirements: Any = None, *, like: Any = None) -> Any:
    """``a`` as a tensor of ``dtype``: every memory requirement already holds, since
    chunks are made contiguous and owned; the flags are checked as NumPy checks them."""
    if requirements is not None:
        names = [requirements] if isinstance(requirements, str) else list(requirements)
        flags = {_REQUIREMENTS[str(name).upper()] for name in names}
        if {"C", "F"} <= flags:
            raise ValueError('Cannot specify both "C" and "F" order')
    return asarray(a, dtype=dtype)


__all__ = [
    "asanyarray",
    "concat",
    "matrix_transpose",
    "permute_dims",
    "require",
    "unstack",
]
