"""The array API's ``cumulative_sum`` and ``cumulative_prod``: ``cumsum``/``cumprod``
with a required ``axis`` on n-d input and an optional leading identity
(``include_initial``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.creation import full
from jupyter_mars.tensor.datasource import asarray
from jupyter_mars.tensor.reduction import cumprod, cumsum
from jupyter_mars.tensor.shape import concatenate
from jupyter_mars.tensor.shape.common import check_axis


def _cumulative(
    scan: Callable[..., Tensor],
    identity: int,
    x: Any,
    axis: Any,
    dtype: Any,
    out: Any,
    include_initial: bool,
) -> Tensor:
    t = asarray(x)
    if axis is None:
        if t.ndim > 1:
            raise ValueError(
                "For arrays which have more than one dimension ``axis`` argument is required."
            )
        axis = 0
    if t.ndim == 0:
        t = t.reshape(1)
    ax = check_axis(axis, t.ndim)
    result = scan(t, axis=ax, dtype=dtype, out=out)
    if not include_initial:
        return result
    shape = tuple(1 if a == ax else n for a, n in enumerate(result.shape))
    first = full(shape, identity, dtype=result.dtype)
    return concatenate([first, result], axis=ax)


def cumulative_sum(
    x: Any,
    /,
    *,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    include_initial: bool = False,
) -> Tensor:
    """Running sums along ``axis``, starting with 0 when ``include_initial``."""
    return _cumulative(cumsum, 0, x, axis, dtype, out, include_initial)


def cumulative_prod(
    x: Any,
    /,
    *,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    include_initial: bool = False,
) -> Tensor:
    """Running products along ``axis``, starting with 1 when ``include_initial``."""
    return _cumulative(cumprod, 1, x, axis, dtype, out, include_initial)


__all__ = ["cumulative_prod", "cumulative_sum"]
