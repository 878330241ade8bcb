"""Mars's ``series_from_index``: a lazy Index's values as a Series, as ``Index.to_series``
(indexed by the Index itself, or by position with ``index=``)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from jupyter_mars.dataframe.core import Index, Series
from jupyter_mars.dataframe.from_tensor import index_by_position
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks

__all__ = ["series_from_index"]


def index_to_series(chunk: pd.Index, name: Any) -> pd.Series:
    return chunk.to_series(name=name)


def series_from_index(ind: Any, index: Any = None, name: Any = None) -> Series:
    """A lazy Series of ``ind``'s values, labelled by ``ind`` or by ``index`` (values, a
    lazy Index or Series, or a tensor) by position; named ``name`` or ``ind``'s name."""
    if isinstance(ind, Series):
        raise TypeError("ind must be an Index, got a Series")
    if not isinstance(ind, Index):
        ind = Index(pd.Index(ind))
    meta = ind.meta.to_series(name=name)
    series = map_chunks(index_to_series, [ind], (Slot(0), meta.name), meta, name="to_series")
    return index_by_position(series, index)  # type: ignore[no-any-return]
