"""Reductions: ``sum``, ``prod``, ``min``, ``max``, ``mean``, ``var``, ``std``, ``argmin``,
``argmax``, ``count_nonzero``, ``ptp``, ``average``, their NaN-skipping forms, and (from
``cumulative.py``) ``cumsum``/``cumprod``/``nancumsum``/``nancumprod``.

Each is a tree reduction (``engine/primitives/reduction.py``) described by three small
kernels: ``chunk`` turns one input chunk into a partial result, ``combine`` merges
``options.combine_size`` partials at a time, ``aggregate`` turns the last one into the
output chunk. ``axis``, ``keepdims``, ``dtype``, ``ddof`` and the result dtypes follow
NumPy; bad arguments raise NumPy's exception types when the function is called.

Warnings. Kernels never warn (they run on worker threads, where a warning would be an
error or lost). Warnings NumPy gives for a *shape* (mean of an empty slice, ``ddof`` not
smaller than the number of items) are raised when the function is called, by running
NumPy on an empty stand-in of the same shape. Warnings that depend on the *data* (an
all-NaN slice in ``nanmin``, ``nanmean``, ``nanvar``; overflow) are not reproduced; the
values are NumPy's (``nan`` for an all-NaN slice). Errors that depend on the data
(``nanargmax`` of an all-NaN slice, weights summing to zero in ``average``) are raised
by ``execute``.

Variance uses the numerically stable parallel algorithm: each chunk gives
``(count, mean, M2)`` computed in two passes, partials are merged with Chan et al.'s
update, so data with a large offset keeps its precision.
"""

from __future__ import annotations

import builtins
import functools
import math
import numbers
import operator
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.config import options
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.reduction import Reduction
from jupyter_mars.tensor.core import Tensor, new_tensor, unknown_shape
from jupyter_mars.tensor.cumulative import cumprod, cumsum, nancumprod, nancumsum
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.elemwise import elemwise


class _NoValueType:
    """Marks an argument that was not given (``initial=`` can legitimately be None)."""

    def __repr__(self) -> str:
        return "<no value>"


_NOVALUE: Any = _NoValueType()
_NP_NOVALUE = getattr(np, "_NoValue", _NOVALUE)


def _given(value: Any) -> bool:
    return value is not _NOVALUE and value is not _NP_NOVALUE


# ---- argument checks and shapes -----------------------------------------------------------------


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


def _single_axis(axis: Any, ndim: int, name: str) -> int | None:
    """``axis`` of a function that takes one axis or None (``argmax``), NumPy's errors."""
    if axis is None:
        return None
    if isinstance(axis, bool):
        raise TypeError(f"{name}(): axis must be an int or None, got {axis!r}")
    try:
        value = operator.index(axis)
    except TypeError:
        raise TypeError(f"{name}(): axis must be an int or None, got {axis!r}") from None
    if not -ndim <= value < ndim:
        raise np.exceptions.AxisError(value, ndim)
    return value % ndim


def _check_keepdims(keepdims: Any) -> bool:
    if isinstance(keepdims, (bool, np.bool_)):
        return bool(keepdims)
    try:
        return bool(operator.index(keepdims))
    except TypeError:
        raise TypeError(f"keepdims must be True or False, got {keepdims!r}") from None


def _check_ddof(ddof: Any, correction: Any, name: str) -> Any:
    if _given(correction):
        if ddof != 0:
            raise ValueError(f"{name}(): ddof and correction can't be provided simultaneously.")
        ddof = correction
    if not isinstance(ddof, numbers.Real):
        raise TypeError(f"{name}(): ddof must be a real number, got {ddof!r}")
    return ddof


def _unsupported(name: str, out: Any = None, where: Any = _NOVALUE, mean: Any = _NOVALUE) -> None:
    if out is not None:
        raise TypeError(f"{name}(): the 'out' argument is not supported on tensors")
    if _given(where) and where is not True:
        raise TypeError(f"{name}(): the 'where' argument is not supported on tensors")
    if _given(mean):
        raise TypeError(f"{name}(): the 'mean' argument is not supported on tensors")


def reduced_shape(shape: tuple[Any, ...], axes: tuple[int, ...], keepdims: bool) -> tuple[Any, ...]:
    if keepdims:
        return tuple(1 if i in axes else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i not in axes)


def squeeze_axes(x: Any, axis: tuple[int, ...], keepdims: bool) -> Any:
    if keepdims:
        return x
    return np.squeeze(x, axis=axis) if axis else x


def _empty_along(block: Any, axis: tuple[int, ...]) -> bool:
    return builtins.any(block.shape[a] == 0 for a in axis)


def _as_result(value: Any, dtype: np.dtype[Any]) -> Any:
    with np.errstate(all="ignore"):
        return np.asarray(value).astype(dtype, copy=False)


def _probe_dtype(
    npfunc: Callable[..., Any], in_dtype: np.dtype[Any], **kwargs: Any
) -> np.dtype[Any]:
    """The dtype NumPy gives (or NumPy's TypeError/ValueError) for inputs of ``in_dtype``."""
    with np.errstate(all="ignore"):
        return np.asarray(npfunc(np.ones(2, dtype=in_dtype), **kwargs)).dtype


