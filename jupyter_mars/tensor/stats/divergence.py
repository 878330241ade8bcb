"""``entropy``, ``power_divergence`` and ``chisquare``: sums over one axis of terms computed
element by element (SciPy's ``entr``, ``rel_entr`` and the Cressie-Read terms), reduced by
trees over the chunks. With ``nan_policy='omit'`` a NaN in either input zeroes the term of
that pair and is left out of the counts, as SciPy leaves the pair out.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy import special

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.elemwise import broadcast_shapes, elemwise
from jupyter_mars.tensor.reduction import count_nonzero, mean, nanmean
from jupyter_mars.tensor.reduction import sum as tensor_sum
from jupyter_mars.tensor.shape import broadcast_to, expand_dims
from jupyter_mars.tensor.stats._common import check_nan_policy, divide, length_or_count, prepare
from jupyter_mars.tensor.stats._results import Power_divergenceResult

LAMBDA_NAMES = {
    "pearson": 1,
    "log-likelihood": 0,
    "freeman-tukey": -0.5,
    "mod-log-likelihood": -1,
    "neyman": -2,
    "cressie-read": 2 / 3,
}


def _paired(
    x: Any, y: Any, axis: Any, nan_policy: str, dtype: np.dtype[Any]
) -> tuple[Tensor, Tensor | None, int, Tensor | None]:
    """Two inputs broadcast together and cast to ``dtype``, their axis, and with
    ``nan_policy='omit'`` the mask of the pairs to leave out (their NaNs set to zero)."""
    check_nan_policy(nan_policy)
    tx = astensor(x).astype(dtype)
    ty = astensor(y).astype(dtype) if y is not None else None
    if ty is not None and tx.shape != ty.shape:
        shape = broadcast_shapes(tx.shape, ty.shape)
        tx, ty = broadcast_to(tx, shape), broadcast_to(ty, shape)
    tx, ax = prepare(tx, axis, nan_policy)
    if ty is not None:
        ty, _ = prepare(ty, axis, nan_policy)
    mask = None
    if nan_policy == "omit":
        mask = elemwise(np.isnan, tx)
        if ty is not None:
            mask = elemwise(np.logical_or, mask, elemwise(np.isnan, ty))
            ty = elemwise(np.where, mask, 0, ty)
        tx = elemwise(np.where, mask, 0, tx)
    return tx, ty, ax, mask


def _float_dtype(*arrays: Any) -> np.dtype[Any]:
    # Python numbers are weakly typed, as in SciPy's promotion: float32 stays float32
    dtypes = [
        a if isinstance(a, (int, float)) else astensor(a).dtype for a in arrays if a is not None
    ]
    result = np.result_type(*dtypes)
    return result if result.kind in "fc" else np.dtype(np.float64)


def entropy(
    pk: Any,
    qk: Any = None,
    base: float | None = None,
    axis: Any = 0,
    *,
    nan_policy: str = "propagate",
    keepdims: bool = False,
) -> Tensor:
    """SciPy's Shannon entropy of ``pk``, or relative entropy of ``pk`` to ``qk``."""
    if base is not None and base <= 0:
        raise ValueError("`base` must be a positive number or `None`.")
    p, q, axis, _ = _paired(pk, qk, axis, nan_policy, _float_dtype(pk, qk))
    if q is not None:
        q = elemwise(divide, q, tensor_sum(q, axis=axis, keepdims=True))
    p = elemwise(divide, p, tensor_sum(p, axis=axis, keepdims=True))
    terms = elemwise(special.entr, p) if q is None else elemwise(special.rel_entr, p, q)
    s = tensor_sum(terms, axis=axis)
    if base is not None:
        s = s / math.log(base)
    return expand_dims(s, axis) if keepdims else s


def _terms(f_obs: Any, f_exp: Any, lambda_: float) -> Any:
    with np.errstate(divide="ignore", invalid="ignore"):
        if lambda_ == 1:
            return (f_obs - f_exp) ** 2 / f_exp
        if lambda_ == 0:
            return 2.0 * special.xlogy(f_obs, f_obs / f_exp)
        if lambda_ == -1:
            return 2.0 * special.xlogy(f_exp, f_exp / f_obs)
        return f_obs * ((f_obs / f_exp) ** lambda_ - 1) / (0.5 * lambda_ * (lambda_ + 1))


