"""Products NumPy has and Mars does not: ``vecdot``, ``matvec``, ``vecmat`` (NumPy 2's
generalised ufuncs, which ``np.vecdot(tensor, ...)`` reaches through ``__array_ufunc__``),
``cross``, ``kron``, and ``einsum_path``, which only needs the operands' shapes.

``matvec``/``vecmat`` are ``matmul`` with the vector as a one-column (one-row) matrix;
``kron`` is an outer product whose axes are interleaved and merged by a reshape; ``cross``
combines the components along the vector axis with element-wise products.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import asarray
from jupyter_mars.tensor.products import matmul
from jupyter_mars.tensor.reduction import sum as sum_
from jupyter_mars.tensor.routines import broadcast_arrays
from jupyter_mars.tensor.shape import expand_dims, moveaxis, reshape, stack
from jupyter_mars.tensor.shape.common import check_axis, is_unknown
from jupyter_mars.tensor.ufuncs import conjugate, multiply  # type: ignore[attr-defined]


def _gufunc_dtype(name: str, *metas: np.ndarray[Any, Any]) -> np.dtype[Any]:
    """NumPy's own dtype (and type errors) for a generalised ufunc, on tiny operands."""
    return np.asarray(getattr(np, name)(*metas)).dtype


def vecdot(x1: Any, x2: Any, /, *, axis: Any = -1, out: Any = None, dtype: Any = None) -> Tensor:
    """The dot product of vectors along ``axis``, the first operand conjugated."""
    a, b = asarray(x1), asarray(x2)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("vecdot: both operands must have at least one dimension")
    a = moveaxis(a, check_axis(axis, a.ndim), -1)
    b = moveaxis(b, check_axis(axis, b.ndim), -1)
    if a.shape[-1] != b.shape[-1] and not (is_unknown(a.shape[-1]) or is_unknown(b.shape[-1])):
        raise ValueError(
            f"vecdot: input operand 1 has a mismatch in its core dimension 0 "
            f"({b.shape[-1]} != {a.shape[-1]})"
        )
    kind = _gufunc_dtype("vecdot", np.ones(1, a.dtype), np.ones(1, b.dtype))
    if a.dtype.kind == "c":
        a = conjugate(a)
    return sum_(multiply(a, b), axis=-1, dtype=kind if dtype is None else dtype, out=out)


def matvec(x1: Any, x2: Any, /, **kwargs: Any) -> Tensor:
    """Matrices (last two axes of ``x1``) times vectors (last axis of ``x2``)."""
    a, b = asarray(x1), asarray(x2)
    if a.ndim < 2 or b.ndim < 1:
        raise ValueError("matvec: x1 needs two dimensions and x2 one at least")
    result: Tensor = matmul(a, expand_dims(b, -1), **kwargs)[..., 0]
    return result


def vecmat(x1: Any, x2: Any, /, **kwargs: Any) -> Tensor:
    """Conjugated vectors (last axis of ``x1``) times matrices (last two axes of ``x2``)."""
    a, b = asarray(x1), asarray(x2)
    if a.ndim < 1 or b.ndim < 2:
        raise ValueError("vecmat: x1 needs one dimension and x2 two at least")
    if a.dtype.kind == "c":
        a = conjugate(a)
    result: Tensor = matmul(expand_dims(a, -2), b, **kwargs)[..., 0, :]
    return result


def kron(a: Any, b: Any) -> Tensor:
    """The Kronecker product: blocks of ``b`` scaled by each element of ``a``."""
    x, y = asarray(a), asarray(b)
    ndim = max(x.ndim, y.ndim)
    x = reshape(x, (1,) * (ndim - x.ndim) + x.shape)
    y = reshape(y, (1,) * (ndim - y.ndim) + y.shape)
    if any(is_unknown(n) for n in (*x.shape, *y.shape)):
        raise ValueError("kron() needs the inputs' lengths; execute them first")
    # x's axes at even places, y's at odd ones: the product's axis pairs are then merged
    spread_x = reshape(x, tuple(n for length in x.shape for n in (length, 1)))
    spread_y = reshape(y, tuple(n for length in y.shape for n in (1, length)))
    product = multiply(spread_x, spread_y)
    return reshape(product, tuple(m * n for m, n in zip(x.shape, y.shape)))


def _components(v: Tensor, axis: Any, name: str) -> tuple[Tensor, Tensor, Tensor | None]:
    """The vector components along ``axis``; the third is None for 2-d vectors."""
    moved = moveaxis(v, check_axis(axis, v.ndim, name), -1)
    if moved.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    third = moved[..., 2] if moved.shape[-1] == 3 else None
    return moved[..., 0], moved[..., 1], third


def _times(p: Tensor | None, q: Tensor | None) -> Tensor | None:
    return None if p is None or q is None else multiply(p, q)


def _minus(p: Tensor | None, q: Tensor | None) -> Tensor:
    """``p - q`` where a missing (third, zero) component drops its term."""
    if q is None:
        return p  # type: ignore[return-value]
    if p is None:
        return -q  # type: ignore[no-any-return]
    return p - q  # type: ignore[no-any-return]


def cross(
    a: Any, b: Any, axisa: Any = -1, axisb: Any = -1, axisc: Any = -1, axis: Any = None
) -> Tensor:
    """The cross product of 2- or 3-component vectors along ``axisa``/``axisb``."""
    if axis is not None:
        axisa = axisb = axisc = axis
    x, y = asarray(a), asarray(b)
    if x.ndim == 0 or y.ndim == 0:
        raise ValueError("cross(): a and b must have at least one dimension")
    a0, a1, a2 = _components(x, axisa, "axisa")
    b0, b1, b2 = _components(y, axisb, "axisb")
    if a2 is None or b2 is None:
        warnings.warn(
            "Arrays of 2-dimensional vectors are deprecated. Use arrays of 3-dimensional "
            "vectors instead. (deprecated in NumPy 2.0)",
            DeprecationWarning,
            stacklevel=2,
        )
    dtype = np.result_type(x.dtype, y.dtype)
    third = multiply(a0, b1) - multiply(a1, b0)
    if a2 is None and b2 is None:
        return third.astype(dtype, copy=False)  # type: ignore[no-any-return]
    first = _minus(_times(a1, b2), _times(a2, b1))
    second = _minus(_times(a2, b0), _times(a0, b2))
    result = stack(list(broadcast_arrays(first, second, third)), -1)
    out_axis = check_axis(axisc, result.ndim, "axisc")
    return moveaxis(result, -1, out_axis).astype(dtype, copy=False)  # type: ignore[no-any-return]


def einsum_path(
    subscripts: Any, *operands: Any, optimize: Any = "greedy", einsum_call: bool = False
) -> Any:
    """NumPy's contraction order for ``einsum`` on operands of these shapes and dtypes."""
    stand_ins = []
    for op in operands:
        t = asarray(op)
        if any(is_unknown(n) for n in t.shape):
            raise ValueError("einsum_path() needs the operands' lengths; execute them first")
        # a zero-stride view: the shape without the memory
        stand_ins.append(np.broadcast_to(np.zeros((), dtype=t.dtype), t.shape))
    return np.einsum_path(subscripts, *stand_ins, optimize=optimize, einsum_call=einsum_call)  # type: ignore[arg-type]


__all__ = ["cross", "einsum_path", "kron", "matvec", "vecdot", "vecmat"]
