"""Arithmetic, comparison and element-wise methods of DataFrame and Series.

Each is one pandas call per row chunk (``map_chunks``). A DataFrame combined with a lazy
Series along the columns (``df - df.mean()``) reads the Series whole in every task; two
frames with different indexes are aligned on their labels (``map_chunks.aligned``). The
result's meta is the same call on the inputs' metas, so dtypes follow pandas.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.accessors.category import as_category
from jupyter_mars.dataframe.apply import sample_like
from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series
from jupyter_mars.dataframe.map_chunks import (
    Slot,
    aligned,
    map_chunks,
    meta_of,
    one_chunk,
    slot_args,
)
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.tensor.core import Tensor

_BINARY: dict[str, Callable[..., Any]] = {
    "add": operator.add,
    "sub": operator.sub,
    "mul": operator.mul,
    "truediv": operator.truediv,
    "floordiv": operator.floordiv,
    "mod": operator.mod,
    "pow": operator.pow,
    "eq": operator.eq,
    "ne": operator.ne,
    "lt": operator.lt,
    "le": operator.le,
    "gt": operator.gt,
    "ge": operator.ge,
    "and": operator.and_,
    "or": operator.or_,
    "xor": operator.xor,
}


def call_method(obj: Any, name: str, *args: Any, **kwargs: Any) -> Any:
    """``obj.name(*args, **kwargs)``: the chunk kernel of named pandas methods."""
    return getattr(obj, name)(*args, **kwargs)


def is_lazy_scalar(other: Any) -> bool:
    """A 0-d tensor: what a reduction of a Series gives (``s - s.mean()``)."""
    return isinstance(other, Tensor) and other.ndim == 0


def scalar_sample(left: FrameBase, other: Tensor) -> Any:
    """A value of ``other``'s dtype to work the result's dtypes out with."""
    if other.dtype != np.dtype(object):
        return np.zeros((), dtype=other.dtype)[()]
    # an object tensor (the min of a Series of times) tells nothing of its values: one of
    # the left side's own values stands for it
    probe = sample_like(left.meta, 1)
    return probe.iloc[0] if isinstance(probe, pd.Series) else probe.iloc[0, 0]


def _check_other(other: Any, name: str) -> None:
    # pandas' scalars include Timestamp, Timedelta, Period and date offsets
    if isinstance(other, FrameBase) or pd.api.types.is_scalar(other) or other is None:
        return
    if is_lazy_scalar(other):
        return
    if isinstance(other, (pd.DataFrame, pd.Series, np.ndarray, list, tuple)):
        return
    raise TypeError(
        f"{name}: other must be a scalar, a DataFrame, a Series or array-like, "
        f"got {type(other).__name__}"
    )


def binary(left: FrameBase, other: Any, name: str, reflected: bool = False, **kwargs: Any) -> Any:
    """``left <name> other`` (``other <name> left`` when ``reflected``), pandas semantics."""
    _check_other(other, name)
    if isinstance(other, (pd.DataFrame, pd.Series)):
        other = (DataFrame if isinstance(other, pd.DataFrame) else Series)(other)
    method = f"r{name}" if reflected and name not in ("eq", "ne", "lt", "le", "gt", "ge") else name
    if name in ("and", "or", "xor"):
        method = f"__{'r' if reflected else ''}{name}__"
    if is_lazy_scalar(other):
        meta = empty_like(call_method(left.meta, method, scalar_sample(left, other), **kwargs))
        # map_chunks hands the tensor's one chunk, read by every task, to pandas as a scalar
        return map_chunks(call_method, [left], (Slot(0), method, other), meta, kwargs, name)
    meta = empty_like(call_method(left.meta, method, meta_of(other), **kwargs))
    if not isinstance(other, FrameBase):
        return map_chunks(call_method, [left], (Slot(0), method, other), meta, kwargs, name)
    if (
        isinstance(left, DataFrame)
        and isinstance(other, Series)
        and kwargs.get("axis")
        in (
            None,
            1,
            "columns",
        )
    ):
        # a Series of per-column values, read whole by every chunk of the frame
        single = one_chunk(other)
        return map_chunks(
            call_method,
            [left, single],
            (Slot(0), method, Slot(1)),
            meta,
            kwargs,
            name,
            broadcast=frozenset({1}),
        )
    frames = aligned([left, other])
    same = frames[0] is left
    return map_chunks(
        call_method, frames, (Slot(0), method, Slot(1)), meta, kwargs, name, keeps_rows=same
    )


def unary(frame: FrameBase, method: str, *args: Any, **kwargs: Any) -> Any:
    """``frame.method(*args, **kwargs)`` per chunk: rows, index and chunking kept."""
    meta = empty_like(call_method(frame.meta, method, *args, **kwargs))
    return map_chunks(call_method, [frame], (Slot(0), method, *args), meta, kwargs, method)


def _attach() -> None:
    for cls in (DataFrame, Series):
        for name in _BINARY:
            if name in ("and", "or", "xor"):
                dunder = f"__{name}__"
                setattr(cls, dunder, _operator(name, False))
                setattr(cls, f"__r{name}__", _operator(name, True))
                continue
            setattr(cls, name, _method(name))
            setattr(cls, f"__{name}__", _operator(name, False))
            if name not in ("eq", "ne", "lt", "le", "gt", "ge"):
                setattr(cls, f"r{name}", _method(name, reflected=True))
                setattr(cls, f"__r{name}__", _operator(name, True))
        methods: dict[str, Callable[..., Any]] = {
            "div": _method("truediv"),
            "rdiv": _method("truediv", reflected=True),
            "__neg__": lambda self: unary(self, "__neg__"),
            "__pos__": lambda self: unary(self, "__pos__"),
            "__invert__": lambda self: unary(self, "__invert__"),
            "__abs__": lambda self: unary(self, "abs"),
            "round": lambda self, decimals=0: unary(self, "round", decimals),
            "clip": clip,
            "astype": astype,
            # nodes are immutable, but in-place methods repoint a handle: a new handle
            "copy": lambda self, deep=True: type(self)(self._node),
        }
        for attr, value in methods.items():
            setattr(cls, attr, value)
        for method in ("abs", "isna", "notna", "isnull", "notnull"):
            setattr(cls, method, _simple(method))


def _lazy_bound(bound: Any) -> Any:
    if isinstance(bound, pd.DataFrame):
        return DataFrame(bound)
    if isinstance(bound, pd.Series):
        return Series(bound)
    return bound


def clip(
    frame: FrameBase, lower: Any = None, upper: Any = None, *, axis: Any = None, **kwargs: Any
) -> Any:
    """Values bounded below by ``lower`` and above by ``upper``: scalars or list-likes per
    chunk, Series and DataFrames aligned on labels as pandas aligns them (a Series along
    the columns, ``axis=1``, is read whole by every chunk)."""
    if axis is not None:
        kwargs["axis"] = axis
    bounds = [_lazy_bound(b) for b in (lower, upper)]
    meta = empty_like(call_method(frame.meta, "clip", *map(meta_of, bounds), **kwargs))
    lazy = [b for b in bounds if isinstance(b, FrameBase)]
    per_column = isinstance(frame, DataFrame) and axis in (1, "columns")
    if per_column:
        lazy = [one_chunk(b) for b in lazy]
        frames = [frame, *lazy]
    else:
        frames = aligned([frame, *lazy])
    args = [Slot(0), "clip", *slot_args(bounds, first=1)]
    broadcast = frozenset(range(1, len(frames))) if per_column else frozenset()
    same = frames[0] is frame
    return map_chunks(
        call_method, frames, tuple(args), meta, kwargs, "clip", same, broadcast=broadcast
    )


def _is_category(dtype: Any) -> bool:
    return isinstance(dtype, str) and dtype == "category"


def astype(frame: FrameBase, dtype: Any) -> Any:
    """``frame.astype(dtype)``; to ``"category"``, the categories are those of the whole
    column (not of each chunk), as pandas infers them."""
    if _is_category(dtype):
        return as_category(frame)
    if isinstance(dtype, dict):
        to_category = [c for c, t in dtype.items() if _is_category(t)]
        rest = {c: t for c, t in dtype.items() if not _is_category(t)}
        if to_category:
            frame.meta[to_category]  # KeyError for unknown columns, at this line
            frame = as_category(frame, to_category)
        return unary(frame, "astype", rest) if rest else frame
    return unary(frame, "astype", dtype)


def _method(name: str, reflected: bool = False) -> Callable[..., Any]:
    def method(self: FrameBase, other: Any, axis: Any = "columns", fill_value: Any = None) -> Any:
        kwargs: dict[str, Any] = {}
        if isinstance(self, DataFrame):
            kwargs["axis"] = axis
        if fill_value is not None:
            kwargs["fill_value"] = fill_value
        return binary(self, other, name, reflected, **kwargs)

    method.__name__ = f"r{name}" if reflected else name
    return method


def _operator(name: str, reflected: bool) -> Callable[..., Any]:
    def dunder(self: FrameBase, other: Any) -> Any:
        return binary(self, other, name, reflected)

    return dunder


def _simple(method: str) -> Callable[..., Any]:
    def call(self: FrameBase) -> Any:
        return unary(self, method)

    call.__name__ = method
    return call


_attach()
