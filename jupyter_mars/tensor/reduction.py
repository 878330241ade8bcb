"""Reductions: ``sum``, ``prod``, ``min``, ``max``, ``mean``, ``any``, ``all`` and friends.

Each is a tree reduction (``engine/primitives/reduction.py``) described by three small
kernels. ``axis`` and ``keepdims`` follow NumPy; a bad axis raises ``AxisError`` here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from jupyter_mars.config import options
from jupyter_mars.engine.primitives.reduction import Reduction
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor


def normalize_axis(axis: Any, ndim: int, argname: str = "axis") -> tuple[int, ...]:
    """Axes as sorted non-negative ints; raises numpy's AxisError for an axis out of range."""
    if axis is None:
        return tuple(range(ndim))
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    out = []
    for a in axes:
        if isinstance(a, bool) or not isinstance(a, (int, np.integer)):
            raise TypeError(f"{argname} must be an int or a tuple of ints, got {a!r}")
        if not -ndim <= a < ndim:
            raise np.exceptions.AxisError(int(a), ndim)
        out.append(int(a) % ndim if ndim else 0)
    if len(set(out)) != len(out):
        raise ValueError(f"duplicate value in {argname}: {axis!r}")
    return tuple(sorted(out))


def reduced_shape(shape: tuple[Any, ...], axes: tuple[int, ...], keepdims: bool) -> tuple[Any, ...]:
    if keepdims:
        return tuple(1 if i in axes else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i not in axes)


def squeeze_axes(x: Any, axis: tuple[int, ...], keepdims: bool) -> Any:
    if keepdims:
        return x
    return np.squeeze(x, axis=axis) if axis else x


def reduce(
    x: Any,
    name: str,
    chunk: Callable[..., Any],
    combine: Callable[..., Any],
    aggregate: Callable[..., Any],
    axis: Any,
    keepdims: bool,
    dtype: Any,
    chunk_kwargs: dict[str, Any] | None = None,
    with_offsets: bool = False,
    combine_size: int | None = None,
) -> Tensor:
    """Build a reduction node over ``axis`` of ``x``."""
    t = astensor(x)
    axes = normalize_axis(axis, t.ndim)
    if not isinstance(keepdims, (bool, np.bool_)):
        raise TypeError(f"keepdims must be True or False, got {keepdims!r}")
    op = Reduction(
        chunk=chunk,
        combine=combine,
        aggregate=aggregate,
        axis=axes,
        keepdims=bool(keepdims),
        combine_size=combine_size or options.combine_size,
        name=name,
        chunk_kwargs=chunk_kwargs or {},
        with_offsets=with_offsets,
    )
    return new_tensor(op, [t], reduced_shape(t.shape, axes, bool(keepdims)), dtype)


# ---- simple reductions: the same NumPy function reduces chunks and partials ----------------


def _simple_chunk(func: Callable[..., Any], block: Any, axis: Any, keepdims: bool, **kw: Any) -> Any:
    return func(block, axis=axis, keepdims=True, **kw)


def _simple_combine(func: Callable[..., Any], parts: list[Any], axis: Any) -> Any:
    return functools.reduce(func, parts)


def _simple_aggregate(part: Any, axis: Any, keepdims: bool) -> Any:
    return squeeze_axes(part, axis, keepdims)


def _result_dtype(func: Callable[..., Any], dtype: Any, x: Tensor) -> np.dtype[Any]:
    probe = np.ones(1, dtype=x.dtype)
    return np.asarray(func(probe, dtype=dtype) if dtype is not None else func(probe)).dtype


def _simple(
    name: str, npfunc: Callable[..., Any], pairwise: Callable[..., Any], has_dtype: bool
) -> Callable[..., Tensor]:
    def reduction(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False, **kw: Any) -> Tensor:
        if kw.get("out") is not None:
            raise TypeError(f"{name}(): the 'out' argument is not supported on tensors")
        kw.pop("out", None)
        x = astensor(a)
        if dtype is not None and not has_dtype:
            raise TypeError(f"{name}() got an unexpected keyword argument 'dtype'")
        ckw = dict(kw)
        if dtype is not None:
            ckw["dtype"] = dtype
        out_dtype = _result_dtype(npfunc, dtype, x) if has_dtype else x.dtype
        if "initial" not in kw and not has_dtype and x.size == 0 and (axis is None or x.ndim == 1):
            raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
        return reduce(
            x,
            name,
            functools.partial(_simple_chunk, npfunc),
            functools.partial(_simple_combine, pairwise),
            _simple_aggregate,
            axis,
            keepdims,
            out_dtype,
            chunk_kwargs=ckw,
        )

    reduction.__name__ = name
    reduction.__doc__ = f"Lazy, chunked ``numpy.{name}``."
    return reduction


sum = _simple("sum", np.sum, np.add, True)  # noqa: A001
prod = _simple("prod", np.prod, np.multiply, True)
max = _simple("max", np.max, np.maximum, False)  # noqa: A001
min = _simple("min", np.min, np.minimum, False)  # noqa: A001
amax = max
amin = min
any = _simple("any", np.any, np.logical_or, False)  # noqa: A001
all = _simple("all", np.all, np.logical_and, False)  # noqa: A001
any.__doc__ = "Lazy, chunked ``numpy.any``."


# ---- mean: (sum, count) pairs ----------------------------------------------------------------


def _mean_chunk(block: Any, axis: Any, keepdims: bool, dtype: Any = None) -> Any:
    total = np.sum(block, axis=axis, keepdims=True, dtype=dtype)
    count = np.prod([block.shape[a] for a in axis]) if axis else 1
    return total, count


def _mean_combine(parts: list[Any], axis: Any) -> Any:
    total = functools.reduce(np.add, (p[0] for p in parts))
    return total, builtins_sum(p[1] for p in parts)


def _mean_aggregate(part: Any, axis: Any, keepdims: bool, dtype: Any = None) -> Any:
    total, count = part
    with np.errstate(invalid="ignore", divide="ignore"):
        result = np.true_divide(total, count)
    return squeeze_axes(result, axis, keepdims)


def builtins_sum(values: Any) -> Any:
    import builtins

    return builtins.sum(values)


def mean(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False, **kw: Any) -> Tensor:
    """Lazy, chunked ``numpy.mean``."""
    if kw.get("out") is not None:
        raise TypeError("mean(): the 'out' argument is not supported on tensors")
    x = astensor(a)
    if dtype is not None:
        out_dtype = np.dtype(dtype)
    elif x.dtype.kind in "biu":
        out_dtype = np.dtype(np.float64)
    else:
        out_dtype = np.mean(np.ones(1, dtype=x.dtype)).dtype
    return reduce(
        x, "mean", _mean_chunk, _mean_combine, _mean_aggregate, axis, keepdims, out_dtype,
        chunk_kwargs={"dtype": dtype if dtype is not None else (np.float64 if x.dtype.kind in "biu" else None)},
    )


def _method(func: Callable[..., Tensor]) -> Callable[..., Tensor]:
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        return func(self, *args, **kwargs)

    method.__name__ = func.__name__
    method.__doc__ = func.__doc__
    return method


for _func in (sum, prod, max, min, mean, any, all):
    setattr(Tensor, _func.__name__, _method(_func))

__all__ = ["all", "amax", "amin", "any", "max", "mean", "min", "normalize_axis", "prod", "reduce", "sum"]
