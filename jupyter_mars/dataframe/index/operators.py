"""Operators on a lazy Index: arithmetic, comparisons, ``idx[key]``, ``in`` and iteration.

With a scalar on the other side an operator is one pandas call per chunk; with an
array or another index (its labels line up by position, as pandas pairs them) both
sides are brought into one task. pandas answers comparisons with NumPy arrays: here
lazy tensors. ``idx[position]`` and ``label in idx`` give plain values (fetched);
``idx[slice]`` and ``idx[mask_or_positions]`` give lazy indexes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.core import FrameBase, Index
from jupyter_mars.dataframe.index._calls import per_chunk, value, whole, whole_array
from jupyter_mars.dataframe.index.rows import array_per_chunk
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.tensor.core import Tensor

ARITHMETIC = "add sub mul truediv floordiv mod pow".split()
COMPARISONS = "eq ne lt le gt ge".split()


def _plain(other: Any) -> Any:
    """A lazy tensor operand, fetched; anything else as it is."""
    return np.asarray(other.to_numpy()) if isinstance(other, Tensor) else other


def _is_scalar(other: Any) -> bool:
    return not isinstance(other, FrameBase) and bool(pd.api.types.is_scalar(other))


def _meta_other(other: Any) -> Any:
    """What the other operand looks like with no rows, to work out the result's meta."""
    if isinstance(other, FrameBase):
        return other.meta
    return other if _is_scalar(other) else np.asarray(other)[:0]


def _arithmetic(dunder: str) -> Any:
    def operator(self: Index, other: Any) -> Any:
        other = _plain(other)
        if _is_scalar(other):
            return per_chunk(self, dunder, other)
        meta = empty_like(getattr(self.meta, dunder)(_meta_other(other)))
        return whole(self, dunder, other, meta=meta, length=self.node.shape[0])

    operator.__name__ = dunder
    return operator


def _comparison(dunder: str) -> Any:
    def operator(self: Index, other: Any) -> Any:
        other = _plain(other)
        if _is_scalar(other):
            return array_per_chunk(self, dunder, other)
        getattr(self.meta, dunder)(_meta_other(other))  # pandas' TypeError, if any
        return whole_array(self, dunder, other, result_dtype=bool, length=self.node.shape[0])

    operator.__name__ = dunder
    return operator


def getitem(self: Index, key: Any) -> Any:
    key = _plain(key)
    if isinstance(key, (int, np.integer)):
        return value(self, "__getitem__", key)
    if isinstance(key, slice):
        return whole(self, "__getitem__", key, meta=empty_like(self.meta))
    if isinstance(key, FrameBase):
        key = key.to_pandas()
    return whole(self, "__getitem__", np.asarray(key), meta=empty_like(self.meta))


def contains(self: Index, key: Any) -> bool:
    return bool(value(self, "__contains__", key))


def iterate(self: Index) -> Iterator[Any]:
    return iter(self.to_pandas())


def _attach() -> None:
    methods: dict[str, Any] = {}
    for name in ARITHMETIC:
        methods[f"__{name}__"] = _arithmetic(f"__{name}__")
        methods[f"__r{name}__"] = _arithmetic(f"__r{name}__")
    for name in COMPARISONS:
        methods[f"__{name}__"] = _comparison(f"__{name}__")
    for name in ("__neg__", "__pos__", "__abs__", "__invert__"):
        methods[name] = lambda self, _name=name: per_chunk(self, _name)
    methods.update(
        {
            "__getitem__": getitem,
            "__contains__": contains,
            "__iter__": iterate,
        }
    )
    for attr, value_ in methods.items():
        setattr(Index, attr, value_)


_attach()
