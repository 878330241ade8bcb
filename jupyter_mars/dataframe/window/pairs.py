"""Two frames laid out as column pairs, for the windowed ``cov`` and ``corr``.

pandas pairs each column with ``other``'s column of the same label (a DataFrame), or
with ``other`` itself (a Series), on the union of their rows, a row counting only where
both sides have a value. A map over the two inputs, lined up chunk for chunk (or each
in one chunk when their rows differ), lays every pair out as two columns of one frame,
each side missing where the other is: the left sides first, then the right ones. A
window (``ewm``, ``rolling``, ``expanding``) then runs over that frame's chunks as it
runs over any other.

The pairwise table of every column with every other (``other=None`` or
``pairwise=True`` on a DataFrame) is built from these pairings (``pairwise_table``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series
from jupyter_mars.dataframe.map_chunks import Slot, aligned, map_chunks


def _masked(x: pd.Series, y: pd.Series) -> tuple[np.ndarray, np.ndarray, pd.Index]:
    """Both sides as floats on their common rows, each missing where the other is."""
    x = x.astype(np.float64) + 0 * y.astype(np.float64)
    y = y.astype(np.float64) + 0 * x
    return x.to_numpy(), y.to_numpy(), x.index


def pair_values(left: Any, right: Any) -> pd.DataFrame:
    """Every pair as two columns: the left sides first, then the right ones."""
    if isinstance(left, pd.Series) and isinstance(right, pd.DataFrame):
        left, right = right, left
    if isinstance(left, pd.Series):
        pairs = [(left, right)]
    elif isinstance(right, pd.Series):
        pairs = [(left.iloc[:, i], right) for i in range(left.shape[1])]
    else:
        x, y = left.align(right, join="outer")
        columns = left.columns.union(right.columns)
        x, y = x.reindex(columns=columns), y.reindex(columns=columns)
        pairs = [(x.iloc[:, i], y.iloc[:, i]) for i in range(len(columns))]
    parts = [_masked(a, b) for a, b in pairs]
    values = np.column_stack([p[0] for p in parts] + [p[1] for p in parts])
    index = parts[0][2] if parts else left.index
    return pd.DataFrame(values.reshape(len(index), 2 * len(parts)), index=index)


def numeric(frame: Any) -> Any:
    """A DataFrame's number columns (pandas' ``numeric_only``); a Series as it is."""
    meta = frame.meta
    if not isinstance(meta, pd.DataFrame):
        return frame
    numbers = meta.select_dtypes(include=["number"], exclude=["timedelta"]).columns
    return frame if len(numbers) == len(meta.columns) else frame[list(numbers)]


def other_frame(frame: FrameBase, other: Any) -> FrameBase:
    """``other`` as a lazy frame (``frame`` itself when None), or pandas' error."""
    if other is None:
        other = frame
    if isinstance(other, (pd.Series, pd.DataFrame)):
        other = (Series if isinstance(other, pd.Series) else DataFrame)(other)
    if not isinstance(other, FrameBase):
        raise ValueError(f"other must be a DataFrame or Series, got {type(other).__name__}")
    return other


def lay_out_pairs(frame: FrameBase, other: FrameBase, meta: Any, numeric_only: bool) -> Any:
    """The lazy frame of pairs (see ``pair_values``) for a result shaped as ``meta``."""
    if numeric_only:
        frame, other = numeric(frame), numeric(other)
    width = len(meta.columns) if isinstance(meta, pd.DataFrame) else 1
    frames = aligned([frame, other])
    keeps = frame.node.index_key == other.node.index_key  # type: ignore[attr-defined]
    layout = pd.DataFrame(np.empty((0, 2 * width)))
    return map_chunks(
        pair_values, frames, (Slot(0), Slot(1)), layout, name="window_pairs", keeps_rows=keeps
    )
