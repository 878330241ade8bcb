"""Group keys: what ``by`` / ``level`` name, and how one chunk turns them into key Series.

A grouping is a tuple of ``KeyItem``: a column of the frame, a lazy Series read beside the
frame (extra input ``n`` of the chunk kernels), or a level of the row index. Chunk kernels
call ``key_series`` to get one named Series per key, aligned with the chunk's rows, and
hand them to pandas' own ``groupby``. Probes (one-row pandas objects with the meta's
dtypes and index type) let pandas itself check arguments and give result metas.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from pandas.util import hash_pandas_object

from jupyter_mars.dataframe.partition import split_by_codes


@dataclass(frozen=True)
class KeyItem:
    """One group key."""

    kind: str
    """``"column"``, ``"series"`` or ``"level"``."""
    ref: Any
    """The column label, the extra input's position (from 1), or the index level."""
    name: Any
    """The key's name in the result's index."""


def key_series(chunk: Any, keys: tuple[KeyItem, ...], extra: tuple[Any, ...]) -> list[Any]:
    """One Series per key, aligned with ``chunk``'s rows (``extra``: the lazy Series' chunks)."""
    out = []
    for item in keys:
        if item.kind == "column":
            out.append(chunk[item.ref])
        elif item.kind == "series":
            s = extra[item.ref - 1]
            if not s.index.equals(chunk.index):
                s = s.reindex(chunk.index)
            out.append(s)
        else:
            values = chunk.index.get_level_values(item.ref)
            out.append(pd.Series(values, index=chunk.index, name=item.name))
    return out


def grouper(keys: list[Any]) -> Any:
    """What to pass to pandas' ``groupby``: the Series itself when there is one key."""
    return keys[0] if len(keys) == 1 else keys


def key_codes(keys: pd.DataFrame, n_out: int) -> np.ndarray[Any, Any]:
    """The shuffle part of each row by a hash of its keys; equal keys (``-0.0`` and ``0.0``
    included, as pandas groups them together) land in the same part."""
    normal = {}
    for i in range(keys.shape[1]):
        col = keys.iloc[:, i]
        if col.dtype.kind == "f":
            col = col + 0.0  # -0.0 + 0.0 is 0.0
        normal[i] = col
    hashed = hash_pandas_object(pd.DataFrame(normal), index=False).to_numpy()
    codes: np.ndarray[Any, Any] = (hashed % np.uint64(n_out)).astype(np.intp)
    return codes


def split_by_index_keys(chunk: Any, n_out: int) -> list[Any]:
    """Rows of ``chunk`` in ``n_out`` parts by a hash of the index (the group keys)."""
    index = chunk.index
    keys = index.to_frame(index=False) if isinstance(index, pd.MultiIndex) else index.to_frame()
    return split_by_codes(chunk, key_codes(keys, n_out), n_out)


def probe_values(dtype: Any, n: int) -> Any:
    kind = getattr(dtype, "kind", "O")
    if isinstance(dtype, np.dtype) and kind in "iufcb":
        return np.ones(n, dtype=dtype)
    if isinstance(dtype, np.dtype) and kind in "mM":
        return np.zeros(n, dtype=dtype)
    if isinstance(dtype, np.dtype) and kind == "O":
        return np.array(["a"] * n, dtype=object)
    for value in (1, "a", True):
        try:
            return pd.array([value] * n, dtype=dtype)
        except (TypeError, ValueError):
            continue
    return pd.array([None] * n, dtype=dtype)


def probe_index(index: pd.Index, n: int = 1) -> pd.Index:
    """An index of ``n`` rows with the type, dtypes and names of ``index``."""
    if isinstance(index, pd.MultiIndex):
        arrays = [probe_values(t, n) for t in index.dtypes]
        return pd.MultiIndex.from_arrays(arrays, names=index.names)
    if isinstance(index, pd.RangeIndex):
        return pd.RangeIndex(n, name=index.name)
    return pd.Index(probe_values(index.dtype, n), name=index.name)


def probe(meta: Any, n: int = 1) -> Any:
    """A pandas object of ``n`` rows shaped like ``meta``, with no missing values."""
    index = probe_index(meta.index, n)
    if isinstance(meta, pd.Series):
        return pd.Series(probe_values(meta.dtype, n), index=index, name=meta.name)
    data = {i: pd.Series(probe_values(t, n), index=index) for i, t in enumerate(meta.dtypes)}
    frame = pd.DataFrame(data, index=index)
    frame.columns = meta.columns
    return frame
