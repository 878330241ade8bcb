"""Student's t tests: ``ttest_1samp``, ``ttest_ind``, ``ttest_ind_from_stats``, ``ttest_rel``.

Means, variances and counts are tree reductions over the chunks of the samples (the
NaN-skipping ones with ``nan_policy='omit'``); the statistic, the degrees of freedom and
the p-value then follow element by element, on the reduced shape.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.creation import full
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.elemwise import elemwise
from jupyter_mars.tensor.reduction import count_nonzero, mean, nanmean, nanvar, var
from jupyter_mars.tensor.shape import broadcast_to, expand_dims, squeeze
from jupyter_mars.tensor.stats._common import (
    check_alternative,
    check_nan_policy,
    divide,
    length_or_count,
    prepare,
    t_pvalue,
)
from jupyter_mars.tensor.stats._results import Ttest_indResult, TtestResult


def _present(x: Any) -> Any:
    return ~np.isnan(x)


def _moments(a: Tensor, axis: int, omit: bool) -> tuple[Tensor, Tensor, Any]:
    """Mean, variance (ddof 1) and count along ``axis``."""
    if omit:
        # SciPy's dtypes here depend on where the NaNs are; a count is float64 but for
        # a single slice
        count = count_nonzero(elemwise(_present, a), axis=axis)
        if a.ndim > 1:
            count = count.astype(np.float64)
        return nanmean(a, axis=axis), nanvar(a, axis=axis, ddof=1), count
    return mean(a, axis=axis), var(a, axis=axis, ddof=1), length_or_count(a, axis)


def _two_sample(
    which: str, m1: Any, v1: Any, n1: Any, m2: Any, v2: Any, n2: Any, equal_var: bool
) -> Any:
    """The statistic (``which='t'``) or degrees of freedom (``'df'``) of two samples."""
    # plain operators, not NumPy functions, so that Python counts stay weakly typed
    # (float32 samples give float32 results, as in SciPy)
    with np.errstate(divide="ignore", invalid="ignore"):
        if equal_var:
            # one observation: its variance is undefined, but the pooled one is not
            v1 = np.where(n1 == 1, 0.0, v1)
            v2 = np.where(n2 == 1, 0.0, v2)
            df = n1 + n2 - 2.0
            denom = np.sqrt(((n1 - 1) * v1 + (n2 - 1) * v2) / df * (1.0 / n1 + 1.0 / n2))
            df = np.asarray(df, dtype=denom.dtype)
        else:
            vn1, vn2 = v1 / n1, v2 / n2
            df = (vn1 + vn2) ** 2 / (vn1**2 / (n1 - 1) + vn2**2 / (n2 - 1))
            # undefined only when both variances are zero, where any df gives the same p
            df = np.where(np.isnan(df), 1.0, df)
            denom = np.sqrt(vn1 + vn2)
        shape = np.broadcast(m1, m2, denom).shape
        if which == "df":
            return np.broadcast_to(df, shape)
        if which == "denom":
            return np.broadcast_to(denom, shape)
        return np.divide(np.subtract(m1, m2), denom)


def _finish(
    t: Tensor,
    df: Any,
    alternative: str,
    axis: int,
    keepdims: bool,
    standard_error: Tensor,
    estimate: Tensor,
) -> TtestResult:
    if not isinstance(df, Tensor) or df.shape != t.shape:
        df = broadcast_to(astensor(df), t.shape) if isinstance(df, Tensor) else full(t.shape, df)
    p = t_pvalue(t, df, alternative)
    parts = [t, p, df, standard_error, estimate]
    if keepdims:
        parts = [expand_dims(x, axis) for x in parts]
    t, p, df, standard_error, estimate = parts
    result = TtestResult(t, p, df=df)
    result.set_interval_parts(alternative, standard_error, estimate)
    return result


def ttest_1samp(
    a: Any,
    popmean: Any,
    axis: Any = 0,
    nan_policy: str = "propagate",
    alternative: str = "two-sided",
    *,
    keepdims: bool = False,
) -> TtestResult:
    """SciPy's one-sample t test of the mean of ``a`` along ``axis``."""
    check_alternative(alternative)
    a, axis = prepare(a, axis, nan_policy)
    m, v, n = _moments(a, axis, nan_policy == "omit")
    # a Python number stays weakly typed: float32 samples give float32 results
    pm = popmean if isinstance(popmean, (int, float)) else astensor(popmean)
    if isinstance(pm, Tensor) and pm.ndim > 0:
        if pm.ndim != a.ndim or pm.shape[axis] != 1:
            raise ValueError("`popmean.shape[axis]` must equal 1.")
        pm = squeeze(pm, axis=axis)
    denom = elemwise(np.sqrt, elemwise(divide, v, n))
    t = elemwise(divide, m - pm, denom)
    return _finish(t, n - 1, alternative, axis, keepdims, denom, m)


