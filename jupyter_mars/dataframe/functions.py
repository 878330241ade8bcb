"""pandas' top-level element-wise functions on lazy objects: ``to_numeric``,
``to_datetime``, ``to_timedelta``, ``isna`` / ``isnull`` / ``notna`` / ``notnull``, and ``unique``.

A lazy Series, Index or DataFrame gets one pandas call per chunk; the meta (the result's
dtype) comes from the same call on the input's meta, so bad arguments raise pandas' error
at the call. Values that are not lazy (scalars, lists, pandas or NumPy objects) go to
pandas unchanged, so these functions can replace pandas' everywhere. A lazy tensor gives a
lazy tensor: its values pass through a lazy Series of the same chunks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

import jupyter_mars.dataframe.conversion  # noqa: F401 - Series.to_tensor
from jupyter_mars.dataframe.core import DataFrame, FrameBase, Index, Series
from jupyter_mars.dataframe.datasource import from_tensor
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.sort.unique import unique as series_unique
from jupyter_mars.tensor.core import Tensor

__all__ = [
    "factorize",
    "isna",
    "isnull",
    "notna",
    "notnull",
    "to_datetime",
    "to_numeric",
    "to_timedelta",
    "unique",
]


def _apply(func: Callable[..., Any], chunk: Any, kwargs: dict[str, Any]) -> Any:
    out = func(chunk, **kwargs)
    if isinstance(chunk, pd.Index) and isinstance(out, np.ndarray):
        return pd.Index(out, name=chunk.name)  # an Index chunk stays an Index
    return out


def _per_chunk(func: Callable[..., Any], obj: FrameBase, kwargs: dict[str, Any]) -> Any:
    meta = _apply(func, obj.meta, kwargs)  # pandas' errors and result dtype, at the call
    return map_chunks(_apply, [obj], (func, Slot(0), kwargs), empty_like(meta), name=func.__name__)


def _tensor_series(t: Tensor) -> Series:
    if t.ndim != 1:
        raise NotImplementedError(f"a {t.ndim}-d tensor: only 1-d tensors are supported")
    return Series(from_tensor(t, "series", None, None, None, None, None))


def _lazy(func: Callable[..., Any], obj: Any, kwargs: dict[str, Any]) -> Any:
    if isinstance(obj, FrameBase):
        return _per_chunk(func, obj, kwargs)
    if isinstance(obj, Tensor):
        return _per_chunk(func, _tensor_series(obj), kwargs).to_tensor()
    return func(obj, **kwargs)


def to_numeric(
    arg: Any,
    errors: str = "raise",
    downcast: str | None = None,
    dtype_backend: Any = pd.api.extensions.no_default,
) -> Any:
    """``pandas.to_numeric``: per chunk on lazy objects.

    ``downcast`` picks the smallest dtype that holds the values of the whole input in
    pandas; here it is chosen from the meta (the values' dtype), the same for every chunk,
    so it is the smallest dtype of the input's kind, not of its values' range.
    """
    if errors not in ("raise", "coerce"):
        raise ValueError("invalid error value specified")
    if downcast not in (None, "integer", "signed", "unsigned", "float"):
        raise ValueError("invalid downcasting method provided")
    kwargs: dict[str, Any] = {"errors": errors}
    if dtype_backend is not pd.api.extensions.no_default:
        kwargs["dtype_backend"] = dtype_backend
    if downcast is None or not isinstance(arg, (FrameBase, Tensor)):
        return _lazy(pd.to_numeric, arg, {**kwargs, "downcast": downcast})
    numbers = _lazy(pd.to_numeric, arg, kwargs)
    series = _tensor_series(numbers) if isinstance(numbers, Tensor) else numbers
    target = _downcast_dtype(series, downcast)
    return numbers.astype(target)


def chunk_downcast(chunk: Any, downcast: str) -> pd.Series:
    return pd.Series([pd.to_numeric(chunk, downcast=downcast).dtype.str])


def _downcast_dtype(series: Any, downcast: str) -> np.dtype[Any]:
    """The dtype pandas' ``downcast`` picks for the whole input: each chunk's pick, made
    common (the smallest dtype that holds every chunk's values). It is computed now, in
    the default session, since a lazy object's dtype never depends on data later."""
    picks = map_chunks(
        chunk_downcast, [series], (Slot(0), downcast), pd.Series([], dtype=object),
        name="downcast", keeps_rows=False,
    )  # fmt: skip
    return np.result_type(*(np.dtype(d) for d in picks.unique().to_numpy()))


def to_datetime(arg: Any, errors: str = "raise", **kwargs: Any) -> Any:
    """``pandas.to_datetime``: per chunk on a lazy Series or Index (a DataFrame of year /
    month / day columns too); a lazy tensor gives a tensor of datetime64."""
    if errors not in ("raise", "coerce"):
        raise ValueError(f"errors must be 'raise' or 'coerce', got {errors!r}")
    return _lazy(pd.to_datetime, arg, {"errors": errors, **kwargs})


def to_timedelta(arg: Any, unit: str | None = None, errors: str = "raise") -> Any:
    """``pandas.to_timedelta``: per chunk on a lazy Series or Index; a lazy tensor gives a
    tensor of timedelta64."""
    if errors not in ("raise", "coerce"):
        raise ValueError("errors must be one of 'raise', or 'coerce'.")
    return _lazy(pd.to_timedelta, arg, {"unit": unit, "errors": errors})


_SELF_UNEQUAL_KINDS = "fciubmM"
"""Tensor dtypes whose missing values (NaN, NaT; none for integers) are those unequal to
themselves."""


def _frame_method(name: str) -> Callable[[Any], Any]:
    def call(obj: Any) -> Any:
        if isinstance(obj, FrameBase):
            return getattr(obj, name)()
        if isinstance(obj, Tensor):
            if obj.dtype.kind in _SELF_UNEQUAL_KINDS:
                # only NaN and NaT differ from themselves: element-wise, any shape
                return obj != obj if name in ("isna", "isnull") else obj == obj
            return getattr(_tensor_series(obj), name)().to_tensor()
        return getattr(pd, name)(obj)

    call.__name__ = name
    call.__doc__ = f"``pandas.{name}``: element-wise on lazy objects and tensors too."
    return call


isna = _frame_method("isna")
isnull = _frame_method("isnull")
notna = _frame_method("notna")
notnull = _frame_method("notnull")


def factorize(
    values: Any, sort: bool = False, use_na_sentinel: bool = True, size_hint: int | None = None
) -> Any:
    """``pandas.factorize``: codes and distinct values; a lazy Series or Index (or a lazy
    1-d tensor) is fetched first, as its own ``factorize`` is."""
    kwargs: dict[str, Any] = {"sort": sort, "use_na_sentinel": use_na_sentinel}
    if isinstance(values, Tensor):
        values = _tensor_series(values)
    if isinstance(values, DataFrame):
        raise TypeError("factorize takes a Series, an Index or an array, not a DataFrame")
    if isinstance(values, (Series, Index)):
        lazy: Any = values  # its fetching methods are attached at import
        return lazy.factorize(**kwargs)
    return pd.factorize(values, size_hint=size_hint, **kwargs)


def _index_to_series(chunk: pd.Index) -> pd.Series:
    return chunk.to_series(index=pd.RangeIndex(len(chunk)))


def unique(values: Any) -> Any:
    """``pandas.unique``: the distinct values in order of appearance; a lazy 1-d tensor
    for a lazy Series, Index or tensor (pandas gives an array)."""
    if isinstance(values, DataFrame):
        raise TypeError("unique requires a Series, Index, ExtensionArray, or np.ndarray")
    if isinstance(values, Index):
        values = map_chunks(
            _index_to_series, [values], (Slot(0),), values.meta.to_series(), name="to_series"
        )
    if isinstance(values, Tensor):
        values = _tensor_series(values)
    if isinstance(values, Series):
        return series_unique(values)
    return pd.unique(values)
