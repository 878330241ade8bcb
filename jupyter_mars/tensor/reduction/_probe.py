"""What NumPy would say, decided when a reduction is built, by running NumPy on stand-ins.

Kernels never warn (they run on worker threads, where a warning would be an error or
lost). So the result dtype, NumPy's errors for bad dtypes, and the errors and warnings
NumPy gives for a *shape* (``min`` of an empty axis, mean of an empty slice, ``ddof`` not
smaller than the number of items) come from calling NumPy on tiny or empty arrays of the
input's dtype, at the user's line. Warnings that depend on the *data* (an all-NaN slice,
overflow) are not reproduced.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor, unknown_shape


def reduced_count(shape: tuple[Any, ...], axes: tuple[int, ...]) -> Any:
    """How many items each result element reduces."""
    return math.prod(shape[a] for a in axes)


def probe_dtype(
    npfunc: Callable[..., Any], in_dtype: np.dtype[Any], **kwargs: Any
) -> np.dtype[Any]:
    """The dtype NumPy gives (or NumPy's TypeError/ValueError) for inputs of ``in_dtype``."""
    with np.errstate(all="ignore"):
        return np.asarray(npfunc(np.ones(2, dtype=in_dtype), **kwargs)).dtype


def probe_shape(
    npfunc: Callable[..., Any], x: Tensor, axes: tuple[int, ...], axis: Any, **kwargs: Any
) -> None:
    """Where ``x`` has a zero-length axis, call NumPy on an empty array of that shape, so
    NumPy's own error (``min`` of an empty axis) or warning (mean of an empty slice) is
    raised here, at the user's line. Reduced axes keep their lengths (the count matters
    for ``ddof``), other axes shrink to length 1; the stand-in holds no data."""
    if unknown_shape(x.shape) or 0 not in x.shape:
        return
    shape = tuple(n if (i in axes or n == 0) else 1 for i, n in enumerate(x.shape))
    npfunc(np.zeros(shape, dtype=x.dtype), axis=axis, **kwargs)


def probe_ddof(
    npfunc: Callable[..., Any], x: Tensor, axes: tuple[int, ...], ddof: Any, **kwargs: Any
) -> None:
    """NumPy's "Degrees of freedom <= 0" warning, decided by the shape, raised here."""
    if unknown_shape(x.shape):
        return
    if 0 in x.shape:
        probe_shape(npfunc, x, axes, axes, ddof=ddof, **kwargs)
        return
    count = reduced_count(x.shape, axes)
    if count - ddof > 0:
        return
    if count <= 1_000_000:
        shape = tuple(n if i in axes else 1 for i, n in enumerate(x.shape))
        npfunc(np.zeros(shape, dtype=x.dtype), axis=axes, ddof=ddof, **kwargs)
    else:  # pragma: no cover - a ddof of a million
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=3)
