"""Argument checks shared by the reductions, with NumPy's exception types and messages."""

from __future__ import annotations

import numbers
import operator
from typing import Any

import numpy as np

from jupyter_mars.tensor.shape.common import check_axis


class _NoValueType:
    """Marks an argument that was not given (``initial=`` can legitimately be None)."""

    def __repr__(self) -> str:
        return "<no value>"


NOVALUE: Any = _NoValueType()
_NP_NOVALUE = getattr(np, "_NoValue", NOVALUE)


def given(value: Any) -> bool:
    """Whether an optional argument was given (ours or NumPy's no-value marker counts as not)."""
    return value is not NOVALUE and value is not _NP_NOVALUE


def normalize_axis(axis: Any, ndim: int, argname: str = "axis") -> tuple[int, ...]:
    """Axes as sorted non-negative ints; raises numpy's AxisError for an axis out of range."""
    if axis is None:
        return tuple(range(ndim))
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    out = [check_axis(a, ndim, argname, expected="an int or a tuple of ints") for a in axes]
    if len(set(out)) != len(out):
        raise ValueError(f"duplicate value in {argname}: {axis!r}")
    return tuple(sorted(out))


def single_axis(axis: Any, ndim: int, name: str) -> int | None:
    """``axis`` of a function that takes one axis or None (``argmax``, ``cumsum``) as a
    non-negative int; a 0-d input counts as 1-d, as in NumPy. NumPy's errors otherwise."""
    if axis is None:
        return None
    return check_axis(axis, max(ndim, 1), expected=f"an int or None in {name}()")


def check_keepdims(keepdims: Any) -> bool:
    if isinstance(keepdims, (bool, np.bool_)):
        return bool(keepdims)
    try:
        return bool(operator.index(keepdims))
    except TypeError:
        raise TypeError(f"keepdims must be True or False, got {keepdims!r}") from None


def check_ddof(ddof: Any, correction: Any, name: str) -> Any:
    """``ddof`` (or its alias ``correction``, never both) as a real number."""
    if given(correction):
        if ddof != 0:
            raise ValueError(f"{name}(): ddof and correction can't be provided simultaneously.")
        ddof = correction
    if not isinstance(ddof, numbers.Real):
        raise TypeError(f"{name}(): ddof must be a real number, got {ddof!r}")
    return ddof


def unsupported(name: str, out: Any = None, where: Any = NOVALUE, mean: Any = NOVALUE) -> None:
    """TypeError for NumPy arguments tensors do not support (``out``, ``where``, ``mean``)."""
    if out is not None:
        raise TypeError(f"{name}(): the 'out' argument is not supported on tensors")
    if given(where) and where is not True:
        raise TypeError(f"{name}(): the 'where' argument is not supported on tensors")
    if given(mean):
        raise TypeError(f"{name}(): the 'mean' argument is not supported on tensors")
