"""Element-wise tests and conversions: ``isposinf``, ``isneginf``, ``asarray_chkfinite``,
``sort_complex`` and ``array_equiv``.

``asarray_chkfinite`` checks each chunk when it is computed, so a NaN or an infinity
raises NumPy's ``ValueError`` at execute time, not at the call: the values are not known
before.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import asarray
from jupyter_mars.tensor.elemwise import broadcast_shapes, elemwise
from jupyter_mars.tensor.reduction import all as all_
from jupyter_mars.tensor.sorting import sort
from jupyter_mars.tensor.ufuncs import equal, isinf, logical_and, signbit  # type: ignore[attr-defined]


def _real_only(x: Tensor) -> None:
    if x.dtype.kind == "c":
        raise TypeError(
            f"This operation is not supported for {x.dtype} values because it would be ambiguous."
        )


def isposinf(x: Any, out: Any = None) -> Tensor:
    """Where ``x`` is positive infinity."""
    t = asarray(x)
    _real_only(t)
    result: Tensor = logical_and(isinf(t), ~signbit(t), out=out)
    return result


def isneginf(x: Any, out: Any = None) -> Tensor:
    """Where ``x`` is negative infinity."""
    t = asarray(x)
    _real_only(t)
    result: Tensor = logical_and(isinf(t), signbit(t), out=out)
    return result


def check_finite(block: Any) -> Any:
    if not np.isfinite(block).all():
        raise ValueError("array must not contain infs or NaNs")
    return block


def asarray_chkfinite(a: Any, dtype: Any = None, order: Any = None) -> Tensor:
    """``a`` as a tensor, each chunk checked for NaN and infinity when computed."""
    t = asarray(a, dtype=dtype)
    if t.dtype.kind not in "fc":
        return t  # integers and booleans are always finite
    return elemwise(check_finite, t, dtype=t.dtype, name="asarray_chkfinite")


def _complex_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    """NumPy's choice for ``sort_complex``: small integers fit complex64, long doubles
    clongdouble, everything else complex128."""
    if dtype.kind == "c":
        return dtype
    if dtype.char in "bhBH":
        return np.dtype(np.complex64)
    if dtype.char == "g":
        return np.dtype(np.clongdouble)
    return np.dtype(np.complex128)


def sort_complex(a: Any) -> Tensor:
    """``a`` sorted along its last axis, real part first, as complex numbers."""
    t = asarray(a)
    result: Tensor = sort(t).astype(_complex_dtype(t.dtype), copy=False)
    return result


def array_equiv(a1: Any, a2: Any) -> Any:
    """Whether the two inputs broadcast to one shape and are equal there: ``False`` at
    once when the shapes do not broadcast, otherwise a lazy 0-d boolean tensor."""
    x, y = asarray(a1), asarray(a2)
    try:
        broadcast_shapes(x.shape, y.shape)
    except ValueError:
        return False
    return all_(equal(x, y))


__all__ = ["array_equiv", "asarray_chkfinite", "isneginf", "isposinf", "sort_complex"]
