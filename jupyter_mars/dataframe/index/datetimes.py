"""Date and time fields and methods of a lazy DatetimeIndex, TimedeltaIndex or
PeriodIndex: ``idx.year``, ``idx.strftime(...)``, and the same through ``idx.dt``.

pandas puts these on the index itself; Series have them under ``.dt``. Here both
spellings work on a lazy Index. Each is one pandas call per chunk; what kind of result
it gives (an Index, a NumPy array, a plain value) is learned from the same call on a
one-row sample of the index's dtype, the one ``Series.dt`` uses. Arrays come back as
lazy tensors (as ``isin``'s do); plain values of the whole index (``inferred_freq``)
are computed and fetched.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.accessors.datetimes import ALIASES, sample_datetimes
from jupyter_mars.dataframe.core import Index
from jupyter_mars.dataframe.index._calls import per_chunk, value
from jupyter_mars.dataframe.index.normalize import normalize
from jupyter_mars.dataframe.index.rows import array_per_chunk
from jupyter_mars.dataframe.node import empty_like


def is_datetimelike(meta: pd.Index) -> bool:
    return isinstance(meta, (pd.DatetimeIndex, pd.TimedeltaIndex, pd.PeriodIndex))


def sample_index(meta: pd.Index) -> pd.Index:
    """A one-row index of ``meta``'s dtype and name, with no missing value."""
    return pd.Index(sample_datetimes(pd.Series(meta[:0], name=meta.name)), name=meta.name)


WHOLE_INDEX: dict[str, Any] = {"normalize": normalize}
"""DatetimeIndex methods whose result depends on the whole index (``normalize`` infers
its ``freq`` from every value), each a function of the lazy index."""


def _result(index: Index, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    if name in WHOLE_INDEX and isinstance(index.meta, pd.DatetimeIndex):
        getattr(index.meta, name)(*args, **kwargs)  # pandas checks the arguments
        return WHOLE_INDEX[name](index)
    attr = getattr(sample_index(index.meta), name)
    out = attr(*args, **kwargs) if callable(attr) else attr
    if isinstance(out, pd.Index):
        return per_chunk(index, name, *args, meta=empty_like(out), **kwargs)
    if isinstance(out, np.ndarray):
        return array_per_chunk(index, name, *args, **kwargs)
    return value(index, name, *args, **kwargs)


class IndexDatetimeMethods:
    """The fields and methods of a date-like lazy Index."""

    def __init__(self, index: Index) -> None:
        if not is_datetimelike(index.meta):
            raise AttributeError("Can only use .dt accessor with datetimelike values")
        self._index = index

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        name = ALIASES.get(name, name)
        attr = getattr(sample_index(self._index.meta), name)  # AttributeError if unknown
        if not callable(attr):
            return _result(self._index, name, (), {})

        def method(*args: Any, **kwargs: Any) -> Any:
            return _result(self._index, name, args, kwargs)

        method.__name__ = name
        return method

    def __dir__(self) -> list[str]:
        return sorted(n for n in dir(sample_index(self._index.meta)) if not n.startswith("_"))


def index_getattr(self: Index, name: str) -> Any:
    """The fields and methods pandas puts on date-like indexes (``idx.year``)."""
    if name.startswith("_"):  # never reads self._node, which may be unset (unpickling)
        raise AttributeError(name)
    if name == "dt":  # the property's own error, which Python replaced by this lookup
        raise AttributeError("Can only use .dt accessor with datetimelike values")
    meta = self._node.meta
    if is_datetimelike(meta) and hasattr(type(meta), name):
        return getattr(IndexDatetimeMethods(self), name)
    raise AttributeError(f"'Index' object has no attribute {name!r}")


_ATTRS: dict[str, Any] = {"dt": property(IndexDatetimeMethods), "__getattr__": index_getattr}
for _attr, _value in _ATTRS.items():
    setattr(Index, _attr, _value)
