"""``ewm(...).cov(other)`` and ``.corr(other)``: the moments of ``ewm_moments`` over pairs.

pandas pairs each column with ``other``'s column of the same label (a DataFrame), or
with ``other`` itself (a Series), on the union of their rows, a row counting only where
both sides have a value. A map over the two inputs, lined up chunk for chunk (or each
in one chunk when their rows differ), lays every pair out as two columns of one frame,
each side missing where the other is; the scan of ``ewm_moments`` then carries the
pairs' weighted means and covariance. ``corr`` carries three pairs per column, ``(x,
y)``, ``(x, x)`` and ``(y, y)``, and divides, as pandas does.

The pairwise table of every column with every other (``other=None`` or
``pairwise=True`` on a DataFrame, rows labelled by row and column) is not supported.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.apply import sample_like
from jupyter_mars.dataframe.core import DataFrame, Series, _Frame
from jupyter_mars.dataframe.map_chunks import Slot, aligned, map_chunks
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.window.ewm import EWM
from jupyter_mars.dataframe.window.ewm_moments import moments


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


def _numeric(frame: Any) -> Any:
    """A DataFrame's number columns (pandas' ``numeric_only``); a Series as it is."""
    meta = frame.meta
    if not isinstance(meta, pd.DataFrame):
        return frame
    numbers = meta.select_dtypes(include=["number"], exclude=["timedelta"]).columns
    return frame if len(numbers) == len(meta.columns) else frame[list(numbers)]


def _pairs(self: EWM, how: str, other: Any, pairwise: Any, bias: bool, numeric_only: bool) -> Any:
    p = self._params
    frame = self._frame
    if other is None:
        if isinstance(frame, DataFrame):
            raise NotImplementedError(
                f"ewm().{how}() of a DataFrame with itself is the pairwise table of every "
                "column with every other, which is not supported; pass other="
            )
        other = frame
    if pairwise:
        raise NotImplementedError(f"ewm().{how}(pairwise=True) is not supported")
    if isinstance(other, (pd.Series, pd.DataFrame)):
        other = (Series if isinstance(other, pd.Series) else DataFrame)(other)
    if not isinstance(other, _Frame):
        raise ValueError(f"other must be a DataFrame or Series, got {type(other).__name__}")
    # pandas checks the arguments and types the result on made-up rows
    window = sample_like(frame.meta).ewm(**p.pandas, min_periods=p.min_periods)
    kwargs: dict[str, Any] = {"pairwise": pairwise, "numeric_only": numeric_only}
    if how == "cov":
        kwargs["bias"] = bias
    meta = empty_like(getattr(window, how)(sample_like(other.meta), **kwargs))
    if numeric_only:
        frame, other = _numeric(frame), _numeric(other)
    width = len(meta.columns) if isinstance(meta, pd.DataFrame) else 1
    frames = aligned([frame, other])
    keeps = frame.node.index_key == other.node.index_key  # type: ignore[attr-defined]
    layout = pd.DataFrame(np.empty((0, 2 * width)))
    pairs = map_chunks(
        pair_values, frames, (Slot(0), Slot(1)), layout, name="ewm_pairs", keeps_rows=keeps
    )
    return moments(p, pairs, meta, how, bias)


def ewm_cov(
    self: EWM,
    other: Any = None,
    pairwise: Any = None,
    bias: bool = False,
    numeric_only: bool = False,
) -> Any:
    """pandas' exponentially weighted covariance with ``other`` (a Series with itself
    when None)."""
    return _pairs(self, "cov", other, pairwise, bias, numeric_only)


def ewm_corr(self: EWM, other: Any = None, pairwise: Any = None, numeric_only: bool = False) -> Any:
    """pandas' exponentially weighted correlation with ``other``."""
    return _pairs(self, "corr", other, pairwise, True, numeric_only)


EWM.cov = ewm_cov  # type: ignore[attr-defined]
EWM.corr = ewm_corr  # type: ignore[attr-defined]
