"""The pairwise table of a windowed ``cov`` / ``corr``: every column of a DataFrame with
every column of another (or of itself), rows labelled by row and the other's column.

pandas lays it out row by row, each row followed by one line per column of ``other``:
line ``(t, o)`` holds the window's ``cov`` (``corr``) of each column with column ``o`` at
row ``t``. The column-by-column results (``window.cov(other[o], pairwise=False)``) keep
the frame's rows and chunking, so one map over their chunks interleaves them into that
layout, chunk for chunk; the window computes them as any other pairing.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.core import DataFrame, FrameBase
from jupyter_mars.dataframe.map_chunks import Slot, aligned, map_chunks


def wants_table(frame: FrameBase, other: Any, pairwise: Any) -> bool:
    """Whether pandas gives the pairwise table: a DataFrame's window with no ``other``
    (unless ``pairwise=False``), or with a DataFrame and ``pairwise=True``."""
    if not isinstance(frame, DataFrame):
        return False
    if other is None:
        return pairwise is None or bool(pairwise)
    return bool(pairwise) and isinstance(other, (DataFrame, pd.DataFrame))


def interleave(meta: pd.DataFrame, labels: pd.Index, *parts: Any) -> pd.DataFrame:
    """Line ``(t, labels[i])`` of the table is row ``t`` of ``parts[i]``."""
    first = parts[0]
    n, k = len(first), len(parts)
    values = np.stack([p.to_numpy(dtype=np.float64) for p in parts], axis=1)
    rows = first.index.repeat(k)
    levels = [rows.get_level_values(i) for i in range(rows.nlevels)]
    levels.append(labels.take(np.tile(np.arange(k), n)))
    index = pd.MultiIndex.from_arrays(levels, names=meta.index.names)
    return pd.DataFrame(values.reshape(n * k, -1), index=index, columns=meta.columns)


def pairwise_table(window: Any, how: str, other: Any, meta: Any, kwargs: dict[str, Any]) -> Any:
    """``window``'s ``how`` table of its frame's columns with ``other``'s (a lazy
    DataFrame), shaped as ``meta`` (pandas' table of made-up rows)."""
    method = getattr(window, how)
    parts = [
        method(other.iloc[:, i], pairwise=False, **kwargs) for i in range(len(other.meta.columns))
    ]
    if not parts:
        raise NotImplementedError(f"the pairwise {how} table of a frame without columns")
    labels = other.meta.columns
    slots = tuple(Slot(i) for i in range(len(parts)))
    return map_chunks(
        interleave,
        aligned(parts),
        (meta, labels, *slots),
        meta,
        name=f"{how}_table",
        keeps_rows=False,
    )
