"""``norm``: vector and matrix norms as tree reductions (``numpy.linalg.norm`` rules).

Vector norms and the Frobenius norm are one reduction each: every chunk gives a partial
(a sum of ``|x|**p``, a maximum, ...), partials are combined, and the last step takes the
root. The 1/inf matrix norms are two reductions (sums along one axis, then the extreme
along the other). The 2/-2/nuclear norms need singular values: of a 2-D tensor by TSQR
(``svd(compute_uv=False)``), of a stack with each matrix gathered into one chunk.
The result dtype is NumPy's (checked on a tiny array, which also raises NumPy's errors
for a bad ``ord`` or ``axis``).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from jupyter_mars.config import options
from jupyter_mars.engine.devices import array_module
from jupyter_mars.engine.primitives.reduction import Reduction
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.linalg._core import batch_apply, whole_axes
from jupyter_mars.tensor.linalg.qr import svd

# ---- kernels ------------------------------------------------------------------------------


def norm_chunk(
    block: Any, axis: tuple[int, ...], keepdims: bool, kind: str, p: Any, dtype: np.dtype[Any]
) -> Any:
    if kind == "count":
        return np.sum(block != 0, axis=axis, keepdims=True, dtype=dtype)
    absx = np.abs(block).astype(dtype, copy=False)
    if kind == "max":
        return np.max(absx, axis=axis, keepdims=True)
    if kind == "min":
        return np.min(absx, axis=axis, keepdims=True)
    if kind in ("sum2", "sumsq"):
        return np.sum(absx * absx, axis=axis, keepdims=True)
    if kind == "pow":
        return np.sum(absx**p, axis=axis, keepdims=True)
    return np.sum(absx, axis=axis, keepdims=True)


def norm_combine(parts: list[Any], axis: tuple[int, ...], kind: str) -> Any:
    func = {"max": np.maximum, "min": np.minimum}.get(kind, np.add)
    return functools.reduce(func, parts)


def norm_aggregate(
    part: Any, axis: tuple[int, ...], keepdims: bool, kind: str, p: Any, dtype: np.dtype[Any]
) -> Any:
    if kind == "sum2":
        part = np.sqrt(part)
    elif kind == "pow":
        part = part ** np.reciprocal(p, dtype=dtype)
    if not keepdims and axis:
        part = np.squeeze(part, axis=axis)
    return array_module(part).asarray(part, dtype=dtype)


def matrix_norm_chunk(block: Any, axis: tuple[int, ...], keepdims: bool, ord: Any) -> Any:
    return np.linalg.norm(block, ord=ord, axis=axis, keepdims=True)


def matrix_norm_aggregate(part: Any, axis: tuple[int, ...], keepdims: bool) -> Any:
    return part if keepdims else np.squeeze(part, axis=axis)


def singular_value_norm(s: Any, kind: str, shape: tuple[int, ...], dtype: np.dtype[Any]) -> Any:
    reducer: Any = {"max": np.max, "min": np.min, "sum": np.sum}[kind]
    value = reducer(s)
    xp = array_module(s)
    return xp.reshape(xp.asarray(value, dtype=dtype), shape)


def fixed_shape(core: tuple[int, ...], shape: tuple[int, ...]) -> tuple[int, ...]:
    return shape


# ---- building blocks ------------------------------------------------------------------------


def reduce_abs(
    x: Tensor, axes: tuple[int, ...], keepdims: bool, kind: str, p: Any, dtype: np.dtype[Any]
) -> Tensor:
    """One reduction of ``|x|``: ``kind`` is max, min, count (nonzero), sum, sum2 (root of
    the sum of squares), sumsq (sum of squares) or pow (``p``-norm)."""
    axes = tuple(sorted(axes))
    op = Reduction(
        chunk=norm_chunk,
        combine=functools.partial(norm_combine, kind=kind),
        aggregate=functools.partial(norm_aggregate, kind=kind, p=p, dtype=dtype),
        axis=axes,
        keepdims=keepdims,
        combine_size=options.combine_size,
        name="norm",
        chunk_kwargs={"kind": kind, "p": p, "dtype": dtype},
    )
    shape = tuple(1 if a in axes else n for a, n in enumerate(x.shape) if keepdims or a not in axes)
    return new_tensor(op, [x], shape, dtype)


def _svd_norm(
    x: Tensor, row: int, col: int, ord: Any, keepdims: bool, dtype: np.dtype[Any]
) -> Tensor:
    kind = {2: "max", -2: "min", "nuc": "sum"}[ord]
    if x.ndim == 2:
        s = svd(x, compute_uv=False)
        out_shape: tuple[int, ...] = (1, 1) if keepdims else ()
        func = functools.partial(singular_value_norm, kind=kind, shape=out_shape, dtype=dtype)
        shape_fn = functools.partial(fixed_shape, shape=out_shape)
        return batch_apply(s, func, 1, shape_fn, dtype, "norm")
    axes = tuple(sorted((row, col)))
    gathered = whole_axes(x, axes)
    op = Reduction(
        chunk=matrix_norm_chunk,
        combine=functools.partial(norm_combine, kind="sum"),
        aggregate=matrix_norm_aggregate,
        axis=axes,
        keepdims=keepdims,
        combine_size=options.combine_size,
        name="norm",
        chunk_kwargs={"ord": ord},
    )
    shape = tuple(1 if a in axes else n for a, n in enumerate(x.shape) if keepdims or a not in axes)
    return new_tensor(op, [gathered], shape, dtype)


# ---- norm -----------------------------------------------------------------------------------


def norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Tensor:
    """Lazy ``numpy.linalg.norm``: vector norms over one axis (or of the flattened tensor),
    matrix norms over two axes, with NumPy's ``ord``/``axis``/``keepdims`` rules."""
    t = astensor(x)
    # NumPy validates ord/axis and tells the dtype on a tiny array of the same ndim
    probe = np.linalg.norm(
        np.ones((1,) * t.ndim, dtype=t.dtype), ord=ord, axis=axis, keepdims=keepdims
    )
    dtype = np.asarray(probe).dtype
    nd = t.ndim
    if axis is None:
        if ord is None or (ord in ("f", "fro") and nd == 2) or (ord == 2 and nd == 1):
            return reduce_abs(t, tuple(range(nd)), bool(keepdims), "sum2", None, dtype)
        axes: tuple[int, ...] = tuple(range(nd))
    elif isinstance(axis, tuple):
        axes = tuple(int(a) % nd for a in axis)
    else:
        axes = (int(axis) % nd,)
    keep = bool(keepdims)
    if len(axes) == 1:
        if ord == np.inf:
            return reduce_abs(t, axes, keep, "max", None, dtype)
        if ord == -np.inf:
            return reduce_abs(t, axes, keep, "min", None, dtype)
        if ord == 0:
            return reduce_abs(t, axes, keep, "count", None, dtype)
        if ord == 1:
            return reduce_abs(t, axes, keep, "sum", None, dtype)
        if ord is None or ord == 2:
            return reduce_abs(t, axes, keep, "sum2", None, dtype)
        return reduce_abs(t, axes, keep, "pow", ord, dtype)
    row, col = axes
    if ord in (2, -2, "nuc"):
        return _svd_norm(t, row, col, ord, keep, dtype)
    if ord in (None, "fro", "f"):
        return reduce_abs(t, axes, keep, "sum2", None, dtype)
    # 1/-1: sums down the columns, then the extreme over columns; inf/-inf: along rows
    summed, other = (row, col) if ord in (1, -1) else (col, row)
    extreme = "max" if ord in (1, np.inf) else "min"
    if keep:
        sums = reduce_abs(t, (summed,), True, "sum", None, dtype)
        return reduce_abs(sums, (other,), True, extreme, None, dtype)
    sums = reduce_abs(t, (summed,), False, "sum", None, dtype)
    return reduce_abs(sums, (other - 1 if other > summed else other,), False, extreme, None, dtype)
