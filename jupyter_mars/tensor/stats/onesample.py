"""``ks_1samp``: the one-sample Kolmogorov-Smirnov test over a parallel sort.

The tested axis is moved last and sorted (the sort keeps the input's chunks); the
distribution function is applied chunk by chunk, and the largest distances above and
below the empirical distribution function, with where they are, are reductions. The
p-value follows element by element from the statistic and the sample size, with SciPy's
distributions. With ``nan_policy='omit'``, or a length a filter decides, SciPy runs on
whole slices instead (see ``ks``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
from scipy.stats import distributions

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.creation import arange
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.elemwise import elemwise
from jupyter_mars.tensor.reduction import argmax
from jupyter_mars.tensor.reduction import max as tensor_max
from jupyter_mars.tensor.reduction import sum as tensor_sum
from jupyter_mars.tensor.shape import expand_dims
from jupyter_mars.tensor.sorting import sort
from jupyter_mars.tensor.stats._common import check_nan_policy, no_nan
from jupyter_mars.tensor.stats._results import KstestResult
from jupyter_mars.tensor.stats.ks import (
    ks_1samp_dtypes,
    ks_1samp_gathered,
    last_axis,
)


def apply_cdf(block: Any, cdf: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    return np.asarray(cdf(block, *args), dtype=block.dtype)


def pick(onehot: Any, values: Any) -> Any:
    """``values`` where ``onehot`` holds, zero elsewhere (NaNs elsewhere ignored)."""
    return np.where(onehot, values, 0)


def ks_pvalue(d: Any, n: int, alternative: str, mode: str) -> Any:
    """SciPy's p-value of the one-sample statistic ``d`` of ``n`` values."""
    with np.errstate(all="ignore"):
        if alternative != "two-sided":
            p = distributions.ksone.sf(d, n)
        elif mode in ("auto", "exact"):
            p = distributions.kstwo.sf(d, n)
        elif mode == "asymp":
            p = distributions.kstwobign.sf(d * math.sqrt(n))
        else:
            p = 2 * distributions.ksone.sf(d, n)
    p = np.asarray(p, dtype=np.result_type(d))
    return np.clip(p, 0.0, 1.0) if alternative == "two-sided" else p


def _largest(distance: Tensor, xs: Tensor, n: int) -> tuple[Tensor, Tensor]:
    """The largest ``distance`` along the last axis, and the sample value where it is."""
    where = argmax(distance, axis=-1)
    onehot = elemwise(np.equal, arange(n), expand_dims(where, -1))
    location = tensor_sum(elemwise(pick, onehot, xs, dtype=xs.dtype), axis=-1)
    return tensor_max(distance, axis=-1), location


def _choose(plus: Any, minus: Any, d_plus: Any, d_minus: Any) -> Any:
    return np.where(d_plus > d_minus, plus, minus)


def ks_1samp(
    x: Any,
    cdf: Callable[..., Any],
    args: tuple[Any, ...] = (),
    alternative: str = "two-sided",
    method: str = "auto",
    *,
    axis: Any = 0,
    nan_policy: str = "propagate",
    keepdims: bool = False,
    mode: str | None = None,
) -> KstestResult:
    """SciPy's one-sample Kolmogorov-Smirnov test of ``x`` against the distribution
    function ``cdf`` along ``axis``, over a parallel sort of the sample."""
    method = mode if mode is not None else method  # Mars's (and older SciPy's) name
    check_nan_policy(nan_policy)
    t, ax = last_axis(astensor(x), axis)
    kwargs = {"alternative": alternative, "method": method, "nan_policy": nan_policy}
    dtypes = ks_1samp_dtypes(t, cdf, tuple(args), kwargs)
    n = t.shape[-1]
    if nan_policy == "omit" or math.isnan(n) or n == 0:
        return ks_1samp_gathered(t, ax, cdf, tuple(args), kwargs, dtypes, keepdims)
    side = {"t": "two-sided", "g": "greater", "l": "less"}.get(alternative.lower()[0])
    if nan_policy == "raise":
        t = elemwise(no_nan, t, dtype=t.dtype, name="no_nan")
    dtype = t.dtype if t.dtype.kind == "f" else np.dtype(np.float64)
    xs = sort(t.astype(dtype), axis=-1)
    # the arguments of cdf bound first: elemwise takes tuples for arrays
    cdfvals = elemwise(
        functools.partial(apply_cdf, cdf=cdf, args=tuple(args)), xs, dtype=dtype, name="cdf"
    )
    steps = arange(n, dtype=dtype)
    d_plus, at_plus = _largest((steps + 1) / n - cdfvals, xs, n)
    d_minus, at_minus = _largest(cdfvals - steps / n, xs, n)
    if side == "greater":
        d, location = d_plus, at_plus
        sign = elemwise(np.full_like, d, 1, dtype=np.int8)
    elif side == "less":
        d, location = d_minus, at_minus
        sign = elemwise(np.full_like, d, -1, dtype=np.int8)
    else:
        d = elemwise(_choose, d_plus, d_minus, d_plus, d_minus)
        location = elemwise(_choose, at_plus, at_minus, d_plus, d_minus)
        sign = elemwise(_choose, 1, -1, d_plus, d_minus, dtype=np.int8)
    pvalue = elemwise(ks_pvalue, d, int(n), side, method, dtype=d.dtype, name="ks_pvalue")
    fields = [f.astype(dt) for f, dt in zip((d, pvalue, location, sign), dtypes)]
    if keepdims:
        fields = [expand_dims(f, ax) for f in fields]
    return KstestResult(
        fields[0], fields[1], statistic_location=fields[2], statistic_sign=fields[3]
    )
