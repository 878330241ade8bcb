"""What the structure modules share: per-chunk pandas calls that keep or change the
index, pairs of frames brought to line up, and fetching the index."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series, new_frame
from jupyter_mars.dataframe.filters import call_method
from jupyter_mars.dataframe.map_chunks import MapChunks, Slot, map_chunks, one_chunk
from jupyter_mars.dataframe.node import FrameNode, empty_like


def node_of(frame: FrameBase) -> FrameNode:
    node = frame.node
    assert isinstance(node, FrameNode)
    return node


def per_chunk(frame: FrameBase, method: str, meta: Any, *args: Any, **kwargs: Any) -> Any:
    """``chunk.method(*args, **kwargs)`` per chunk; rows, index and chunking kept."""
    return map_chunks(
        call_method, [frame], (Slot(0), method, *args), empty_like(meta), kwargs, method
    )


def relabel_chunks(frame: FrameBase, method: str, meta: Any, *args: Any, **kwargs: Any) -> Any:
    """``chunk.method(*args, **kwargs)`` per chunk for a call that keeps the rows but
    changes their labels: same row count, a new index key."""
    op = MapChunks(call_method, (Slot(0), method, *args), kwargs, method)
    return new_frame(op, [frame], node_of(frame).shape[0], empty_like(meta))


def as_lazy(obj: Any) -> Any:
    """pandas objects as lazy ones; lazy objects and anything else as they are."""
    if isinstance(obj, pd.DataFrame):
        return DataFrame(obj)
    if isinstance(obj, pd.Series):
        return Series(obj)
    return obj


def same_rows(left: FrameBase, right: FrameBase) -> bool:
    """The two share their index and chunking, so chunk i of each holds the same rows."""
    return node_of(left).index_key == node_of(right).index_key


def pairwise(
    func: Any, left: FrameBase, right: FrameBase, meta: Any, *args: Any, keeps_rows: bool = False
) -> Any:
    """``func(left_chunk, right_chunk, *args)``: chunk by chunk when the two line up (the
    result then keeps ``left``'s rows only with ``keeps_rows``), else on each whole."""
    meta = empty_like(meta)
    if same_rows(left, right):
        return map_chunks(
            func, [left, right], (Slot(0), Slot(1), *args), meta, keeps_rows=keeps_rows
        )
    whole = [one_chunk(left), one_chunk(right)]
    return map_chunks(func, whole, (Slot(0), Slot(1), *args), meta, keeps_rows=False)


def with_whole(func: Any, left: FrameBase, right: FrameBase, meta: Any, *args: Any) -> Any:
    """``func(left_chunk, right, *args)`` per chunk of ``left``, ``right`` read whole by
    every task: the rows and index of ``left`` are kept."""
    if same_rows(left, right):
        frames, broadcast = [left, right], frozenset[int]()
    else:
        frames, broadcast = [left, one_chunk(right)], frozenset({1})
    return map_chunks(
        func,
        frames,
        (Slot(0), Slot(1), *args),
        empty_like(meta),
        name=getattr(func, "__name__", ""),
        broadcast=broadcast,
    )


def meta_value(value: Any) -> Any:
    """What stands for ``value`` in a call on a meta (no rows): the meta of a lazy or
    pandas object, no elements of an array, a scalar as it is."""
    if isinstance(value, FrameBase):
        return value.meta
    if isinstance(value, pd.DataFrame | pd.Series | pd.Index):
        return empty_like(value)
    if isinstance(value, list | tuple | range | np.ndarray):
        return np.asarray(value)[:0]
    return value


def chunk_index(chunk: Any) -> pd.Index:
    return chunk.index


def lazy_index(frame: FrameBase) -> Any:
    """The row labels as a lazy Index with the frame's chunks."""
    return map_chunks(chunk_index, [frame], (Slot(0),), frame.meta.index, name="index")


def fetch_index(frame: FrameBase) -> pd.Index:
    """The row labels, computed now (for a result whose labels or kind depend on them)."""
    index = lazy_index(frame)
    index.execute()
    out = index.fetch()
    assert isinstance(out, pd.Index)
    return out


def sample_values(dtype: Any, n: int) -> Any:
    """``n`` valid values of ``dtype`` (not missing where the dtype has others), to learn
    what pandas does with data of that dtype without the data."""
    if isinstance(dtype, pd.CategoricalDtype):
        cats = dtype.categories
        return pd.Categorical([cats[0] if len(cats) else None] * n, dtype=dtype)
    kind = getattr(dtype, "kind", "O")
    if kind in "biufcmM":
        try:
            return pd.Series([0] * n).astype(dtype).array
        except (TypeError, ValueError):
            pass
    if kind in "OSU" or isinstance(dtype, pd.StringDtype):
        return pd.array(["x"] * n, dtype=dtype)
    return pd.array([None] * n, dtype=dtype)


def sample_like(meta: Any, index: Any = None) -> Any:
    """A pandas object like ``meta`` with valid values: one row, or ``index``'s rows."""
    if index is None:
        index = pd.RangeIndex(1)
    n = len(index)
    if isinstance(meta, pd.Series):
        return pd.Series(sample_values(meta.dtype, n), index=index, name=meta.name)
    data = {i: sample_values(t, n) for i, t in enumerate(meta.dtypes)}
    out = pd.DataFrame(data, index=index)
    out.columns = meta.columns
    return out


def conform(result: Any, meta: Any) -> Any:
    """``result`` with ``meta``'s dtypes, where pandas chose narrower ones because these
    rows happened to have no gaps (the meta's are what any rows may need)."""
    if isinstance(result, pd.DataFrame):
        wanted = {c: t for c, t in zip(result.columns, meta.dtypes) if result[c].dtype != t}
        if wanted and result.columns.is_unique:
            return _cast(result, wanted)
        return result
    if isinstance(result, pd.Series) and result.dtype != meta.dtype:
        return _cast(result, meta.dtype)
    return result


def _cast(result: Any, dtype: Any) -> Any:
    try:
        return result.astype(dtype)
    except (TypeError, ValueError):  # values the meta's dtype cannot hold: pandas' own
        return result
