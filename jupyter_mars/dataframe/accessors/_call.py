"""The chunk kernel shared by the accessors: one accessor attribute of one chunk.

``meta_from_sample`` works the result's meta out on a non-empty sample, because pandas
gives several accessor results another dtype (or no columns at all) when there are no
rows; ``accessor_chunk`` returns that meta, re-indexed, for a chunk of no rows, so every
chunk of a result agrees with it. pandas also types (and fills) the string results of
an object column with no value at all otherwise than those of missing rows among
others; such a chunk is computed with one sample row appended, so it agrees with its
neighbours. A whole column with no value then differs from pandas where pandas makes a
numeric result (a length, a count) object: here it is float64.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.node import empty_like


def accessor_attr(obj: Any, accessor: str, name: str, call: bool, args: Any, kwargs: Any) -> Any:
    """``obj.<accessor>.<name>`` (called with ``args`` and ``kwargs`` when ``call``)."""
    value = getattr(getattr(obj, accessor), name)
    return value(*args, **kwargs) if call else value


def accessor_chunk(
    chunk: pd.Series,
    accessor: str,
    name: str,
    call: bool,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    empty: Any,
    sample: pd.Series | None = None,
) -> Any:
    """The chunk kernel: pandas on the chunk, or ``empty`` on the chunk's index when it
    has no rows. With a ``sample``, a chunk with no value at all is computed with the
    sample's row appended (then dropped), so pandas types and fills its result as it
    does rows missing among others."""
    if len(chunk) == 0:
        return empty.set_axis(chunk.index)
    if sample is not None and bool(chunk.isna().all()):
        padded = pd.concat([chunk, sample.set_axis(pd.RangeIndex(1))], ignore_index=True)
        out = accessor_attr(padded, accessor, name, call, args, kwargs).iloc[:-1]
        return out.set_axis(chunk.index)
    out = accessor_attr(chunk, accessor, name, call, args, kwargs)
    return out


def meta_from_sample(
    sample: pd.Series, index: pd.Index, accessor: str, name: str, call: bool, args: Any, kwargs: Any
) -> Any:
    """The result's meta: the call on ``sample`` (pandas validates the arguments here),
    emptied and given the input's index type."""
    result = accessor_attr(sample, accessor, name, call, args, kwargs)
    if not isinstance(result, (pd.Series, pd.DataFrame)):
        raise TypeError(f".{accessor}.{name} does not give a Series or DataFrame per row")
    return empty_like(result).set_axis(index)


def map_accessor(
    series: Any,
    sample: pd.Series,
    accessor: str,
    name: str,
    call: bool,
    args: tuple[Any, ...] = (),
    kwargs: dict[str, Any] | None = None,
) -> Any:
    """``series.<accessor>.<name>[(*args, **kwargs)]`` per chunk, rows kept."""
    kw = dict(kwargs or {})
    meta = meta_from_sample(sample, series.meta.index, accessor, name, call, args, kw)
    pad = sample if accessor == "str" and series.meta.dtype == object else None
    return map_chunks(
        accessor_chunk,
        [series],
        (Slot(0), accessor, name, call, args, kw, meta, pad),
        meta,
        name=f"{accessor}.{name}",
    )
