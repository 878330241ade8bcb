"""``argmax``, ``argmin`` and their NaN-skipping forms.

A partial is a ``(value, global index, has-a-number)`` triple per position: chunk kernels
get their chunk's offset in the whole array (``with_offsets``, after the chunk lengths
are known) and report global indices, flat C-order ones for ``axis=None``. Merging keeps
the better value, the smaller index on ties, and the first NaN over any number, as NumPy.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from jupyter_mars.engine.devices import array_module
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.outputs import accepts_out
from jupyter_mars.tensor.reduction._probe import probe_dtype, probe_shape
from jupyter_mars.tensor.reduction.args import check_keepdims, single_axis, unsupported
from jupyter_mars.tensor.reduction.core import empty_along, pairwise_reduce


def _arg_chunk(
    kind: str,
    skipna: bool,
    flat: bool,
    block: Any,
    axis: Any,
    keepdims: bool,
    offset: tuple[int, ...],
    shape: tuple[int, ...],
) -> Any:
    if empty_along(block, axis):
        return None
    pick = np.argmax if kind == "max" else np.argmin
    xp = array_module(block)
    values = xp.asarray(block)
    has_number = None
    if skipna:
        mask = np.isnan(values)
        values = np.where(mask, -np.inf if kind == "max" else np.inf, values)
        has_number = ~np.all(mask, axis=axis, keepdims=True)
    if flat:
        local = int(pick(values.ravel()))
        value = values.ravel()[local]
        if xp is not np:
            value = value.item()  # a 0-d CuPy array: ``full`` takes a scalar
        if values.ndim:
            position = np.unravel_index(local, values.shape)
            index = int(
                np.ravel_multi_index(
                    tuple(int(p) + int(o) for p, o in zip(position, offset)), shape
                )
            )
        else:
            index = 0
        ones = (1,) * values.ndim
        return (
            xp.full(ones, value, dtype=values.dtype),
            xp.full(ones, index, dtype=np.intp),
            has_number,
        )
    (k,) = axis
    local_index = pick(values, axis=k, keepdims=True)
    value = np.take_along_axis(values, local_index, axis=k)
    return value, (local_index + int(offset[k])).astype(np.intp), has_number


def _arg_pair(kind: str, a: Any, b: Any) -> Any:
    """Keep, per position, the winner of two partials; ties go to the smaller index and a
    NaN wins over numbers (the first NaN, as NumPy)."""
    value_a, index_a, has_a = a
    value_b, index_b, has_b = b
    earlier = index_b < index_a
    better = value_b > value_a if kind == "max" else value_b < value_a
    take = better | ((value_b == value_a) & earlier)
    if value_a.dtype.kind in "fc":
        nan_a, nan_b = np.isnan(value_a), np.isnan(value_b)
        take = np.where(nan_a, nan_b & earlier, nan_b | take)
    has = None if has_a is None else (has_a | has_b)
    return np.where(take, value_b, value_a), np.where(take, index_b, index_a), has


def _arg_index(part: Any, axis: Any) -> Any:
    _, index, has_number = part
    if has_number is not None and not np.all(has_number):
        raise ValueError("All-NaN slice encountered")
    return index


def _arg(
    name: str,
    kind: str,
    skipna: bool,
    npfunc: Callable[..., Any],
    a: Any,
    axis: Any,
    out: Any,
    keepdims: Any,
) -> Tensor:
    unsupported(name, out=out)
    x = astensor(a)
    ax = single_axis(axis, x.ndim, name)
    keep = check_keepdims(keepdims)
    flat = ax is None or x.ndim == 0
    axes: tuple[int, ...] = tuple(range(x.ndim)) if ax is None or flat else (ax,)
    probe_dtype(npfunc, x.dtype)
    probe_shape(npfunc, x, axes, None if flat else ax)
    return pairwise_reduce(
        x,
        name,
        functools.partial(_arg_chunk, kind, skipna and x.dtype.kind in "fc", flat),
        functools.partial(_arg_pair, kind),
        None if flat else ax,
        keep,
        np.intp,
        finalize=_arg_index,
        empty_message=f"attempt to get arg{kind} of an empty sequence",
        with_offsets=True,
    )


@accepts_out(np.argmax)
def argmax(a: Any, axis: Any = None, out: Any = None, *, keepdims: bool = False) -> Tensor:
    """Lazy, chunked ``numpy.argmax``: flat indices for ``axis=None``; the first of equal
    maxima (and the first NaN) wins, as in NumPy."""
    return _arg("argmax", "max", False, np.argmax, a, axis, out, keepdims)


@accepts_out(np.argmin)
def argmin(a: Any, axis: Any = None, out: Any = None, *, keepdims: bool = False) -> Tensor:
    """Lazy, chunked ``numpy.argmin``: flat indices for ``axis=None``; the first of equal
    minima (and the first NaN) wins, as in NumPy."""
    return _arg("argmin", "min", False, np.argmin, a, axis, out, keepdims)


@accepts_out(np.nanargmax)
def nanargmax(a: Any, axis: Any = None, out: Any = None, *, keepdims: bool = False) -> Tensor:
    """Lazy, chunked ``numpy.nanargmax``: NaNs are skipped; an all-NaN slice raises
    ValueError when executed."""
    return _arg("nanargmax", "max", True, np.nanargmax, a, axis, out, keepdims)


@accepts_out(np.nanargmin)
def nanargmin(a: Any, axis: Any = None, out: Any = None, *, keepdims: bool = False) -> Tensor:
    """Lazy, chunked ``numpy.nanargmin``: NaNs are skipped; an all-NaN slice raises
    ValueError when executed."""
    return _arg("nanargmin", "min", True, np.nanargmin, a, axis, out, keepdims)
