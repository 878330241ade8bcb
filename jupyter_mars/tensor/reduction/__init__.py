"""Reductions: ``sum``, ``prod``, ``min``, ``max``, ``any``, ``all``, ``mean``, ``var``,
``std``, ``average``, ``argmin``, ``argmax``, ``count_nonzero``, ``ptp``, their NaN-skipping
forms, and the scans ``cumsum``/``cumprod``/``nancumsum``/``nancumprod``.

``axis``, ``keepdims``, ``dtype``, ``ddof`` and the result dtypes follow NumPy; bad
arguments raise NumPy's exception types when the function is called. Errors that depend on
the data (``nanargmax`` of an all-NaN slice, weights summing to zero in ``average``) are
raised by ``execute``.

Modules: ``_args`` (argument checks), ``_probe`` (NumPy's dtypes, errors and warnings,
decided at build time), ``_core`` (the reduction node and shared kernels), ``basic``,
``count``, ``moments``, ``nan``, ``arg``, ``average``, ``cumulative``. Other modules use
``reduce`` and ``normalize_axis`` (public) and ``reduced_shape``/``squeeze_axes``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.reduction.arg import argmax, argmin, nanargmax, nanargmin
from jupyter_mars.tensor.reduction.args import normalize_axis
from jupyter_mars.tensor.reduction.average import average
from jupyter_mars.tensor.reduction.basic import all, amax, amin, any, max, min, prod, sum
from jupyter_mars.tensor.reduction.core import reduce
from jupyter_mars.tensor.reduction.core import (
    reduced_shape as reduced_shape,  # used by other modules, not in ``mt``
)
from jupyter_mars.tensor.reduction.core import squeeze_axes as squeeze_axes
from jupyter_mars.tensor.reduction.count import count_nonzero, ptp
from jupyter_mars.tensor.reduction.cumulative import cumprod, cumsum, nancumprod, nancumsum
from jupyter_mars.tensor.reduction.moments import mean, std, var
from jupyter_mars.tensor.reduction.nan import (
    nanmax,
    nanmean,
    nanmin,
    nanprod,
    nanstd,
    nansum,
    nanvar,
)


def _method(func: Callable[..., Any]) -> Callable[..., Any]:
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        return func(self, *args, **kwargs)

    method.__name__ = func.__name__
    method.__qualname__ = f"Tensor.{func.__name__}"
    method.__doc__ = func.__doc__
    return method


def _attach() -> None:
    # the methods ``numpy.ndarray`` has in NumPy 2 (no ``ptp``)
    for func in (sum, prod, max, min, mean, any, all, var, std, argmax, argmin, cumsum, cumprod):
        setattr(Tensor, func.__name__, _method(func))


_attach()

__all__ = [
    "all",
    "amax",
    "amin",
    "any",
    "argmax",
    "argmin",
    "average",
    "count_nonzero",
    "cumprod",
    "cumsum",
    "max",
    "mean",
    "min",
    "nanargmax",
    "nanargmin",
    "nancumprod",
    "nancumsum",
    "nanmax",
    "nanmean",
    "nanmin",
    "nanprod",
    "nanstd",
    "nansum",
    "nanvar",
    "normalize_axis",
    "prod",
    "ptp",
    "reduce",
    "std",
    "sum",
    "var",
]
