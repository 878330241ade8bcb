"""``tensordot``, and ``contract_axes``: the contraction of some axes of ``a`` with some
axes of ``b`` that ``tensordot``, ``dot`` and ``inner`` all build.

The contraction of a tensor with itself on the same axes (``inner(a, a)``) is marked
symmetric: only the output chunks on and above the diagonal are computed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.products.checks import differ, dot_dtype, fmt_shape
from jupyter_mars.tensor.products.contraction import contract
from jupyter_mars.tensor.products.kernels import pair_kernel


def contract_axes(
    a: Tensor, b: Tensor, axes_a: Sequence[int], axes_b: Sequence[int], name: str, dtype: Any
) -> Tensor:
    """Contract ``axes_a`` of ``a`` with ``axes_b`` of ``b`` (normalised, same length)."""
    axes_a, axes_b = tuple(axes_a), tuple(axes_b)
    sub_a = tuple(range(a.ndim))
    sub_b_list = []
    for ax in range(b.ndim):
        sub_b_list.append(axes_a[axes_b.index(ax)] if ax in axes_b else a.ndim + ax)
    sub_b = tuple(sub_b_list)
    free_a = tuple(lab for ax, lab in enumerate(sub_a) if ax not in axes_a)
    free_b = tuple(lab for ax, lab in enumerate(sub_b) if ax not in axes_b)
    func, accepts_out = pair_kernel(a.ndim, b.ndim, axes_a, axes_b)
    symmetric = a.node is b.node and axes_a == axes_b and len(free_a) > 0
    return contract(
        [a, b], [sub_a, sub_b], free_a + free_b, dtype, func, name, accepts_out, symmetric=symmetric
    )


def tensordot(a: Any, b: Any, axes: Any = 2) -> Tensor:
    """Lazy, chunked ``numpy.tensordot``: sum products over ``axes`` of ``a`` and ``b``.

    ``axes`` is an int N (the last N axes of ``a`` with the first N of ``b``) or a pair
    of sequences (or ints) of axes.
    """
    a, b = astensor(a), astensor(b)
    if isinstance(axes, (int, np.integer)) and not isinstance(axes, bool):
        n = int(axes)
        if n > a.ndim or n > b.ndim:
            raise ValueError(
                f"tensordot: axes={n} is more than the dimensions of a ({a.ndim}) or b ({b.ndim})"
            )
        axes_a: list[Any] = list(range(a.ndim - n, a.ndim)) if n > 0 else []
        axes_b: list[Any] = list(range(n)) if n > 0 else []
    else:
        try:
            first, second = axes
        except (TypeError, ValueError):
            raise TypeError(
                f"tensordot: axes must be an int or a pair of sequences of ints, got {axes!r}"
            ) from None
        axes_a = list(first) if isinstance(first, (list, tuple)) else [first]
        axes_b = list(second) if isinstance(second, (list, tuple)) else [second]
    if len(axes_a) != len(axes_b):
        raise ValueError(
            f"shape-mismatch for sum: tensordot axes {axes_a} of a and {axes_b} of b "
            "must have the same length"
        )
    na = _normalize_axes(axes_a, a.ndim, "axes[0]")
    nb = _normalize_axes(axes_b, b.ndim, "axes[1]")
    for x, y in zip(na, nb):
        if differ(a.shape[x], b.shape[y]):
            raise ValueError(
                f"shape-mismatch for sum: a.shape[{x}]={a.shape[x]} != b.shape[{y}]={b.shape[y]} "
                f"(shapes {fmt_shape(a.shape)} and {fmt_shape(b.shape)})"
            )
    dtype = dot_dtype(a, b, "tensordot")
    return contract_axes(a, b, na, nb, "tensordot", dtype)


def _normalize_axes(axes: Sequence[Any], ndim: int, argname: str) -> tuple[int, ...]:
    out = []
    for ax in axes:
        if isinstance(ax, bool) or not isinstance(ax, (int, np.integer)):
            raise TypeError(f"tensordot: {argname} must hold ints, got {ax!r}")
        if not -ndim <= ax < ndim:
            raise np.exceptions.AxisError(int(ax), ndim, f"tensordot {argname}")
        out.append(int(ax) % ndim)
    if len(set(out)) != len(out):
        raise ValueError(f"tensordot: repeated axis in {argname}: {list(axes)}")
    return tuple(out)
