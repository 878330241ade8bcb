"""``mean``, ``var``, ``std`` and the two builders their NaN forms (``nan.py``) share.

A mean is carried as ``(sum, count)`` partials. A variance uses the numerically stable
parallel algorithm: each chunk gives ``(count, mean, M2)`` computed in two passes, and
partials are merged with Chan et al.'s update, so data with a large offset keeps its
precision. Both accumulate in the dtype NumPy uses; ``ddof`` follows NumPy, and NumPy's
warnings for an empty slice or ``ddof`` not below the count are raised at build time.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from jupyter_mars.engine.devices import array_module
from jupyter_mars.engine.sparse import to_dense
from jupyter_mars.engine.sparse_ops import sparse_reduce
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.outputs import accepts_out
from jupyter_mars.tensor.reduction._probe import probe_ddof, probe_dtype, probe_shape
from jupyter_mars.tensor.reduction.args import NOVALUE, check_ddof, normalize_axis, unsupported
from jupyter_mars.tensor.reduction.core import (
    SPARSE_TWINS,
    count_chunk,
    pairwise_reduce,
    zip_pairwise,
)


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


def _drop_nans(values: Any, skipna: bool, axis: Any) -> tuple[Any, Any, Any]:
    """``values`` with NaNs as 0, the count of the others (shaped as a partial), and the NaN
    mask; without ``skipna`` the values as they are, the item count and no mask."""
    if not skipna:
        return values, count_chunk(np.dtype(np.intp), values, axis, True), None
    mask = np.isnan(values)
    count = np.sum(~mask, axis=axis, keepdims=True, dtype=np.intp)
    return np.where(mask, 0, values), count, mask


# ---- mean and nanmean: (sum, count) pairs -------------------------------------------------------


def _mean_chunk(skipna: bool, dtype: np.dtype[Any], block: Any, axis: Any, keepdims: bool) -> Any:
    with np.errstate(all="ignore"):
        values, count, _ = _drop_nans(block, skipna, axis)
        total = np.sum(values, axis=axis, keepdims=True, dtype=dtype)
    return total, count


def _sparse_mean_chunk(
    skipna: bool, dtype: np.dtype[Any], block: Any, axis: Any, keepdims: bool
) -> Any:
    """``_mean_chunk`` of a sparse block: SciPy's sum (stored values only) and the count."""
    if skipna:
        return _mean_chunk(skipna, dtype, to_dense(block), axis, keepdims)
    with np.errstate(all="ignore"):
        total = sparse_reduce("sum", block, axis, dtype)
    return total, count_chunk(np.dtype(np.intp), block, axis, True)


SPARSE_TWINS[_mean_chunk] = _sparse_mean_chunk


def _mean_finalize(part: Any, axis: Any) -> Any:
    total, count = part
    return np.true_divide(total, count)


