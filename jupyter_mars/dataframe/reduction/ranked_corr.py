"""``corr`` by ranks (``method='spearman'`` or ``'kendall'``) or by a callable.

A rank depends on every value of its column, so no partial result of a chunk can be
merged with another's. The numbers are therefore brought into one task, once: only the
numeric columns of a DataFrame (a Series and its other, aligned, as two columns), the
chunks concatenated by a tree of ``concat``s, and pandas' own ``corr`` runs there, with
its pairwise-complete rows and ``min_periods``. Pearson's correlation stays a parallel
reduction of co-moments (``pairwise``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.sort.tree import Gather, tree_frame, tree_tensor

METHODS = ("pearson", "spearman", "kendall")


def check_method(method: Any) -> None:
    """pandas' check of ``corr``'s ``method``, made at the call."""
    if not callable(method) and (not isinstance(method, str) or method not in METHODS):
        raise ValueError(
            "method must be either 'pearson', 'spearman', 'kendall', or a callable, "
            f"'{method}' was supplied"
        )


def frame_corr_whole(numbers: Any, method: Any, min_periods: int, meta: pd.DataFrame) -> Any:
    """``numbers.corr(method, min_periods)`` in one task (``numbers``: numeric columns)."""
    kwargs = {"method": method, "min_periods": min_periods}
    return tree_frame(numbers, Gather("corr", kwargs), "corr", meta, len(meta))


@dataclass(frozen=True)
class PairCorr:
    """Tree-reduction kernels: a two-column block (a Series and its other) gathered,
    then pandas' ``Series.corr`` of its columns."""

    method: Any
    min_periods: int | None

    def chunk(self, block: pd.DataFrame) -> pd.DataFrame:
        return block

    def combine(self, parts: list[pd.DataFrame]) -> pd.DataFrame:
        return pd.concat(parts)

    def aggregate(self, block: pd.DataFrame) -> np.float64:
        left, right = block.iloc[:, 0], block.iloc[:, 1]
        return np.float64(left.corr(right, method=self.method, min_periods=self.min_periods))


def series_corr_whole(pair: Any, method: Any, min_periods: int | None) -> Any:
    """The correlation of a two-column lazy block's columns, in one task."""
    return tree_tensor(pair, PairCorr(method, min_periods), "corr", (), np.float64)
