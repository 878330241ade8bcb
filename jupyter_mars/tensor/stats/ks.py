"""``ks_2samp``, ``rankdata`` (and ``ks_1samp`` with ``nan_policy='omit'``): SciPy on
blocks whose tested axis is whole.

The tests and the ranks depend on the order of a whole slice, so the tested axis is
gathered into one chunk while the other axes keep theirs (``apply_whole_axes``); each block
is one SciPy call. The tests' four outputs travel packed along a last axis of length four
(statistic, p-value, location, sign) and are taken apart lazily. SciPy is first called on a
tiny sample of the same dtype, so bad arguments fail at the call and the dtypes of the
results are SciPy's.
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from scipy import stats as sp_stats

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.elemwise import broadcast_shapes, elemwise
from jupyter_mars.tensor.shape import broadcast_to, concatenate, expand_dims, moveaxis
from jupyter_mars.tensor.shape.common import check_axis
from jupyter_mars.tensor.statistics import apply_whole_axes
from jupyter_mars.tensor.stats._common import check_nan_policy, no_nan
from jupyter_mars.tensor.stats._results import KstestResult
from jupyter_mars.tensor.stats.twosample import ks_2samp_sorted, use_sorted_path

_FIELDS = ("statistic", "pvalue", "statistic_location", "statistic_sign")


def _packed(result: Any) -> Any:
    return np.stack([np.asarray(getattr(result, f), dtype=np.float64) for f in _FIELDS], -1)


def ks_1samp_block(block: Any, cdf: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    return _packed(sp_stats.ks_1samp(block, cdf, args, axis=-1, **kwargs))


def ks_2samp_block(block: Any, n1: int, kwargs: dict[str, Any]) -> Any:
    """The test of the first ``n1`` values of each slice against the rest."""
    return _packed(sp_stats.ks_2samp(block[..., :n1], block[..., n1:], axis=-1, **kwargs))


def _sample(dtype: np.dtype[Any], ndim: int) -> Any:
    """Three values along the last of ``ndim`` axes (SciPy's dtypes vary with ``ndim``)."""
    return np.linspace(0.1, 0.9, 3).astype(dtype).reshape((1,) * (ndim - 1) + (3,))


def _meta(call: Callable[[], Any]) -> list[np.dtype[Any]]:
    """SciPy's result dtypes for a tiny sample (and its errors for bad arguments)."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        result = call()
    return [np.asarray(getattr(result, f)).dtype for f in _FIELDS]


def unpack(packed: Tensor, dtypes: list[np.dtype[Any]], axis: int, keepdims: bool) -> KstestResult:
    fields = []
    for i, dtype in enumerate(dtypes):
        field = packed[..., i].astype(dtype)
        fields.append(expand_dims(field, axis) if keepdims else field)
    return KstestResult(
        fields[0], fields[1], statistic_location=fields[2], statistic_sign=fields[3]
    )


def last_axis(x: Tensor, axis: Any) -> tuple[Tensor, int]:
    if axis is None:
        return x.ravel(), 0
    if x.ndim == 0:
        x = x.reshape(1)
    axis = check_axis(axis, x.ndim, expected="an int or None")
    return moveaxis(x, axis, -1), axis


def _whole_last(x: Tensor, func: Callable[..., Any], name: str) -> Tensor:
    nd = x.ndim
    return apply_whole_axes(
        x,
        func,
        (nd - 1,),
        (*range(nd - 1), None),
        (*x.shape[:-1], len(_FIELDS)),
        np.float64,
        name,
    )


def ks_1samp_gathered(
    t: Tensor,
    axis: int,
    cdf: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    dtypes: list[np.dtype[Any]],
    keepdims: bool,
) -> KstestResult:
    """The one-sample test of ``t`` (its tested axis moved last) by SciPy on whole slices."""
    func = functools.partial(ks_1samp_block, cdf=cdf, args=tuple(args), kwargs=kwargs)
    return unpack(_whole_last(t, func, "ks_1samp"), dtypes, axis, keepdims)


def ks_1samp_dtypes(
    t: Tensor, cdf: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> list[np.dtype[Any]]:
    """SciPy's dtypes of the four results for samples like ``t`` (its errors, if any)."""
    sample = _sample(t.dtype, t.ndim)
    return _meta(lambda: sp_stats.ks_1samp(sample, cdf, args, axis=-1, **kwargs))


def ks_2samp(
    data1: Any,
    data2: Any,
    alternative: str = "two-sided",
    method: str = "auto",
    *,
    axis: Any = 0,
    nan_policy: str = "propagate",
    keepdims: bool = False,
    mode: str | None = None,
) -> KstestResult:
    """SciPy's two-sample Kolmogorov-Smirnov test along ``axis``: both samples are joined
    along it (gathered whole; the other axes, broadcast, keep their chunks). Two large 1-d
    samples tested asymptotically go over parallel sorts instead (see ``twosample``)."""
    method = mode if mode is not None else method  # Mars's (and older SciPy's) name
    check_nan_policy(nan_policy)
    t1, t2 = astensor(data1), astensor(data2)
    if axis is not None:
        nd = max(t1.ndim, t2.ndim, 1)
        t1, t2 = (t.reshape((1,) * (nd - t.ndim) + t.shape) if t.ndim < nd else t for t in (t1, t2))
    t1, ax = last_axis(t1, axis)
    t2, _ = last_axis(t2, axis)
    dtype = np.result_type(t1.dtype, t2.dtype)
    kwargs = {"alternative": alternative, "method": method, "nan_policy": nan_policy}
    sample = _sample(dtype, t1.ndim)
    dtypes = _meta(lambda: sp_stats.ks_2samp(sample, sample + 0.05, axis=-1, **kwargs))
    n1, n2 = t1.shape[-1], t2.shape[-1]
    if t1.ndim == 1 and nan_policy != "omit" and use_sorted_path(n1, n2, method):
        if nan_policy == "raise":
            t1, t2 = (elemwise(no_nan, t, dtype=t.dtype, name="no_nan") for t in (t1, t2))
        fields = ks_2samp_sorted(t1.astype(dtype), t2.astype(dtype), alternative, dtypes)
        if keepdims:
            fields = [expand_dims(f, ax) for f in fields]
        return KstestResult(
            fields[0], fields[1], statistic_location=fields[2], statistic_sign=fields[3]
        )
    if math.isnan(n1):
        raise ValueError("ks_2samp needs the length of data1 along axis: execute it first")
    others = broadcast_shapes(t1.shape[:-1], t2.shape[:-1])
    t1, t2 = (
        (broadcast_to(t, (*others, t.shape[-1])) if t.shape[:-1] != others else t).astype(dtype)
        for t in (t1, t2)
    )
    func = functools.partial(ks_2samp_block, n1=int(n1), kwargs=kwargs)
    joined = concatenate([t1, t2], axis=-1)
    return unpack(_whole_last(joined, func, "ks_2samp"), dtypes, ax, keepdims)


def rankdata_block(block: Any, method: str, nan_policy: str) -> Any:
    return sp_stats.rankdata(block, method, axis=-1, nan_policy=nan_policy)


def rankdata(
    a: Any, method: str = "average", *, axis: Any = None, nan_policy: str = "propagate"
) -> Tensor:
    """SciPy's ranks of ``a`` along ``axis`` (all of it, flattened, when None): the axis is
    gathered whole, the other axes keep their chunks."""
    check_nan_policy(nan_policy)
    t = astensor(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dtype = sp_stats.rankdata(np.zeros(2, dtype=t.dtype), method).dtype
    if axis is None:
        t = t.ravel()
        axis = 0
    if t.ndim == 0:
        t = t.reshape(1)
    axis = check_axis(axis, t.ndim, expected="an int or None")
    moved = moveaxis(t, axis, -1)
    func = functools.partial(rankdata_block, method=method, nan_policy=nan_policy)
    nd = moved.ndim
    ranks = apply_whole_axes(
        moved, func, (nd - 1,), tuple(range(nd)), moved.shape, dtype, "rankdata"
    )
    return moveaxis(ranks, -1, axis)
