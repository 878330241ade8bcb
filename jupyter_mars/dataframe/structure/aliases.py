"""pandas' other names for methods that exist (``divide``, ``multiply``, ``subtract``,
``product``), ``divmod``/``rdivmod`` and ``dot`` built of them, and ``keys``/``axes``/``get``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks, one_chunk
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.structure.common import as_lazy, lazy_index


def _alias(name: str) -> Callable[..., Any]:
    def method(self: FrameBase, *args: Any, **kwargs: Any) -> Any:
        return getattr(self, name)(*args, **kwargs)

    method.__name__ = name
    method.__doc__ = f"The same as ``{name}``."
    return method


def divmod_(self: FrameBase, other: Any, level: Any = None, fill_value: Any = None) -> Any:
    """``(self // other, self % other)``."""
    if level is not None:
        raise NotImplementedError("divmod: level= is not supported")
    return self.floordiv(other, fill_value=fill_value), self.mod(  # type: ignore[attr-defined]
        other, fill_value=fill_value
    )


def rdivmod(self: FrameBase, other: Any, level: Any = None, fill_value: Any = None) -> Any:
    """``(other // self, other % self)``."""
    if level is not None:
        raise NotImplementedError("rdivmod: level= is not supported")
    return self.rfloordiv(other, fill_value=fill_value), self.rmod(  # type: ignore[attr-defined]
        other, fill_value=fill_value
    )


def keys(self: FrameBase) -> Any:
    """The columns of a DataFrame; the index (lazy) of a Series."""
    if isinstance(self, DataFrame):
        return self.columns
    return lazy_index(self)


def axes(self: FrameBase) -> list[Any]:
    """``[index, columns]`` of a DataFrame, ``[index]`` of a Series; the index lazy."""
    index = lazy_index(self)
    return [index, self.columns] if isinstance(self, DataFrame) else [index]


def get(self: FrameBase, key: Any, default: Any = None) -> Any:
    """``self[key]``, or ``default`` where there is no such key: a DataFrame's columns
    are known now; a Series' value is looked up now (fetched), as pandas returns it."""
    if isinstance(self, DataFrame):
        try:
            self.meta[key]
        except (KeyError, ValueError, IndexError, TypeError):
            return default
        return self[key]  # type: ignore[index]
    try:
        value = self.loc[key]  # type: ignore[attr-defined]
        value.execute()
        return value.fetch()
    except KeyError:
        return default


def frame_dot(chunk: Any, other: Any) -> Any:
    return chunk.dot(other)


def dot(self: FrameBase, other: Any) -> Any:
    """Matrix product (pandas ``dot``): ``other``'s index is aligned with the columns of
    a DataFrame (each row chunk times the whole ``other``), with the index of a Series
    (products summed down the rows)."""
    given = other
    other = as_lazy(other)
    if isinstance(other, list):
        other = np.asarray(other)
    if not isinstance(other, FrameBase | np.ndarray):
        raise TypeError(
            f"dot: other must be a DataFrame, Series or array, got {type(other).__name__}"
        )
    if isinstance(self, DataFrame):
        if isinstance(other, np.ndarray):
            meta = self.meta.dot(np.zeros((len(self.columns),) + other.shape[1:]))
            return map_chunks(frame_dot, [self], (Slot(0), other), empty_like(meta), name="dot")
        # labels of a pandas operand are checked now, those of a lazy one when computed
        known = isinstance(given, pd.DataFrame | pd.Series)
        meta = self.meta.dot(given if known else _square_meta(other.meta, self.columns))
        return map_chunks(
            frame_dot,
            [self, one_chunk(other)],
            (Slot(0), Slot(1)),
            empty_like(meta),
            name="dot",
            broadcast=frozenset({1}),
        )
    if isinstance(other, DataFrame):
        summed = other.mul(self, axis=0).sum()
        return summed.rename(self.meta.name)
    if isinstance(other, Series):
        return (self * other).sum()  # type: ignore[operator]
    return self.to_tensor().dot(other)  # type: ignore[attr-defined]


def _square_meta(meta: Any, labels: pd.Index) -> Any:
    """``meta`` (the right operand) given ``labels`` as its rows, to learn the result's
    labels and dtypes from pandas without data."""
    if isinstance(meta, pd.Series):
        return pd.Series(np.zeros(len(labels), dtype=_numeric(meta.dtype)), index=labels)
    return pd.DataFrame(
        {i: np.zeros(len(labels), dtype=_numeric(t)) for i, t in enumerate(meta.dtypes)},
        index=labels,
    ).set_axis(meta.columns, axis=1)


def _numeric(dtype: Any) -> Any:
    return dtype if isinstance(dtype, np.dtype) and dtype.kind in "biufc" else np.dtype(object)


def _attach() -> None:
    for cls in (DataFrame, Series):
        aliases: dict[str, Any] = {
            "divide": _alias("truediv"),
            "multiply": _alias("mul"),
            "subtract": _alias("sub"),
            "product": _alias("prod"),
            "keys": keys,
            "axes": property(axes),
            "get": get,
            "dot": dot,
            "__matmul__": dot,
            "__divmod__": divmod_,
            "__rdivmod__": rdivmod,
        }
        for attr, value in aliases.items():
            setattr(cls, attr, value)
    setattr(Series, "divmod", divmod_)  # noqa: B010
    setattr(Series, "rdivmod", rdivmod)  # noqa: B010


_attach()
