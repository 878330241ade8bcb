"""What the tests of ``mt.stats`` share: checks of ``axis``, ``nan_policy`` and
``alternative`` made at the call, NaN checks made per chunk, and p-values per element."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy import special

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.elemwise import elemwise
from jupyter_mars.tensor.reduction import count_nonzero
from jupyter_mars.tensor.shape.common import check_axis

NAN_POLICIES = ("propagate", "omit", "raise")
ALTERNATIVES = ("two-sided", "less", "greater")


def check_nan_policy(nan_policy: str) -> str:
    if nan_policy not in NAN_POLICIES:
        raise ValueError(f"nan_policy must be one of {set(NAN_POLICIES)!r}")
    return nan_policy


def check_alternative(alternative: str) -> str:
    if alternative not in ALTERNATIVES:
        raise ValueError("`alternative` must be 'less', 'greater', or 'two-sided'.")
    return alternative


def no_nan(block: Any) -> Any:
    """A chunk as it is, or SciPy's error for ``nan_policy='raise'``."""
    if np.issubdtype(block.dtype, np.inexact) and np.isnan(block).any():
        raise ValueError("The input contains nan values")
    return block


def prepare(x: Any, axis: Any, nan_policy: str) -> tuple[Tensor, int]:
    """A sample as a tensor and its axis (``axis=None``: flattened, axis 0); with
    ``nan_policy='raise'`` its chunks are checked for NaN when executed."""
    t = astensor(x)
    check_nan_policy(nan_policy)
    if axis is None:
        t, axis = t.ravel(), 0
    if t.ndim == 0:
        t = t.reshape(1)
    axis = check_axis(axis, t.ndim, expected="an int or None")
    if nan_policy == "raise":
        t = elemwise(no_nan, t, dtype=t.dtype, name="no_nan")
    return t, axis


def _t_pvalue(t: Any, df: Any, alternative: str) -> Any:
    if alternative == "less":
        p = special.stdtr(df, t)
    elif alternative == "greater":
        p = special.stdtr(df, -t)
    else:
        p = 2 * special.stdtr(df, -np.abs(t))
    return np.asarray(p).astype(np.result_type(t), copy=False)


def t_pvalue(t: Tensor, df: Any, alternative: str) -> Tensor:
    """The p-value of Student's t statistic ``t`` with ``df`` degrees of freedom."""
    return elemwise(_t_pvalue, t, df, alternative, dtype=t.dtype, name="t_pvalue")


def divide(a: Any, b: Any) -> Any:
    """``a / b`` where 0/0 is NaN and x/0 is ±inf without warnings, as in SciPy's tests."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.divide(a, b)


def length_or_count(a: Tensor, axis: int) -> Any:
    """The length of ``axis``: an int, or counted when executed where a filter made it
    unknown (an int64 tensor of the reduced shape)."""
    length = a.shape[axis]
    if math.isnan(length):
        return count_nonzero(elemwise(np.ones_like, a, dtype=bool), axis=axis)
    return int(length)
