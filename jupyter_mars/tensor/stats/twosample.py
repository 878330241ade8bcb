"""``ks_2samp`` of two large 1-d samples over parallel sorts (SciPy's asymptotic p-value).

Both samples are sorted in parallel and joined; ``searchsorted`` gives both empirical
distribution functions at every value, chunk by chunk, and the largest differences each
way, with where they are, are reductions. Only the asymptotic p-value is a closed form
of public SciPy pieces, so this path serves ``method='asymp'``, and ``'auto'`` where SciPy
itself would choose it (a sample longer than ``MAX_EXACT``); ``ks`` runs SciPy on the
whole samples otherwise.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy.stats import distributions

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.elemwise import elemwise
from jupyter_mars.tensor.reduction import any as tensor_any
from jupyter_mars.tensor.reduction import argmax, argmin
from jupyter_mars.tensor.reduction import max as tensor_max
from jupyter_mars.tensor.reduction import min as tensor_min
from jupyter_mars.tensor.shape import concatenate
from jupyter_mars.tensor.sorting import searchsorted, sort

MAX_EXACT = 10000
"""SciPy's ``method='auto'`` is exact up to this many values in the larger sample."""


def use_sorted_path(n1: float, n2: float, method: str) -> bool:
    if math.isnan(n1) or math.isnan(n2) or min(n1, n2) == 0:
        return False
    return method == "asymp" or (method == "auto" and max(n1, n2) > MAX_EXACT)


def asymptotic_pvalue(d: Any, n1: int, n2: int, alternative: str) -> Any:
    """SciPy's asymptotic p-value of the two-sample statistic ``d`` (Smirnov; Hodges'
    approximation one-sided)."""
    m, n = sorted([float(n1), float(n2)], reverse=True)
    en = m * n / (m + n)
    with np.errstate(all="ignore"):
        if alternative == "two-sided":
            p = distributions.kstwo.sf(d, np.round(en))
        else:
            z = np.sqrt(en) * d
            p = np.exp(-2 * z**2 - 2 * z * (m + 2 * n) / np.sqrt(m * n * (m + n)) / 3.0)
    return np.clip(p, 0, 1)


def two_sample_field(
    which: str,
    min_s: Any,
    max_s: Any,
    at_min: Any,
    at_max: Any,
    has_nan: Any,
    n1: int,
    n2: int,
    alternative: str,
) -> Any:
    """One of the four results from the largest differences each way (NaN if the samples
    hold a NaN, as SciPy's ``nan_policy='propagate'`` gives)."""
    below = alternative == "less" or (alternative == "two-sided" and min_s > max_s)
    d = min_s if below else max_s
    if which == "sign":
        return np.asarray(-1 if below else 1, dtype=np.int8)
    if has_nan:
        return np.asarray(np.nan)
    if which == "statistic":
        return np.asarray(d, dtype=np.float64)
    if which == "location":
        return np.asarray(at_min if below else at_max)
    return np.asarray(asymptotic_pvalue(d, n1, n2, alternative), dtype=np.float64)


def ks_2samp_sorted(
    t1: Tensor, t2: Tensor, alternative: str, dtypes: list[np.dtype[Any]]
) -> list[Tensor]:
    """Statistic, p-value, location and sign of two 1-d samples of known lengths."""
    n1, n2 = int(t1.shape[0]), int(t2.shape[0])
    side = {"t": "two-sided", "g": "greater", "l": "less"}.get(alternative.lower()[0], "")
    s1, s2 = sort(t1), sort(t2)
    joined = concatenate([s1, s2])
    cdf1 = searchsorted(s1, joined, side="right") / n1
    cdf2 = searchsorted(s2, joined, side="right") / n2
    diffs = cdf1 - cdf2
    min_s = elemwise(np.clip, -tensor_min(diffs), 0, 1)
    max_s = tensor_max(diffs)
    at_min, at_max = joined[argmin(diffs)], joined[argmax(diffs)]
    has_nan = tensor_any(elemwise(np.isnan, joined))
    parts = (min_s, max_s, at_min, at_max, has_nan, n1, n2, side)
    names = ("statistic", "pvalue", "location", "sign")
    return [
        elemwise(two_sample_field, which, *parts, dtype=dtype, name="ks_2samp")
        for which, dtype in zip(names, dtypes)
    ]
