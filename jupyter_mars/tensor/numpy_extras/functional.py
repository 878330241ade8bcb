"""Functions that combine other functions or choices: ``select``, ``piecewise``,
``apply_over_axes`` and ``apply_along_axis``.

``select`` is a chain of ``where`` from the last choice to the first. ``piecewise`` calls
NumPy's ``piecewise`` on each chunk with the matching chunks of the conditions: each
function sees the elements of one chunk that its condition picks, which gives NumPy's
values for functions that work element by element, as ``piecewise`` expects.
``apply_along_axis`` makes ``axis`` one chunk and calls NumPy's ``apply_along_axis`` on
each block; the result's shape and dtype come from calling ``func1d`` on a vector of ones
at the call, since the data is not known yet.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from jupyter_mars.tensor.arithmetic import where
from jupyter_mars.tensor.core import Tensor, is_scalar
from jupyter_mars.tensor.datasource import asarray
from jupyter_mars.tensor.elemwise import elemwise
from jupyter_mars.tensor.shape import expand_dims
from jupyter_mars.tensor.shape.common import check_axis, is_unknown
from jupyter_mars.tensor.statistics.common import apply_whole_axes


def _dtype_meta(x: Any) -> Any:
    if isinstance(x, Tensor):
        return np.empty(0, dtype=x.dtype)
    return x if is_scalar(x) else np.asarray(x)


def select(condlist: Any, choicelist: Any, default: Any = 0) -> Tensor:
    """``choicelist[i]`` where ``condlist[i]`` first holds, ``default`` where none does."""
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    conditions = [asarray(c) for c in condlist]
    for i, c in enumerate(conditions):
        if c.dtype != np.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    choices = [c if is_scalar(c) else asarray(c) for c in choicelist]
    dtype = np.result_type(*(_dtype_meta(c) for c in choices), _dtype_meta(default))
    result: Any = default
    for condition, choice in zip(reversed(conditions), reversed(choices)):
        result = where(condition, choice, result)
    out: Tensor = asarray(result).astype(dtype, copy=False)
    return out


def piecewise_chunk(
    funclist: tuple[Any, ...], args: tuple[Any, ...], kw: dict[str, Any], x: Any, *conds: Any
) -> Any:
    return np.piecewise(x, list(conds), list(funclist), *args, **kw)


def piecewise(x: Any, condlist: Any, funclist: Any, *args: Any, **kw: Any) -> Tensor:
    """Each function (or constant) of ``funclist`` where its condition holds, chunk by
    chunk; zero elsewhere, or the extra last function where no condition holds."""
    t = asarray(x)
    if isinstance(condlist, (Tensor, np.ndarray)) and np.ndim(condlist) == t.ndim + 1:
        condlist = [condlist[i] for i in range(len(condlist))]  # one condition per row
    elif isinstance(condlist, (Tensor, np.ndarray)) or is_scalar(condlist):
        condlist = [condlist]
    elif t.ndim != 0 and condlist and is_scalar(condlist[0]):
        condlist = [condlist]  # one condition given as a list of booleans
    conditions = [asarray(c).astype(bool, copy=False) for c in condlist]
    n, n_funcs = len(conditions), len(funclist)
    if n_funcs not in (n, n + 1):
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    kernel = functools.partial(piecewise_chunk, tuple(funclist), args, dict(kw))
    return elemwise(kernel, t, *conditions, dtype=t.dtype, name="piecewise")


def apply_over_axes(func: Any, a: Any, axes: Any) -> Tensor:
    """``func(a, axis)`` for each of ``axes`` in turn, keeping the number of dimensions."""
    value = asarray(a)
    for axis in np.atleast_1d(np.asarray(axes)).tolist():
        ax = axis + value.ndim if axis < 0 else axis
        result = asarray(func(value, ax))
        if result.ndim != value.ndim:
            result = expand_dims(result, ax)
            if result.ndim != value.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        value = result
    return value


def along_axis_block(
    func1d: Any, axis: int, args: tuple[Any, ...], kwargs: dict[str, Any], block: Any
) -> Any:
    return np.apply_along_axis(func1d, axis, block, *args, **kwargs)


def apply_along_axis(func1d: Any, axis: Any, arr: Any, *args: Any, **kwargs: Any) -> Tensor:
    """``func1d`` on every 1-d slice of ``arr`` along ``axis``, blocks of slices in
    parallel; the slices' results take the place of ``axis``."""
    t = asarray(arr)
    if t.ndim == 0:
        raise np.exceptions.AxisError(axis, 0)
    ax = check_axis(axis, t.ndim)
    length = t.shape[ax]
    if is_unknown(length):
        raise ValueError("apply_along_axis() needs the length of axis; execute arr first")
    with np.errstate(all="ignore"):
        probe = np.asarray(func1d(np.ones(int(length), dtype=t.dtype), *args, **kwargs))
    before, after = tuple(range(ax)), tuple(range(ax + 1, t.ndim))
    out_axes = (*before, *(None,) * probe.ndim, *after)
    shape = (*t.shape[:ax], *probe.shape, *t.shape[ax + 1 :])
    kernel = functools.partial(along_axis_block, func1d, ax, args, dict(kwargs))
    return apply_whole_axes(t, kernel, (ax,), out_axes, shape, probe.dtype, "apply_along_axis")


__all__ = ["apply_along_axis", "apply_over_axes", "piecewise", "select"]