def mean_reduction(
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
    unsupported(name, out=out, where=where)
    x = astensor(a)
    axes = normalize_axis(axis, x.ndim)
    out_dtype = probe_dtype(npfunc, x.dtype, dtype=dtype)
    probe_shape(npfunc, x, axes, axes, dtype=dtype)
    work = _work_dtype(x.dtype, dtype)
    return pairwise_reduce(
        x,
        name,
        functools.partial(_mean_chunk, skipna and x.dtype.kind in "fc", work),
        functools.partial(zip_pairwise, (np.add, np.add)),
        axes,
        keepdims,
        out_dtype,
        finalize=_mean_finalize,
    )


@accepts_out(np.mean)
def mean(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    keepdims: bool = False,
    *,
    where: Any = NOVALUE,
) -> Tensor:
    """Lazy, chunked ``numpy.mean`` (float64 for integer input, accumulated as NumPy does)."""
    return mean_reduction("mean", np.mean, False, a, axis, dtype, out, keepdims, where)


# ---- var, std and NaN forms: (count, mean, M2) triples ------------------------------------------


def _abs2(d: Any) -> Any:
    if np.iscomplexobj(d):
        return d.real * d.real + d.imag * d.imag
    return d * d


def _moments_chunk(
    skipna: bool, dtype: np.dtype[Any], block: Any, axis: Any, keepdims: bool
) -> Any:
    """``(count, mean, M2)`` of one chunk: mean first, then the squared deviations from it."""
    with np.errstate(all="ignore"):
        values = array_module(block).asarray(block).astype(dtype, copy=False)
        real = np.empty(0, dtype=dtype).real.dtype  # a dtype: no chunk is made
        values, count, mask = _drop_nans(values, skipna, axis)
        total = np.sum(values, axis=axis, keepdims=True)
        mean = np.where(count > 0, total / count.astype(real), 0).astype(dtype, copy=False)
        deviation = values - mean
        if mask is not None:
            deviation = np.where(mask, 0, deviation)
        m2 = np.sum(_abs2(deviation), axis=axis, keepdims=True)
    return count, mean, m2


def _moments_pair(a: Any, b: Any) -> Any:
    """Chan et al.'s merge of two ``(count, mean, M2)`` partials."""
    count_a, mean_a, m2_a = a
    count_b, mean_b, m2_b = b
    count = count_a + count_b
    real = m2_a.dtype
    share_b = np.where(count > 0, count_b / np.maximum(count, 1).astype(real), 0).astype(real)
    delta = mean_b - mean_a
    mean = (mean_a + delta * share_b).astype(mean_a.dtype, copy=False)
    m2 = m2_a + m2_b + _abs2(delta) * count_a.astype(real) * share_b
    return count, mean, m2


def _moments_finalize(skipna: bool, ddof: Any, sqrt: bool, part: Any, axis: Any) -> Any:
    count, _, m2 = part
    dof = count - ddof
    if skipna:
        result = np.where(dof > 0, m2 / dof, np.nan)
    else:
        result = m2 / np.maximum(dof, 0)
    return np.sqrt(result) if sqrt else result


def moments_reduction(
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
    """``var`` (``sqrt=False``) or ``std``, skipping NaNs with ``skipna``."""
    unsupported(name, out=out, where=where, mean=mean)
    ddof = check_ddof(ddof, correction, name)
    x = astensor(a)
    axes = normalize_axis(axis, x.ndim)
    out_dtype = probe_dtype(npfunc, x.dtype, dtype=dtype)
    probe_ddof(npfunc, x, axes, ddof, dtype=dtype)
    work = _work_dtype(x.dtype, dtype)
    if work.kind not in "fc":
        work = np.dtype(np.float64)
    return pairwise_reduce(
        x,
        name,
        functools.partial(_moments_chunk, skipna and x.dtype.kind in "fc", work),
        _moments_pair,
        axes,
        keepdims,
        out_dtype,
        finalize=functools.partial(_moments_finalize, skipna, ddof, sqrt),
    )


@accepts_out(np.var)
def var(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    ddof: Any = 0,
    keepdims: bool = False,
    *,
    where: Any = NOVALUE,
    mean: Any = NOVALUE,
    correction: Any = NOVALUE,
) -> Tensor:
    """Lazy, chunked ``numpy.var``, merged per chunk as (count, mean, M2): stable for data
    far from zero. ``ddof`` at least the item count gives inf/nan and NumPy's warning."""
    return moments_reduction(
        "var", np.var, False, False, a, axis, dtype, out, ddof, keepdims, where, mean, correction
    )


@accepts_out(np.std)
def std(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    ddof: Any = 0,
    keepdims: bool = False,
    *,
    where: Any = NOVALUE,
    mean: Any = NOVALUE,
    correction: Any = NOVALUE,
) -> Tensor:
    """Lazy, chunked ``numpy.std``: the square root of ``var``."""
    return moments_reduction(
        "std", np.std, False, True, a, axis, dtype, out, ddof, keepdims, where, mean, correction
    )
