"""``sum``, ``prod``, ``max``/``amax``, ``min``/``amin``, ``any``, ``all``, and the two
builders their NaN forms (``nan.py``) share: ``with_identity`` (``sum``-like) and
``without_identity`` (``min``-like)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.outputs import accepts_out
from jupyter_mars.tensor.reduction._probe import probe_dtype, probe_shape
from jupyter_mars.tensor.reduction.args import NOVALUE, given, normalize_axis, unsupported
from jupyter_mars.tensor.reduction.core import numpy_chunk, pairwise_reduce, reduce_with_initial


def _apply_initial(func: Callable[..., Any], initial: Any, part: Any, axis: Any) -> Any:
    return reduce_with_initial(func, part, axis, initial=initial)


def with_identity(
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
    ``initial`` is applied once, at the end, with ``initial_func``."""
    unsupported(name, out=out, where=where)
    x = astensor(a)
    axes = normalize_axis(axis, x.ndim)
    extra = {"initial": initial} if given(initial) else {}
    out_dtype = probe_dtype(npfunc, x.dtype, dtype=dtype, **extra)
    return pairwise_reduce(
        x,
        name,
        functools.partial(numpy_chunk, npfunc, dtype=out_dtype),
        pairwise,
        axes,
        keepdims,
        out_dtype,
        finalize=functools.partial(_apply_initial, initial_func, initial) if extra else None,
    )


def without_identity(
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
    """``min``-like: no identity, so an empty reduced axis is an error (unless ``initial``,
    which then goes into every chunk)."""
    unsupported(name, out=out, where=where)
    x = astensor(a)
    axes = normalize_axis(axis, x.ndim)
    extra = {"initial": initial} if given(initial) else {}
    out_dtype = probe_dtype(probe, x.dtype, **extra)
    probe_shape(probe, x, axes, axes, **extra)
    return pairwise_reduce(
        x,
        name,
        functools.partial(numpy_chunk, npfunc, skip_empty=not extra, **extra),
        pairwise,
        axes,
        keepdims,
        out_dtype,
    )


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
    unsupported(name, out=out, where=where)
    x = astensor(a)
    out_dtype = probe_dtype(npfunc, x.dtype)
    return pairwise_reduce(
        x, name, functools.partial(numpy_chunk, npfunc), pairwise, axis, keepdims, out_dtype
    )


@accepts_out(np.sum)
def sum(  # noqa: A001
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    keepdims: bool = False,
    initial: Any = NOVALUE,
    where: Any = NOVALUE,
) -> Tensor:
    """Lazy, chunked ``numpy.sum``."""
    return with_identity(
        "sum", np.sum, np.add, np.sum, a, axis, dtype, out, keepdims, initial, where
    )


@accepts_out(np.prod)
def prod(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    keepdims: bool = False,
    initial: Any = NOVALUE,
    where: Any = NOVALUE,
) -> Tensor:
    """Lazy, chunked ``numpy.prod``."""
    return with_identity(
        "prod", np.prod, np.multiply, np.prod, a, axis, dtype, out, keepdims, initial, where
    )


@accepts_out(np.max)
def max(  # noqa: A001
    a: Any,
    axis: Any = None,
    out: Any = None,
    keepdims: bool = False,
    initial: Any = NOVALUE,
    where: Any = NOVALUE,
) -> Tensor:
    """Lazy, chunked ``numpy.max`` (NaN propagates); an empty axis raises ValueError."""
    return without_identity(
        "max", np.max, np.maximum, np.max, a, axis, out, keepdims, initial, where
    )


@accepts_out(np.min)
def min(  # noqa: A001
    a: Any,
    axis: Any = None,
    out: Any = None,
    keepdims: bool = False,
    initial: Any = NOVALUE,
    where: Any = NOVALUE,
) -> Tensor:
    """Lazy, chunked ``numpy.min`` (NaN propagates); an empty axis raises ValueError."""
    return without_identity(
        "min", np.min, np.minimum, np.min, a, axis, out, keepdims, initial, where
    )


amax = max
amin = min


@accepts_out(np.any)
def any(  # noqa: A001
    a: Any, axis: Any = None, out: Any = None, keepdims: bool = False, *, where: Any = NOVALUE
) -> Tensor:
    """Lazy, chunked ``numpy.any``."""
    return _logical("any", np.any, np.logical_or, a, axis, out, keepdims, where)


@accepts_out(np.all)
def all(  # noqa: A001
    a: Any, axis: Any = None, out: Any = None, keepdims: bool = False, *, where: Any = NOVALUE
) -> Tensor:
    """Lazy, chunked ``numpy.all``."""
    return _logical("all", np.all, np.logical_and, a, axis, out, keepdims, where)
