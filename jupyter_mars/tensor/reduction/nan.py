"""NaN-skipping forms of ``sum``, ``prod``, ``max``, ``min``, ``mean``, ``var``, ``std``.

They reuse the builders of ``basic.py`` and ``moments.py`` with NaN-skipping kernels (for
inexact dtypes; other dtypes hold no NaN and take the plain kernels). An all-NaN slice
gives NumPy's value (0, 1 or NaN); NumPy's "All-NaN slice" / "Mean of empty slice"
warnings depend on the data and are not given. The NaN-skipping ``argmax``/``argmin`` are
in ``arg.py``, the NaN-skipping scans in ``cumulative.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.outputs import accepts_out
from jupyter_mars.tensor.reduction.args import NOVALUE
from jupyter_mars.tensor.reduction.basic import with_identity, without_identity
from jupyter_mars.tensor.reduction.moments import mean_reduction, moments_reduction


@accepts_out(np.nansum)
def nansum(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    keepdims: bool = False,
    initial: Any = NOVALUE,
    where: Any = NOVALUE,
) -> Tensor:
    """Lazy, chunked ``numpy.nansum`` (NaN counts as zero; all-NaN gives 0)."""
    return with_identity(
        "nansum", np.nansum, np.add, np.sum, a, axis, dtype, out, keepdims, initial, where
    )


@accepts_out(np.nanprod)
def nanprod(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    keepdims: bool = False,
    initial: Any = NOVALUE,
    where: Any = NOVALUE,
) -> Tensor:
    """Lazy, chunked ``numpy.nanprod`` (NaN counts as one; all-NaN gives 1)."""
    return with_identity(
        "nanprod", np.nanprod, np.multiply, np.prod, a, axis, dtype, out, keepdims, initial, where
    )


def _nan_extreme(
    name: str,
    skipping: np.ufunc,
    plain: np.ufunc,
    probe: Callable[..., Any],
    a: Any,
    axis: Any,
    out: Any,
    keepdims: Any,
    initial: Any,
    where: Any,
) -> Tensor:
    """``nanmax``/``nanmin``: ``skipping`` (``np.fmax``, which ignores a NaN against a
    number) for inexact dtypes, ``plain`` (``np.maximum``) for the others."""
    x = astensor(a)
    pairwise = skipping if x.dtype.kind in "fc" else plain
    return without_identity(
        name, pairwise.reduce, pairwise, probe, x, axis, out, keepdims, initial, where
    )


@accepts_out(np.nanmax)
def nanmax(
    a: Any,
    axis: Any = None,
    out: Any = None,
    keepdims: bool = False,
    initial: Any = NOVALUE,
    where: Any = NOVALUE,
) -> Tensor:
    """Lazy, chunked ``numpy.nanmax``: NaNs are skipped; an all-NaN slice gives NaN (NumPy's
    "All-NaN slice" warning depends on the data and is not given)."""
    return _nan_extreme(
        "nanmax", np.fmax, np.maximum, np.nanmax, a, axis, out, keepdims, initial, where
    )


@accepts_out(np.nanmin)
def nanmin(
    a: Any,
    axis: Any = None,
    out: Any = None,
    keepdims: bool = False,
    initial: Any = NOVALUE,
    where: Any = NOVALUE,
) -> Tensor:
    """Lazy, chunked ``numpy.nanmin``: NaNs are skipped; an all-NaN slice gives NaN (NumPy's
    "All-NaN slice" warning depends on the data and is not given)."""
    return _nan_extreme(
        "nanmin", np.fmin, np.minimum, np.nanmin, a, axis, out, keepdims, initial, where
    )


@accepts_out(np.nanmean)
def nanmean(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    keepdims: bool = False,
    *,
    where: Any = NOVALUE,
) -> Tensor:
    """Lazy, chunked ``numpy.nanmean``: NaNs are skipped; an all-NaN slice gives NaN."""
    return mean_reduction("nanmean", np.nanmean, True, a, axis, dtype, out, keepdims, where)


@accepts_out(np.nanvar)
def nanvar(
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
    """Lazy, chunked ``numpy.nanvar``: NaNs are skipped; a slice with no more than ``ddof``
    values (all-NaN included) gives NaN."""
    return moments_reduction(
        "nanvar", np.nanvar, True, False, a, axis, dtype, out, ddof, keepdims, where, mean,
        correction,
    )  # fmt: skip


@accepts_out(np.nanstd)
def nanstd(
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
    """Lazy, chunked ``numpy.nanstd``: the square root of ``nanvar``."""
    return moments_reduction(
        "nanstd", np.nanstd, True, True, a, axis, dtype, out, ddof, keepdims, where, mean,
        correction,
    )  # fmt: skip