def _as_pair(a: Any, b: Any, axis: Any, nan_policy: str) -> tuple[Tensor, Tensor, int]:
    ta, tb = astensor(a), astensor(b)
    if axis is not None:
        ndim = max(ta.ndim, tb.ndim, 1)
        ta, tb = (
            t.reshape((1,) * (ndim - t.ndim) + t.shape) if t.ndim < ndim else t for t in (ta, tb)
        )
    ta, ax = prepare(ta, axis, nan_policy)
    tb, _ = prepare(tb, axis, nan_policy)
    return ta, tb, ax


def ttest_ind(
    a: Any,
    b: Any,
    axis: Any = 0,
    equal_var: bool = True,
    nan_policy: str = "propagate",
    alternative: str = "two-sided",
    trim: float = 0,
    method: Any = None,
    *,
    keepdims: bool = False,
    permutations: Any = None,
    random_state: Any = None,
) -> TtestResult:
    """SciPy's t test of two independent samples (Student's, or Welch's with
    ``equal_var=False``). Trimming and resampling methods are not supported."""
    check_alternative(alternative)
    for name, value in (("trim", trim), ("method", method), ("permutations", permutations)):
        if value:
            raise NotImplementedError(f"ttest_ind: {name}= is not supported on tensors")
    ta, tb, axis = _as_pair(a, b, axis, nan_policy)
    omit = nan_policy == "omit"
    m1, v1, n1 = _moments(ta, axis, omit)
    m2, v2, n2 = _moments(tb, axis, omit)
    parts = (m1, v1, n1, m2, v2, n2, bool(equal_var))
    t = elemwise(_two_sample, "t", *parts)
    df = elemwise(_two_sample, "df", *parts)
    denom = elemwise(_two_sample, "denom", *parts)
    return _finish(t, df, alternative, axis, keepdims, denom, m1 - m2)


def ttest_ind_from_stats(
    mean1: Any,
    std1: Any,
    nobs1: Any,
    mean2: Any,
    std2: Any,
    nobs2: Any,
    equal_var: bool = True,
    alternative: str = "two-sided",
) -> Ttest_indResult:
    """SciPy's t test of two independent samples given by their descriptive statistics."""
    check_alternative(alternative)
    m1, s1, m2, s2 = (astensor(x) for x in (mean1, std1, mean2, std2))
    parts = (
        m1,
        elemwise(np.square, s1),
        nobs1,
        m2,
        elemwise(np.square, s2),
        nobs2,
        bool(equal_var),
    )
    t = elemwise(_two_sample, "t", *parts)
    df = elemwise(_two_sample, "df", *parts)
    return Ttest_indResult(t, t_pvalue(t, df, alternative))


def ttest_rel(
    a: Any,
    b: Any,
    axis: Any = 0,
    nan_policy: str = "propagate",
    alternative: str = "two-sided",
    *,
    keepdims: bool = False,
) -> TtestResult:
    """SciPy's t test of two related samples: a one-sample test of their differences."""
    check_alternative(alternative)
    check_nan_policy(nan_policy)
    ta, tb, axis_ = _as_pair(a, b, axis, nan_policy)
    n1, n2 = ta.shape[axis_], tb.shape[axis_]
    if not (math.isnan(n1) or math.isnan(n2)) and n1 != n2:
        raise ValueError("Array shapes are incompatible for broadcasting.")
    return ttest_1samp(ta - tb, 0, axis_, nan_policy, alternative, keepdims=keepdims)
