"""Kernels of ``idxmax`` and ``idxmin``: partials carry ``(value, label)`` per column.

A chunk gives, for each column, the extreme value and the label of its first
occurrence; merging keeps the earlier partial on ties (partials are merged in row
order), so the label is that of the first occurrence in the whole column, as pandas'.
A partial is ``None`` when the chunk has no value to offer, and ``MISSING`` when it met
a missing value with ``skipna=False``; pandas raises on both at the end, as here.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any

import pandas as pd

MISSING = "missing"
"""The partial of a chunk that holds a missing value when ``skipna`` is False."""


@dataclass(frozen=True)
class LabelSpec:
    """``idxmax`` (``how="max"``) or ``idxmin`` down the rows of some columns."""

    how: str
    skipna: bool
    positions: tuple[int, ...] | None
    """Reduced columns of a DataFrame; None for a Series."""
    columns: Any = None
    index_dtype: Any = None

    def _one(self, column: pd.Series) -> Any:
        valid = column.notna()
        if not self.skipna and not valid.all():
            return MISSING
        column = column[valid]
        if not len(column):
            return None
        pos = int(column.argmax() if self.how == "max" else column.argmin())
        return (column.iloc[pos], column.index[pos])

    def chunk(self, block: Any, axis: Any = None, keepdims: bool = True) -> list[Any]:
        if self.positions is None:
            return [self._one(block)]
        return [self._one(block.iloc[:, p]) for p in self.positions]

    def _merge(self, states: list[Any]) -> Any:
        if MISSING in [s for s in states if isinstance(s, str)]:
            return MISSING
        better = operator.gt if self.how == "max" else operator.lt
        best = None
        for state in states:
            if state is None:
                continue
            if best is None or better(state[0], best[0]):
                best = state
        return best

    def combine(self, parts: list[list[Any]], axis: Any = None) -> list[Any]:
        return [self._merge(list(states)) for states in zip(*parts)]

    def _finish(self, state: Any) -> Any:
        name = f"idx{self.how}"
        if state is None:
            raise ValueError(f"{name}: no value to take the label of (empty or all NA)")
        if isinstance(state, str):
            raise ValueError(f"{name}: encountered an NA value with skipna=False")
        return state[1]

    def aggregate(self, part: list[Any], axis: Any = None, keepdims: bool = False) -> Any:
        labels = [self._finish(s) for s in part]
        if self.positions is None:
            return labels[0]
        return pd.Series(pd.Index(labels, dtype=self.index_dtype), index=self.columns)


def labels_rows(block: pd.DataFrame, how: str, skipna: bool) -> pd.Series:
    """Row-wise ``idxmax``/``idxmin`` of one row chunk (``axis=1``)."""
    return getattr(block, f"idx{how}")(axis=1, skipna=skipna)