def _reduced_count(shape: tuple[Any, ...], axes: tuple[int, ...]) -> Any:
    return math.prod(shape[a] for a in axes)


def _probe_shape(
    npfunc: Callable[..., Any], x: Tensor, axes: tuple[int, ...], axis: Any, **kwargs: Any
) -> None:
    """Where ``x`` has a zero-length axis, call NumPy on an empty array of that shape, so
    NumPy's own error (``min`` of an empty axis) or warning (mean of an empty slice) is
    raised here, at the user's line. Reduced axes keep their lengths (the count matters
    for ``ddof``), other axes shrink to length 1; the stand-in holds no data."""
    if unknown_shape(x.shape) or 0 not in x.shape:
        return
    shape = tuple(n if (i in axes or n == 0) else 1 for i, n in enumerate(x.shape))
    npfunc(np.zeros(shape, dtype=x.dtype), axis=axis, **kwargs)


def _probe_ddof(
    npfunc: Callable[..., Any], x: Tensor, axes: tuple[int, ...], ddof: Any, **kwargs: Any
) -> None:
    """NumPy's "Degrees of freedom <= 0" warning, decided by the shape, raised here."""
    if unknown_shape(x.shape):
        return
    if 0 in x.shape:
        _probe_shape(npfunc, x, axes, axes, ddof=ddof, **kwargs)
        return
    count = _reduced_count(x.shape, axes)
    if count - ddof > 0:
        return
    if count <= 1_000_000:
        shape = tuple(n if i in axes else 1 for i, n in enumerate(x.shape))
        npfunc(np.zeros(shape, dtype=x.dtype), axis=axes, ddof=ddof, **kwargs)
    else:  # pragma: no cover - a ddof of a million
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=3)


# ---- the reduction node -------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class _KnownChunks(Op):
    """The input unchanged, once its chunk lengths are known (arg-reductions need offsets)."""

    def label(self) -> str:
        return "known_chunks"


