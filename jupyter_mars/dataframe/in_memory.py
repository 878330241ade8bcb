"""pandas' top-level functions whose data is held in this process: ``json_normalize``
(nested records given as Python objects), ``array`` (an in-memory ExtensionArray) and
``infer_freq`` (a frequency read from every value).

They run pandas here. A lazy object given to ``array`` or ``infer_freq`` is executed and
fetched first, since each result is made from all of its values; ``json_normalize`` gives
a lazy DataFrame of pandas' result, in row chunks of ``chunk_size``.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from jupyter_mars.dataframe.apply import sample_like
from jupyter_mars.dataframe.core import DataFrame, FrameBase
from jupyter_mars.dataframe.datasource import from_pandas
from jupyter_mars.tensor.core import Tensor

__all__ = ["array", "infer_freq", "json_normalize"]


def _fetched(value: Any) -> Any:
    if isinstance(value, FrameBase):
        return value.to_pandas()
    if isinstance(value, Tensor):
        return value.to_numpy()
    return value


def json_normalize(
    data: Any,
    record_path: Any = None,
    meta: Any = None,
    meta_prefix: str | None = None,
    record_prefix: str | None = None,
    errors: str = "raise",
    sep: str = ".",
    max_level: int | None = None,
    chunk_size: Any = None,
) -> DataFrame:
    """Semi-structured records (dicts, lists of dicts) flattened into a table, as
    ``pandas.json_normalize``: a lazy DataFrame of pandas' result in row chunks of
    ``chunk_size``. A lazy Series of records is fetched first."""
    frame = pd.json_normalize(
        _fetched(data),
        record_path=record_path,
        meta=meta,
        meta_prefix=meta_prefix,
        record_prefix=record_prefix,
        errors=errors,
        sep=sep,
        max_level=max_level,
    )
    return DataFrame(from_pandas(frame, chunk_size))


def array(data: Any, dtype: Any = None, copy: bool = True) -> Any:
    """``pandas.array``: an in-memory ExtensionArray of ``data``; a lazy Series, Index
    or tensor is executed and fetched first."""
    return pd.array(_fetched(data), dtype=dtype, copy=copy)


def infer_freq(index: Any) -> Any:
    """``pandas.infer_freq``: the frequency of a DatetimeIndex, TimedeltaIndex or Series
    of datetimes, or None. A lazy Series or Index is executed and fetched, since every
    value counts; its dtype is checked first, so a wrong one raises pandas' TypeError
    before anything runs."""
    if isinstance(index, FrameBase):
        meta = index.meta
        if isinstance(meta, pd.DataFrame):
            raise TypeError("infer_freq takes a Series or an Index, not a DataFrame")
        if meta.dtype != object:  # object values may be datetimes: only they can tell
            series = meta.to_series() if isinstance(meta, pd.Index) else meta
            pd.infer_freq(sample_like(series, 3))  # pandas' checks of the dtype
    return pd.infer_freq(_fetched(index))