def _chi2_sf(stat: Any, df: Any) -> Any:
    return np.asarray(special.chdtrc(df, stat)).astype(np.result_type(stat), copy=False)


def _check_sums(stat: Any, observed: Any, expected: Any, rtol: float) -> Any:
    """The statistic, once the sums of the frequencies agree (SciPy's ``sum_check``)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        diff = np.abs(observed - expected) / np.minimum(observed, expected)
    if np.any(diff > rtol):
        raise ValueError(
            "For each axis slice, the sum of the observed frequencies must agree with the "
            f"sum of the expected frequencies to a relative tolerance of {rtol}, but the "
            f"percent differences are:\n{diff}"
        )
    return stat


def _lambda(lambda_: Any) -> float:
    if isinstance(lambda_, str):
        if lambda_ not in LAMBDA_NAMES:
            names = repr(list(LAMBDA_NAMES))[1:-1]
            raise ValueError(f"invalid string for lambda_: {lambda_!r}. Valid strings are {names}")
        return LAMBDA_NAMES[lambda_]
    return 1 if lambda_ is None else lambda_


def _power_divergence(
    f_obs: Any,
    f_exp: Any,
    ddof: Any,
    axis: Any,
    lambda_: Any,
    sum_check: bool,
    nan_policy: str,
    keepdims: bool,
) -> Power_divergenceResult:
    lam = _lambda(lambda_)
    dtype = _float_dtype(f_obs, f_exp, ddof)
    obs, exp, axis, mask = _paired(f_obs, f_exp, axis, nan_policy, dtype)
    if exp is None:
        exp = (nanmean if mask is not None else mean)(
            elemwise(np.where, mask, np.nan, obs) if mask is not None else obs,
            axis=axis,
            keepdims=True,
        )
    terms = elemwise(_terms, obs, exp, lam)
    if mask is not None:
        terms = elemwise(np.where, mask, 0, terms)
        num_obs: Any = count_nonzero(elemwise(np.logical_not, mask), axis=axis).astype(dtype)
    else:
        num_obs = length_or_count(obs, axis)
    stat = tensor_sum(terms, axis=axis)
    if f_exp is not None and sum_check:
        rtol = float(np.finfo(np.result_type(astensor(f_obs).dtype, dtype)).eps ** 0.5)
        observed = tensor_sum(obs.astype(np.float64), axis=axis)
        expected = tensor_sum(exp, axis=axis)
        stat = elemwise(_check_sums, stat, observed, expected, rtol, dtype=stat.dtype)
    df = num_obs - 1 - (astensor(ddof) if not isinstance(ddof, (int, float)) else ddof)
    pvalue = elemwise(_chi2_sf, stat, df, dtype=stat.dtype)
    if keepdims:
        stat, pvalue = expand_dims(stat, axis), expand_dims(pvalue, axis)
    return Power_divergenceResult(stat, pvalue)


def power_divergence(
    f_obs: Any,
    f_exp: Any = None,
    ddof: Any = 0,
    axis: Any = 0,
    lambda_: Any = None,
    *,
    nan_policy: str = "propagate",
    keepdims: bool = False,
) -> Power_divergenceResult:
    """SciPy's Cressie-Read power divergence statistic and goodness of fit test.

    The check that observed and expected frequencies have the same sums needs the data:
    it is made when the result is executed.
    """
    return _power_divergence(f_obs, f_exp, ddof, axis, lambda_, True, nan_policy, keepdims)


def chisquare(
    f_obs: Any,
    f_exp: Any = None,
    ddof: Any = 0,
    axis: Any = 0,
    *,
    sum_check: bool = True,
    nan_policy: str = "propagate",
    keepdims: bool = False,
) -> Power_divergenceResult:
    """SciPy's one-way chi-square test (``power_divergence`` with Pearson's lambda)."""
    return _power_divergence(f_obs, f_exp, ddof, axis, "pearson", sum_check, nan_policy, keepdims)
