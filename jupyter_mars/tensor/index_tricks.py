"""Index tricks: ``mgrid``, ``ogrid``, ``r_`` and ``c_`` build tensors from slice
notation, as NumPy's objects of the same names do; ``ndindex`` is NumPy's.

``mgrid[0:4, 0:6:3j]`` is a stack of broadcast ranges and ``ogrid[...]`` the open ranges
themselves (a step ``Nj`` means ``N`` points, end included); ``r_[...]`` and ``c_[...]``
join slices, scalars and tensors with ``concatenate``. Dtypes follow NumPy's rules for
the same items. The string directives of ``r_`` (``"0,2,1"``) are understood; the
matrix ones (``"r"``, ``"c"``) are not, as tensors are not matrices.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor, is_scalar
from jupyter_mars.tensor.creation import arange, linspace
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.shape import broadcast_to, concatenate, reshape, stack, swapaxes
from jupyter_mars.tensor.shape import transpose as transpose_

ndindex = np.ndindex


def _bounds(item: slice) -> tuple[Any, Any, Any]:
    start = 0 if item.start is None else item.start
    step = 1 if item.step is None else item.step
    return start, item.stop, step


def _is_count(step: Any) -> bool:
    """A complex step ``Nj`` asks for ``N`` points, end included."""
    return isinstance(step, (complex, np.complexfloating))


class GridMaker:
    """``mgrid`` (``sparse=False``) and ``ogrid`` (``sparse=True``)."""

    def __init__(self, sparse: bool) -> None:
        self.sparse = sparse

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, slice):
            return self._one(key)
        if not isinstance(key, tuple) or not all(isinstance(k, slice) for k in key):
            raise TypeError(f"{self._name()}[] takes slices, got {key!r}")
        sizes: list[int] = []
        numbers: list[Any] = [0]
        for item in key:
            start, stop, step = _bounds(item)
            if _is_count(step):
                step = abs(step)
                sizes.append(int(step))
            else:
                sizes.append(int(math.ceil((stop - start) / step)))
            numbers += [start, stop, step]
        if any(n < 0 for n in sizes):
            if not self.sparse:
                raise ValueError("negative dimensions are not allowed")
            sizes = [max(n, 0) for n in sizes]  # an empty open range, as NumPy's ogrid
        typ = np.result_type(*numbers)
        axes = []
        for i, item in enumerate(key):
            start, stop, step = _bounds(item)
            if _is_count(step):
                count = int(abs(step))
                step = (stop - start) / float(count - 1) if count != 1 else count
            values = arange(sizes[i], dtype=typ) * step + start
            if values.dtype != typ:
                values = values.astype(typ)
            axes.append(reshape(values, (1,) * i + (sizes[i],) + (1,) * (len(key) - i - 1)))
        if self.sparse:
            return tuple(axes)
        return stack([broadcast_to(t, tuple(sizes)) for t in axes])

    def _one(self, key: slice) -> Tensor:
        start, stop, step = _bounds(key)
        if _is_count(step):
            length = int(abs(step))
            typ = np.result_type(start, stop, abs(step))
            spacing = (stop - start) / float(length - 1) if length != 1 else length
            points: Tensor = arange(0, length, 1, dtype=typ) * spacing + start
            return points
        return arange(start, stop, step)

    def _name(self) -> str:
        return "ogrid" if self.sparse else "mgrid"


def _with_ndmin(t: Tensor, ndmin: int) -> Tensor:
    return t if t.ndim >= ndmin else reshape(t, (1,) * (ndmin - t.ndim) + t.shape)


class AxisConcatenator:
    """``r_`` (rows: axis 0) and ``c_`` (columns: the last axis, at least 2-d)."""

    def __init__(self, axis: int, ndmin: int, trans1d: int) -> None:
        self.axis, self.ndmin, self.trans1d = axis, ndmin, trans1d

    def __getitem__(self, key: Any) -> Tensor:
        items = key if isinstance(key, tuple) else (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        objs: list[Any] = []
        dtypes: list[Any] = []
        for k, item in enumerate(items):
            if isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                axis, ndmin, trans1d = _directive(item, ndmin, trans1d)
                continue
            if isinstance(item, slice):
                start, stop, step = _bounds(item)
                if _is_count(step):
                    obj = linspace(start, stop, num=int(abs(step)))
                else:
                    obj = arange(start, stop, step)
                if ndmin > 1:
                    obj = _with_ndmin(obj, ndmin)
                    if trans1d != -1:
                        obj = swapaxes(obj, -1, trans1d)
                dtypes.append(obj.dtype)
            elif is_scalar(item):
                obj = item
                dtypes.append(item)
            else:
                t = astensor(item)
                obj = _with_ndmin(t, ndmin)
                if trans1d != -1 and t.ndim < ndmin:
                    k2 = ndmin - t.ndim
                    k1 = trans1d + k2 + 1 if trans1d < 0 else trans1d
                    order = list(range(ndmin))
                    obj = transpose_(obj, order[:k1] + order[k2:] + order[k1:k2])
                dtypes.append(t.dtype)
            objs.append(obj)
        if not objs:
            raise ValueError("need at least one array to concatenate")
        final = np.result_type(*dtypes)
        parts = [
            _with_ndmin(astensor(np.asarray(o, dtype=final)), ndmin)
            if not isinstance(o, Tensor)
            else o.astype(final, copy=False)
            for o in objs
        ]
        return concatenate(parts, axis=axis)


def _directive(item: str, ndmin: int, trans1d: int) -> tuple[int, int, int]:
    if item in ("r", "c"):
        raise NotImplementedError(
            f"the matrix directive {item!r} is not supported: tensors are not matrices"
        )
    try:
        parts = [int(x) for x in item.split(",")]
    except ValueError:
        raise ValueError(f"unknown special directive {item!r}") from None
    if len(parts) > 3:
        raise ValueError(f"unknown special directive {item!r}")
    axis = parts[0]
    if len(parts) > 1:
        ndmin = parts[1]
    if len(parts) > 2:
        trans1d = parts[2]
    return axis, ndmin, trans1d


mgrid = GridMaker(sparse=False)
ogrid = GridMaker(sparse=True)
r_ = AxisConcatenator(axis=0, ndmin=1, trans1d=-1)
c_ = AxisConcatenator(axis=-1, ndmin=2, trans1d=0)

__all__ = ["c_", "mgrid", "ndindex", "ogrid", "r_"]