@tile_rule(_KnownChunks)
def _tile_known_chunks(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    ctx.require_known(inputs[0])
    return Tiled(inputs[0].nsplits, inputs[0].keys)


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
    """Build a reduction node over ``axis`` of ``x`` (see ``engine/primitives/reduction.py``
    for the kernel contract); the fan-in is ``combine_size`` or ``options.combine_size``."""
    t = astensor(x)
    axes = normalize_axis(axis, t.ndim)
    keep = _check_keepdims(keepdims)
    if with_offsets and unknown_shape(t.shape):
        t = new_tensor(_KnownChunks(), [t], t.shape, t.dtype)
    op = Reduction(
        chunk=chunk,
        combine=combine,
        aggregate=aggregate,
        axis=axes,
        keepdims=keep,
        combine_size=combine_size or options.combine_size,
        name=name,
        chunk_kwargs=chunk_kwargs or {},
        with_offsets=with_offsets,
    )
    return new_tensor(op, [t], reduced_shape(t.shape, axes, keep), dtype)


# ---- sum, prod, min, max, any, all, count_nonzero and NaN forms ---------------------------------
# A partial is an array with the reduced axes kept (length 1); ``None`` stands for a chunk
# that is empty along the reduced axes, for operations without an identity.


def _chunk_dtype(
    func: Callable[..., Any], dtype: np.dtype[Any], block: Any, axis: Any, keepdims: bool
) -> Any:
    with np.errstate(all="ignore"):
        return func(block, axis=axis, keepdims=True, dtype=dtype)


def _chunk_plain(func: Callable[..., Any], block: Any, axis: Any, keepdims: bool) -> Any:
    with np.errstate(all="ignore"):
        return func(block, axis=axis, keepdims=True)


def _chunk_no_identity(
    func: Callable[..., Any], block: Any, axis: Any, keepdims: bool, initial: Any = _NOVALUE
) -> Any:
    with np.errstate(all="ignore"):
        if _given(initial):
            return func(block, axis=axis, keepdims=True, initial=initial)
        if _empty_along(block, axis):
            return None
        return func(block, axis=axis, keepdims=True)


def _combine_pairwise(pairwise: Callable[..., Any], parts: list[Any], axis: Any) -> Any:
    present = [p for p in parts if p is not None]
    if not present:
        return None
    with np.errstate(all="ignore"):
        return functools.reduce(pairwise, present)


def _aggregate_simple(
    opname: str,
    dtype: np.dtype[Any],
    initial_func: Callable[..., Any] | None,
    initial: Any,
    part: Any,
    axis: Any,
    keepdims: bool,
) -> Any:
    if part is None:
        raise ValueError(f"zero-size array to reduction operation {opname} which has no identity")
    if initial_func is not None and _given(initial):
        with np.errstate(all="ignore"):
            part = initial_func(part, axis=axis, keepdims=True, initial=initial)
    return _as_result(squeeze_axes(part, axis, keepdims), dtype)


def _with_identity(
    name: str,
    npfunc: Callable[..., Any],
    pairwise: Callable[..., Any],
    initial_func: Callable[..., Any],
    a: Any,
    axis: Any,
    dtype: Any,
    out: Any,
    keepdims: Any,
    initial: Any,
    where: Any,
) -> Tensor:
    """``sum``-like: a per-chunk NumPy reduction in the result dtype, merged pairwise;
    ``initial`` is applied once, at the end."""
    _unsupported(name, out=out, where=where)
    x = astensor(a)
    axes = normalize_axis(axis, x.ndim)
    extra = {"initial": initial} if _given(initial) else {}
    out_dtype = _probe_dtype(npfunc, x.dtype, dtype=dtype, **extra)
    return reduce(
        x,
        name,
        functools.partial(_chunk_dtype, npfunc, out_dtype),
        functools.partial(_combine_pairwise, pairwise),
        functools.partial(_aggregate_simple, pairwise.__name__, out_dtype, initial_func, initial),
        axes,
        keepdims,
        out_dtype,
    )


def _without_identity(
    name: str,
    npfunc: Callable[..., Any],
    pairwise: Callable[..., Any],
    probe: Callable[..., Any],
    a: Any,
    axis: Any,
    out: Any,
    keepdims: Any,
    initial: Any,
    where: Any,
) -> Tensor:
    """``min``-like: no identity, so an empty reduced axis is an error (unless ``initial``)."""
    _unsupported(name, out=out, where=where)
    x = astensor(a)
    axes = normalize_axis(axis, x.ndim)
    extra = {"initial": initial} if _given(initial) else {}
    out_dtype = _probe_dtype(probe, x.dtype, **extra)
    _probe_shape(probe, x, axes, axes, **extra)
    return reduce(
        x,
        name,
        functools.partial(_chunk_no_identity, npfunc),
        functools.partial(_combine_pairwise, pairwise),
        functools.partial(_aggregate_simple, pairwise.__name__, out_dtype, None, _NOVALUE),
        axes,
        keepdims,
        out_dtype,
        chunk_kwargs=extra,
    )


def sum(  # noqa: A001
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    keepdims: bool = False,
    initial: Any = _NOVALUE,
    where: Any = _NOVALUE,
) -> Tensor:
    """Lazy, chunked ``numpy.sum``."""
    return _with_identity(
        "sum", np.sum, np.add, np.sum, a, axis, dtype, out, keepdims, initial, where
    )


def prod(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    keepdims: bool = False,
    initial: Any = _NOVALUE,
    where: Any = _NOVALUE,
) -> Tensor:
    """Lazy, chunked ``numpy.prod``."""
    return _with_identity(
        "prod", np.prod, np.multiply, np.prod, a, axis, dtype, out, keepdims, initial, where
    )


def nansum(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    keepdims: bool = False,
    initial: Any = _NOVALUE,
    where: Any = _NOVALUE,
) -> Tensor:
    """Lazy, chunked ``numpy.nansum`` (NaN counts as zero; all-NaN gives 0)."""
    return _with_identity(
        "nansum", np.nansum, np.add, np.sum, a, axis, dtype, out, keepdims, initial, where
    )


def nanprod(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    keepdims: bool = False,
    initial: Any = _NOVALUE,
    where: Any = _NOVALUE,
) -> Tensor:
    """Lazy, chunked ``numpy.nanprod`` (NaN counts as one; all-NaN gives 1)."""
    return _with_identity(
        "nanprod", np.nanprod, np.multiply, np.prod, a, axis, dtype, out, keepdims, initial, where
    )


def max(  # noqa: A001
    a: Any,
    axis: Any = None,
    out: Any = None,
    keepdims: bool = False,
    initial: Any = _NOVALUE,
    where: Any = _NOVALUE,
) -> Tensor:
    """Lazy, chunked ``numpy.max`` (NaN propagates); an empty axis raises ValueError."""
    return _without_identity(
        "max", np.max, np.maximum, np.max, a, axis, out, keepdims, initial, where
    )


def min(  # noqa: A001
    a: Any,
    axis: Any = None,
    out: Any = None,
    keepdims: bool = False,
    initial: Any = _NOVALUE,
    where: Any = _NOVALUE,
) -> Tensor:
    """Lazy, chunked ``numpy.min`` (NaN propagates); an empty axis raises ValueError."""
    return _without_identity(
        "min", np.min, np.minimum, np.min, a, axis, out, keepdims, initial, where
    )


def _nan_kernels(x: Tensor, skip: Callable[..., Any], plain: Callable[..., Any]) -> Any:
    return skip if x.dtype.kind in "fc" else plain


def nanmax(
    a: Any,
    axis: Any = None,
    out: Any = None,
    keepdims: bool = False,
    initial: Any = _NOVALUE,
    where: Any = _NOVALUE,
) -> Tensor:
    """Lazy, chunked ``numpy.nanmax``: NaNs are skipped; an all-NaN slice gives NaN (NumPy's
    "All-NaN slice" warning depends on the data and is not given)."""
    x = astensor(a)
    inexact = x.dtype.kind in "fc"
    npfunc, pairwise = (np.fmax.reduce, np.fmax) if inexact else (np.max, np.maximum)
    return _without_identity(
        "nanmax", npfunc, pairwise, np.nanmax, x, axis, out, keepdims, initial, where
    )


def nanmin(
    a: Any,
    axis: Any = None,
    out: Any = None,
    keepdims: bool = False,
    initial: Any = _NOVALUE,
    where: Any = _NOVALUE,
) -> Tensor:
    """Lazy, chunked ``numpy.nanmin``: NaNs are skipped; an all-NaN slice gives NaN (NumPy's
    "All-NaN slice" warning depends on the data and is not given)."""
    x = astensor(a)
    inexact = x.dtype.kind in "fc"
    npfunc, pairwise = (np.fmin.reduce, np.fmin) if inexact else (np.min, np.minimum)
    return _without_identity(
        "nanmin", npfunc, pairwise, np.nanmin, x, axis, out, keepdims, initial, where
    )


amax = max
amin = min


def _logical(
    name: str,
    npfunc: Callable[..., Any],
    pairwise: Callable[..., Any],
    a: Any,
    axis: Any,
    out: Any,
    keepdims: Any,
    where: Any,
) -> Tensor:
    _unsupported(name, out=out, where=where)
    x = astensor(a)
    axes = normalize_axis(axis, x.ndim)
    out_dtype = _probe_dtype(npfunc, x.dtype)
    return reduce(
        x,
        name,
        functools.partial(_chunk_plain, npfunc),
        functools.partial(_combine_pairwise, pairwise),
        functools.partial(_aggregate_simple, name, out_dtype, None, _NOVALUE),
        axes,
        keepdims,
        out_dtype,
    )


def any(  # noqa: A001
    a: Any, axis: Any = None, out: Any = None, keepdims: bool = False, *, where: Any = _NOVALUE
) -> Tensor:
    """Lazy, chunked ``numpy.any``."""
    return _logical("any", np.any, np.logical_or, a, axis, out, keepdims, where)


def all(  # noqa: A001
    a: Any, axis: Any = None, out: Any = None, keepdims: bool = False, *, where: Any = _NOVALUE
) -> Tensor:
    """Lazy, chunked ``numpy.all``."""
    return _logical("all", np.all, np.logical_and, a, axis, out, keepdims, where)


def count_nonzero(a: Any, axis: Any = None, *, keepdims: bool = False) -> Tensor:
    """Lazy, chunked ``numpy.count_nonzero`` (an intp tensor, 0-d for ``axis=None``)."""
    x = astensor(a)
    axes = normalize_axis(axis, x.ndim)
    out_dtype = np.dtype(np.intp)
    return reduce(
        x,
        "count_nonzero",
        functools.partial(_chunk_plain, np.count_nonzero),
        functools.partial(_combine_pairwise, np.add),
        functools.partial(_aggregate_simple, "add", out_dtype, None, _NOVALUE),
        axes,
        keepdims,
        out_dtype,
    )


# ---- ptp: (max, min) pairs ----------------------------------------------------------------------


def _ptp_chunk(block: Any, axis: Any, keepdims: bool) -> Any:
    if _empty_along(block, axis):
        return None
    return np.max(block, axis=axis, keepdims=True), np.min(block, axis=axis, keepdims=True)


def _ptp_pair(a: Any, b: Any) -> Any:
    return np.maximum(a[0], b[0]), np.minimum(a[1], b[1])


def _ptp_aggregate(dtype: np.dtype[Any], part: Any, axis: Any, keepdims: bool) -> Any:
    if part is None:
        raise ValueError("zero-size array to reduction operation maximum which has no identity")
    with np.errstate(all="ignore"):
        result = np.subtract(part[0], part[1])
    return _as_result(squeeze_axes(result, axis, keepdims), dtype)


def ptp(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False) -> Tensor:
    """Lazy, chunked ``numpy.ptp`` (max - min, in the input dtype as NumPy; one tree
    reduction carrying both extremes). Not a method: ``ndarray.ptp`` is gone in NumPy 2."""
    _unsupported("ptp", out=out)
    x = astensor(a)
    axes = normalize_axis(axis, x.ndim)
    out_dtype = _probe_dtype(np.ptp, x.dtype)
    _probe_shape(np.ptp, x, axes, axes)
    return reduce(
        x,
        "ptp",
        _ptp_chunk,
        functools.partial(_combine_pairwise, _ptp_pair),
        functools.partial(_ptp_aggregate, out_dtype),
        axes,
        keepdims,
        out_dtype,
    )


# ---- mean and nanmean: (sum, count) pairs -------------------------------------------------------


def _work_dtype(in_dtype: np.dtype[Any], dtype: Any) -> np.dtype[Any]:
    """The dtype NumPy accumulates a mean in: float64 for ints and bools, float32 for
    float16, else the input's (or the ``dtype`` asked for)."""
    if dtype is not None:
        return np.dtype(dtype)  # type: ignore[no-any-return]
    if in_dtype.kind in "biu":
        return np.dtype(np.float64)
    if in_dtype == np.float16:
        return np.dtype(np.float32)
    return in_dtype


def _mean_chunk(skipna: bool, dtype: np.dtype[Any], block: Any, axis: Any, keepdims: bool) -> Any:
    with np.errstate(all="ignore"):
        if skipna:
            mask = np.isnan(block)
            total = np.sum(np.where(mask, 0, block), axis=axis, keepdims=True, dtype=dtype)
            count = np.sum(~mask, axis=axis, keepdims=True, dtype=np.intp)
        else:
            total = np.sum(block, axis=axis, keepdims=True, dtype=dtype)
            count = np.full(total.shape, _reduced_count(block.shape, axis), dtype=np.intp)
    return total, count


def _mean_pair(a: Any, b: Any) -> Any:
    return np.add(a[0], b[0]), np.add(a[1], b[1])


def _mean_aggregate(dtype: np.dtype[Any], part: Any, axis: Any, keepdims: bool) -> Any:
    total, count = part
    with np.errstate(all="ignore"):
        result = np.true_divide(total, count)
    return _as_result(squeeze_axes(result, axis, keepdims), dtype)


def _mean(
    name: str,
    npfunc: Callable[..., Any],
    skipna: bool,
    a: Any,
    axis: Any,
    dtype: Any,
    out: Any,
    keepdims: Any,
    where: Any,
) -> Tensor:
    _unsupported(name, out=out, where=where)
    x = astensor(a)
    axes = normalize_axis(axis, x.ndim)
    out_dtype = _probe_dtype(npfunc, x.dtype, dtype=dtype)
    _probe_shape(npfunc, x, axes, axes, dtype=dtype)
    work = _work_dtype(x.dtype, dtype)
    return reduce(
        x,
        name,
        functools.partial(_mean_chunk, skipna and x.dtype.kind in "fc", work),
        functools.partial(_combine_pairwise, _mean_pair),
        functools.partial(_mean_aggregate, out_dtype),
        axes,
        keepdims,
        out_dtype,
    )


def mean(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    keepdims: bool = False,
    *,
    where: Any = _NOVALUE,
) -> Tensor:
    """Lazy, chunked ``numpy.mean`` (float64 for integer input, accumulated as NumPy does)."""
    return _mean("mean", np.mean, False, a, axis, dtype, out, keepdims, where)


def nanmean(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    keepdims: bool = False,
    *,
    where: Any = _NOVALUE,
) -> Tensor:
    """Lazy, chunked ``numpy.nanmean``: NaNs are skipped; an all-NaN slice gives NaN."""
    return _mean("nanmean", np.nanmean, True, a, axis, dtype, out, keepdims, where)


# ---- var, std and NaN forms: (count, mean, M2) triples ------------------------------------------


def _abs2(d: Any) -> Any:
    if np.iscomplexobj(d):
        return d.real * d.real + d.imag * d.imag
    return d * d


def _moments_dtype(in_dtype: np.dtype[Any], dtype: Any) -> np.dtype[Any]:
    work = _work_dtype(in_dtype, dtype)
    return work if work.kind in "fc" else np.dtype(np.float64)


def _moments_chunk(
    skipna: bool, dtype: np.dtype[Any], block: Any, axis: Any, keepdims: bool
) -> Any:
    """``(count, mean, M2)`` of one chunk: mean first, then the squared deviations from it."""
    with np.errstate(all="ignore"):
        values = np.asarray(block).astype(dtype, copy=False)
        real = np.empty(0, dtype=dtype).real.dtype
        if skipna:
            mask = np.isnan(values)
            values = np.where(mask, 0, values)
            count = np.sum(~mask, axis=axis, keepdims=True, dtype=np.intp)
        else:
            n = _reduced_count(values.shape, axis)
            count = np.full(reduced_shape(values.shape, axis, True), n, dtype=np.intp)
        total = np.sum(values, axis=axis, keepdims=True)
        mean = np.where(count > 0, total / count.astype(real), 0).astype(dtype, copy=False)
        deviation = values - mean
        if skipna:
            deviation = np.where(mask, 0, deviation)
        m2 = np.sum(_abs2(deviation), axis=axis, keepdims=True)
    return count, mean, m2


def _moments_pair(a: Any, b: Any) -> Any:
    """Chan et al.'s merge of two ``(count, mean, M2)`` partials."""
    count_a, mean_a, m2_a = a
    count_b, mean_b, m2_b = b
    with np.errstate(all="ignore"):
        count = count_a + count_b
        real = m2_a.dtype
        share_b = np.where(count > 0, count_b / np.maximum(count, 1).astype(real), 0).astype(real)
        delta = mean_b - mean_a
        mean = (mean_a + delta * share_b).astype(mean_a.dtype, copy=False)
        m2 = m2_a + m2_b + _abs2(delta) * count_a.astype(real) * share_b
    return count, mean, m2


def _moments_aggregate(
    skipna: bool,
    ddof: Any,
    sqrt: bool,
    dtype: np.dtype[Any],
    part: Any,
    axis: Any,
    keepdims: bool,
) -> Any:
    count, _, m2 = part
    with np.errstate(all="ignore"):
        dof = count - ddof
        if skipna:
            result = np.where(dof > 0, m2 / dof, np.nan)
        else:
            result = m2 / np.maximum(dof, 0)
        if sqrt:
            result = np.sqrt(result)
    return _as_result(squeeze_axes(result, axis, keepdims), dtype)


def _moments(
    name: str,
    npfunc: Callable[..., Any],
    skipna: bool,
    sqrt: bool,
    a: Any,
    axis: Any,
    dtype: Any,
    out: Any,
    ddof: Any,
    keepdims: Any,
    where: Any,
    mean: Any,
    correction: Any,
) -> Tensor:
    _unsupported(name, out=out, where=where, mean=mean)
    ddof = _check_ddof(ddof, correction, name)
    x = astensor(a)
    axes = normalize_axis(axis, x.ndim)
    out_dtype = _probe_dtype(npfunc, x.dtype, dtype=dtype)
    _probe_ddof(npfunc, x, axes, ddof, dtype=dtype)
    work = _moments_dtype(x.dtype, dtype)
    return reduce(
        x,
        name,
        functools.partial(_moments_chunk, skipna and x.dtype.kind in "fc", work),
        functools.partial(_combine_pairwise, _moments_pair),
        functools.partial(_moments_aggregate, skipna, ddof, sqrt, out_dtype),
        axes,
        keepdims,
        out_dtype,
    )


def var(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    ddof: Any = 0,
    keepdims: bool = False,
    *,
    where: Any = _NOVALUE,
    mean: Any = _NOVALUE,
    correction: Any = _NOVALUE,
) -> Tensor:
    """Lazy, chunked ``numpy.var``, merged per chunk as (count, mean, M2): stable for data
    far from zero. ``ddof`` at least the item count gives inf/nan and NumPy's warning."""
    return _moments(
        "var", np.var, False, False, a, axis, dtype, out, ddof, keepdims, where, mean, correction
    )


def std(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    ddof: Any = 0,
    keepdims: bool = False,
    *,
    where: Any = _NOVALUE,
    mean: Any = _NOVALUE,
    correction: Any = _NOVALUE,
) -> Tensor:
    """Lazy, chunked ``numpy.std``: the square root of ``var``."""
    return _moments(
        "std", np.std, False, True, a, axis, dtype, out, ddof, keepdims, where, mean, correction
    )


def nanvar(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    ddof: Any = 0,
    keepdims: bool = False,
    *,
    where: Any = _NOVALUE,
    mean: Any = _NOVALUE,
    correction: Any = _NOVALUE,
) -> Tensor:
    """Lazy, chunked ``numpy.nanvar``: NaNs are skipped; a slice with no more than ``ddof``
    values (all-NaN included) gives NaN."""
    return _moments(
        "nanvar",
        np.nanvar,
        True,
        False,
        a,
        axis,
        dtype,
        out,
        ddof,
        keepdims,
        where,
        mean,
        correction,
    )


def nanstd(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    ddof: Any = 0,
    keepdims: bool = False,
    *,
    where: Any = _NOVALUE,
    mean: Any = _NOVALUE,
    correction: Any = _NOVALUE,
) -> Tensor:
    """Lazy, chunked ``numpy.nanstd``: the square root of ``nanvar``."""
    return _moments(
        "nanstd",
        np.nanstd,
        True,
        True,
        a,
        axis,
        dtype,
        out,
        ddof,
        keepdims,
        where,
        mean,
        correction,
    )


# ---- argmin, argmax and NaN forms: (value, global index, has-a-number) triples ------------------


def _arg_chunk(
    kind: str,
    skipna: bool,
    flat: bool,
    block: Any,
    axis: Any,
    keepdims: bool,
    offset: tuple[int, ...],
    shape: tuple[int, ...],
) -> Any:
    if _empty_along(block, axis):
        return None
    pick = np.argmax if kind == "max" else np.argmin
    values = np.asarray(block)
    has_number = None
    if skipna:
        mask = np.isnan(values)
        values = np.where(mask, -np.inf if kind == "max" else np.inf, values)
        has_number = ~np.all(mask, axis=axis, keepdims=True)
    if flat:
        local = int(pick(values.ravel()))
        value = values.ravel()[local]
        if values.ndim:
            position = np.unravel_index(local, values.shape)
            index = int(
                np.ravel_multi_index(
                    tuple(int(p) + int(o) for p, o in zip(position, offset)), shape
                )
            )
        else:
            index = 0
        ones = (1,) * values.ndim
        return (
            np.full(ones, value, dtype=values.dtype),
            np.full(ones, index, dtype=np.intp),
            has_number,
        )
    (k,) = axis
    local_index = pick(values, axis=k, keepdims=True)
    value = np.take_along_axis(values, local_index, axis=k)
    return value, (local_index + int(offset[k])).astype(np.intp), has_number


def _arg_pair(kind: str, a: Any, b: Any) -> Any:
    """Keep, per position, the winner of two partials; ties go to the smaller index and a
    NaN wins over numbers (the first NaN, as NumPy)."""
    value_a, index_a, has_a = a
    value_b, index_b, has_b = b
    with np.errstate(all="ignore"):
        earlier = index_b < index_a
        better = value_b > value_a if kind == "max" else value_b < value_a
        take = better | ((value_b == value_a) & earlier)
        if value_a.dtype.kind in "fc":
            nan_a, nan_b = np.isnan(value_a), np.isnan(value_b)
            take = np.where(nan_a, nan_b & earlier, nan_b | take)
    has = None if has_a is None else (has_a | has_b)
    return np.where(take, value_b, value_a), np.where(take, index_b, index_a), has


def _arg_aggregate(name: str, part: Any, axis: Any, keepdims: bool) -> Any:
    if part is None:
        raise ValueError(f"attempt to get {name} of an empty sequence")
    _, index, has_number = part
    if has_number is not None and not np.all(has_number):
        raise ValueError("All-NaN slice encountered")
    return _as_result(squeeze_axes(index, axis, keepdims), np.dtype(np.intp))


def _arg(
    name: str,
    kind: str,
    skipna: bool,
    npfunc: Callable[..., Any],
    a: Any,
    axis: Any,
    out: Any,
    keepdims: Any,
) -> Tensor:
    _unsupported(name, out=out)
    x = astensor(a)
    ax = _single_axis(axis, builtins.max(x.ndim, 1), name)
    keep = _check_keepdims(keepdims)
    flat = ax is None or x.ndim == 0
    axes: tuple[int, ...] = tuple(range(x.ndim)) if ax is None or flat else (ax,)
    _probe_dtype(npfunc, x.dtype)
    _probe_shape(npfunc, x, axes, None if flat else ax)
    return reduce(
        x,
        name,
        functools.partial(_arg_chunk, kind, skipna and x.dtype.kind in "fc", flat),
        functools.partial(_combine_pairwise, functools.partial(_arg_pair, kind)),
        functools.partial(_arg_aggregate, f"arg{kind}"),
        None if flat else ax,
        keep,
        np.intp,
        with_offsets=True,
    )


def argmax(a: Any, axis: Any = None, out: Any = None, *, keepdims: bool = False) -> Tensor:
    """Lazy, chunked ``numpy.argmax``: flat indices for ``axis=None``; the first of equal
    maxima (and the first NaN) wins, as in NumPy."""
    return _arg("argmax", "max", False, np.argmax, a, axis, out, keepdims)


def argmin(a: Any, axis: Any = None, out: Any = None, *, keepdims: bool = False) -> Tensor:
    """Lazy, chunked ``numpy.argmin``: flat indices for ``axis=None``; the first of equal
    minima (and the first NaN) wins, as in NumPy."""
    return _arg("argmin", "min", False, np.argmin, a, axis, out, keepdims)


def nanargmax(a: Any, axis: Any = None, out: Any = None, *, keepdims: bool = False) -> Tensor:
    """Lazy, chunked ``numpy.nanargmax``: NaNs are skipped; an all-NaN slice raises
    ValueError when executed."""
    return _arg("nanargmax", "max", True, np.nanargmax, a, axis, out, keepdims)


def nanargmin(a: Any, axis: Any = None, out: Any = None, *, keepdims: bool = False) -> Tensor:
    """Lazy, chunked ``numpy.nanargmin``: NaNs are skipped; an all-NaN slice raises
    ValueError when executed."""
    return _arg("nanargmin", "min", True, np.nanargmin, a, axis, out, keepdims)


# ---- average ------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class _PlaceAxes(Op):
    """Weights laid out to broadcast against ``a``: input axis ``order[j]`` becomes output
    axis ``positions[j]``; the other ``ndim`` axes have length 1."""

    order: tuple[int, ...]
    positions: tuple[int, ...]
    ndim: int

    def label(self) -> str:
        return "place_axes"


def _key(grid: Any, index: Any) -> Any:
    """The chunk key at ``index`` of a key grid."""
    return grid[index]


def place_axes(block: Any, order: tuple[int, ...], positions: tuple[int, ...], ndim: int) -> Any:
    moved = np.transpose(block, order)
    shape = [1] * ndim
    for j, p in enumerate(positions):
        shape[p] = moved.shape[j]
    return moved.reshape(shape)


@tile_rule(_PlaceAxes)
def _tile_place_axes(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, _PlaceAxes)
    (w,) = inputs
    nsplits: list[tuple[float, ...]] = [(1,)] * op.ndim
    for j, p in enumerate(op.positions):
        nsplits[p] = w.nsplits[op.order[j]]
    grid = key_grid(node.key, [len(n) for n in nsplits])
    for index in np.ndindex(*w.numblocks):
        out_index = [0] * op.ndim
        for j, p in enumerate(op.positions):
            out_index[p] = index[op.order[j]]
        ctx.add_blockwise(
            _key(grid, tuple(out_index)),
            place_axes,
            (Ref(_key(w.keys, index)), op.order, op.positions, op.ndim),
            {},
        )
    return Tiled(tuple(nsplits), grid)


def _multiply_as(a: Any, b: Any, dtype: np.dtype[Any]) -> Any:
    with np.errstate(all="ignore"):
        return np.multiply(a, b, dtype=dtype)


def _divide_weighted(total: Any, weight: Any) -> Any:
    if np.any(weight == 0):
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    with np.errstate(all="ignore"):
        return total / weight


def _broadcast_like(like: Any, values: Any, dtype: np.dtype[Any]) -> Any:
    shape = np.broadcast_shapes(np.shape(like), np.shape(values))
    return np.broadcast_to(np.asarray(values, dtype=dtype), shape).copy()


def _count_chunk(dtype: np.dtype[Any], block: Any, axis: Any, keepdims: bool) -> Any:
    return np.full(
        reduced_shape(block.shape, axis, True), _reduced_count(block.shape, axis), dtype=dtype
    )


def _weights_like(w: Tensor, x: Tensor, axis: Any) -> Tensor:
    """NumPy's weight checks; weights of the reduced axes only are laid out to broadcast."""
    if tuple(w.shape) == tuple(x.shape):
        return w
    if axis is None:
        raise TypeError("Axis must be specified when shapes of a and weights differ.")
    raw = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    given = tuple(int(a) % x.ndim for a in raw)
    if tuple(w.shape) != tuple(x.shape[a] for a in given):
        raise ValueError(
            "Shape of weights must be consistent with shape of a along specified axis."
        )
    order = tuple(int(i) for i in np.argsort(given))
    positions = tuple(given[i] for i in order)
    shape = tuple(x.shape[a] if a in positions else 1 for a in range(x.ndim))
    return new_tensor(_PlaceAxes(order, positions, x.ndim), [w], shape, w.dtype)


def average(
    a: Any,
    axis: Any = None,
    weights: Any = None,
    returned: bool = False,
    *,
    keepdims: bool = False,
) -> Any:
    """Lazy, chunked ``numpy.average``. With ``returned=True`` a pair ``(average, sum of
    weights)``. Weights summing to zero raise ZeroDivisionError when executed."""
    x = astensor(a)
    axes = normalize_axis(axis, x.ndim)
    keep = _check_keepdims(keepdims)
    if weights is None:
        avg = mean(x, axes, keepdims=keep)
        if not returned:
            return avg
        scale = reduce(
            x,
            "count",
            functools.partial(_count_chunk, avg.dtype),
            functools.partial(_combine_pairwise, np.add),
            functools.partial(_aggregate_simple, "add", avg.dtype, None, _NOVALUE),
            axes,
            keep,
            avg.dtype,
        )
        return avg, scale
    w = _weights_like(astensor(weights), x, axis)
    if x.dtype.kind in "biu":
        result_dtype = np.result_type(x.dtype, w.dtype, "f8")
    else:
        result_dtype = np.result_type(x.dtype, w.dtype)
    weighted = elemwise(_multiply_as, x, w, result_dtype, dtype=result_dtype, name="multiply")
    total = sum(weighted, axes, dtype=result_dtype, keepdims=keep)
    scale = sum(w, axes, dtype=result_dtype, keepdims=keep)
    avg = elemwise(_divide_weighted, total, scale, dtype=result_dtype, name="average")
    if not returned:
        return avg
    if tuple(scale.shape) != tuple(avg.shape):
        scale = elemwise(
            _broadcast_like, avg, scale, result_dtype, dtype=result_dtype, name="broadcast_to"
        )
    return avg, scale


# ---- Tensor methods -----------------------------------------------------------------------------


def _method(func: Callable[..., Any]) -> Callable[..., Any]:
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        return func(self, *args, **kwargs)

    method.__name__ = func.__name__
    method.__qualname__ = f"Tensor.{func.__name__}"
    method.__doc__ = func.__doc__
    return method


def _attach() -> None:
    # the methods ``numpy.ndarray`` has in NumPy 2 (no ``ptp``)
    for func in (sum, prod, max, min, mean, any, all, var, std, argmax, argmin, cumsum, cumprod):
        setattr(Tensor, func.__name__, _method(func))


_attach()

__all__ = [
    "all",
    "amax",
    "amin",
    "any",
    "argmax",
    "argmin",
    "average",
    "count_nonzero",
    "cumprod",
    "cumsum",
    "max",
    "mean",
    "min",
    "nanargmax",
    "nanargmin",
    "nancumprod",
    "nancumsum",
    "nanmax",
    "nanmean",
    "nanmin",
    "nanprod",
    "nanstd",
    "nansum",
    "nanvar",
    "normalize_axis",
    "prod",
    "ptp",
    "reduce",
    "std",
    "sum",
    "var",
]
