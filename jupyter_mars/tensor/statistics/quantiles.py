"""Order statistics: ``percentile``, ``quantile``, ``median`` and their ``nan`` forms.

They need every value of a slice at once: the reduced axes are rechunked to a single chunk
(the other axes keep their chunks) and NumPy runs per chunk. With ``axis=None`` that gathers
the whole array into one chunk.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from jupyter_mars.engine.devices import array_module
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.gpu_kernels import NotOnGPU, check_on_gpu, on_gpu
from jupyter_mars.tensor.outputs import accepts_out
from jupyter_mars.tensor.reduction import normalize_axis, reduced_shape
from jupyter_mars.tensor.statistics.common import apply_whole_axes

GPU_METHODS = frozenset({"linear", "lower", "higher", "midpoint", "nearest"})
"""The ``method``s CuPy's ``percentile`` and ``quantile`` have."""


def quantile_block(
    block: Any, func: Callable[..., Any], q: Any, axis: Any, keepdims: bool, kwargs: dict[str, Any]
) -> Any:
    xp = array_module(block)
    if xp is not np and np.ndim(q):
        q = xp.asarray(q)  # the quantiles asked for, an array on the host, go along
    return xp.asarray(func(block, q, axis=axis, keepdims=keepdims, **kwargs))


def median_block(block: Any, func: Callable[..., Any], axis: Any, keepdims: bool) -> Any:
    return array_module(block).asarray(func(block, axis=axis, keepdims=keepdims))


def _check_out(name: str, out: Any) -> None:
    if out is not None:
        raise TypeError(f"{name}(): the 'out' argument is not supported on tensors")


def _order_statistic(
    name: str,
    npfunc: Callable[..., Any],
    a: Any,
    q: Any,
    axis: Any,
    keepdims: bool,
    kwargs: dict[str, Any],
) -> Tensor:
    x = astensor(a)
    check_on_gpu(f"{name}()", npfunc.__name__, x)
    method = kwargs.get("method", "linear")
    if on_gpu(x) and method not in GPU_METHODS:
        raise NotOnGPU(
            f"{name}(method={method!r}) does not run on a GPU: CuPy's methods are "
            f"{', '.join(sorted(GPU_METHODS))}; call .to_cpu() on its GPU input first"
        )
    axes = normalize_axis(axis, x.ndim)
    if not isinstance(keepdims, (bool, np.bool_)):
        raise TypeError(f"{name}(): keepdims must be True or False, got {keepdims!r}")
    keepdims = bool(keepdims)
    whole = len(axes) == x.ndim
    np_axis: Any = None if whole and not keepdims else axes
    probe = np.zeros((1,) * x.ndim, dtype=x.dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        if q is None:
            meta = np.asarray(npfunc(probe, axis=np_axis, keepdims=keepdims))
        else:
            meta = np.asarray(npfunc(probe, q, axis=np_axis, keepdims=keepdims, **kwargs))
    qshape = () if q is None else np.shape(q)
    kept = reduced_shape(x.shape, axes, keepdims)
    shape = qshape + kept
    out_axes: tuple[int | None, ...] = (None,) * len(qshape) + tuple(
        None if a in axes else a for a in range(x.ndim) if keepdims or a not in axes
    )
    if q is None:
        func = functools.partial(median_block, func=npfunc, axis=np_axis, keepdims=keepdims)
    else:
        func = functools.partial(
            quantile_block, func=npfunc, q=q, axis=np_axis, keepdims=keepdims, kwargs=kwargs
        )
    return apply_whole_axes(x, func, axes, out_axes, shape, meta.dtype, name)


def _q_array(q: Any) -> Any:
    if isinstance(q, Tensor):
        return np.asarray(q)  # executes it: the output shape depends on q's
    if np.ndim(q) == 0:
        return q
    return np.asarray(q)


def _quantile_kwargs(name: str, method: str, weights: Any, interpolation: Any) -> dict[str, Any]:
    if weights is not None:
        raise NotImplementedError(f"{name}(): weights are not supported on tensors yet")
    if interpolation is not None:
        raise TypeError(f"{name}(): 'interpolation' was renamed 'method' in NumPy 1.22")
    return {"method": method}


@accepts_out(np.percentile)
def percentile(
    a: Any,
    q: Any,
    axis: Any = None,
    out: Any = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: Any = None,
    interpolation: Any = None,
) -> Tensor:
    """The ``q``-th percentiles of ``a`` along ``axis`` (NumPy's ``percentile``).

    The reduced axes are rechunked to one chunk (other axes keep theirs) and NumPy runs
    per chunk; ``axis=None`` gathers the whole array into one chunk. ``q`` is a number or
    array-like (a tensor ``q`` is executed first: the result's shape depends on it).
    """
    _check_out("percentile", out)
    kwargs = _quantile_kwargs("percentile", method, weights, interpolation)
    return _order_statistic("percentile", np.percentile, a, _q_array(q), axis, keepdims, kwargs)


@accepts_out(np.quantile)
def quantile(
    a: Any,
    q: Any,
    axis: Any = None,
    out: Any = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: Any = None,
    interpolation: Any = None,
) -> Tensor:
    """The ``q``-th quantiles of ``a`` along ``axis`` (NumPy's ``quantile``); see
    ``percentile`` for how it is computed."""
    _check_out("quantile", out)
    kwargs = _quantile_kwargs("quantile", method, weights, interpolation)
    return _order_statistic("quantile", np.quantile, a, _q_array(q), axis, keepdims, kwargs)


@accepts_out(np.nanpercentile)
def nanpercentile(
    a: Any,
    q: Any,
    axis: Any = None,
    out: Any = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: Any = None,
    interpolation: Any = None,
) -> Tensor:
    """``percentile`` ignoring NaNs (NumPy's ``nanpercentile``)."""
    _check_out("nanpercentile", out)
    kwargs = _quantile_kwargs("nanpercentile", method, weights, interpolation)
    return _order_statistic(
        "nanpercentile", np.nanpercentile, a, _q_array(q), axis, keepdims, kwargs
    )


@accepts_out(np.nanquantile)
def nanquantile(
    a: Any,
    q: Any,
    axis: Any = None,
    out: Any = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: Any = None,
    interpolation: Any = None,
) -> Tensor:
    """``quantile`` ignoring NaNs (NumPy's ``nanquantile``)."""
    _check_out("nanquantile", out)
    kwargs = _quantile_kwargs("nanquantile", method, weights, interpolation)
    return _order_statistic("nanquantile", np.nanquantile, a, _q_array(q), axis, keepdims, kwargs)


@accepts_out(np.median)
def median(
    a: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False, keepdims: bool = False
) -> Tensor:
    """The median along ``axis``; the reduced axes are rechunked to one chunk (all of the
    array for ``axis=None``)."""
    _check_out("median", out)
    return _order_statistic("median", np.median, a, None, axis, keepdims, {})


@accepts_out(np.nanmedian)
def nanmedian(
    a: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False, keepdims: bool = False
) -> Tensor:
    """``median`` ignoring NaNs (NumPy's ``nanmedian``)."""
    _check_out("nanmedian", out)
    return _order_statistic("nanmedian", np.nanmedian, a, None, axis, keepdims, {})
