"""``nlargest`` and ``nsmallest`` of DataFrame and Series, by a tree reduction.

The first ``n`` rows of the whole frame are among the first ``n`` of the chunk that holds
them (with ``keep="all"``, among that chunk's first ``n`` and their ties). So each chunk
keeps its own top rows, groups of partial results are concatenated in chunk order (the
input order, which decides ties) and cut to the top again, and the last step gives
pandas' rows in pandas' order. Only ``n`` rows per chunk ever travel.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.core import DataFrame, Series
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.sort.tree import tree_frame


@dataclass(frozen=True)
class TopRows:
    how: str
    """``"nlargest"`` or ``"nsmallest"``."""
    n: int
    columns: Any
    """Columns for a DataFrame; None for a Series."""
    keep: str

    def _top(self, data: Any, n: int) -> Any:
        if self.columns is None:
            return getattr(data, self.how)(n, keep=self.keep)
        return getattr(data, self.how)(n, self.columns, keep=self.keep)

    def _keep_order(self, data: Any) -> Any:
        """The top ``n + 1`` rows of ``data``, in their input order.

        pandas breaks ties by input order, and orders its result differently when it has
        no more than ``n`` rows to choose from: one row more than ``n`` keeps the last
        step on the same path as pandas on the whole frame."""
        top = self._top(data.reset_index(drop=True), self.n + 1)
        return data.iloc[np.sort(top.index.to_numpy())]

    def chunk(self, block: Any) -> Any:
        return self._keep_order(block)

    def combine(self, parts: list[Any]) -> Any:
        return self._keep_order(pd.concat(parts))

    def aggregate(self, part: Any) -> Any:
        return self._top(part, self.n)


def _check(n: Any, keep: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"n must be an integer, got {n!r}")
    if keep not in ("first", "last", "all"):
        raise ValueError(f'keep must be either "first", "last" or "all", got {keep!r}')
    return n


def _frame_top(how: str, frame: DataFrame, n: int, columns: Any, keep: str) -> Any:
    _check(n, keep)
    meta = getattr(frame.meta, how)(n, columns, keep=keep)  # pandas checks the columns
    return tree_frame(frame, TopRows(how, n, columns, keep), how, empty_like(meta))


def _series_top(how: str, series: Series, n: int, keep: str) -> Any:
    _check(n, keep)
    meta = getattr(series.meta, how)(n, keep=keep)  # pandas checks the dtype
    return tree_frame(series, TopRows(how, n, None, keep), how, empty_like(meta))


def nlargest(frame: DataFrame, n: int, columns: Any, keep: str = "first") -> Any:
    """The ``n`` rows with the largest values of ``columns``, in descending order."""
    return _frame_top("nlargest", frame, n, columns, keep)


def nsmallest(frame: DataFrame, n: int, columns: Any, keep: str = "first") -> Any:
    """The ``n`` rows with the smallest values of ``columns``, in ascending order."""
    return _frame_top("nsmallest", frame, n, columns, keep)


def series_nlargest(series: Series, n: int = 5, keep: str = "first") -> Any:
    """The ``n`` largest values, in descending order."""
    return _series_top("nlargest", series, n, keep)


def series_nsmallest(series: Series, n: int = 5, keep: str = "first") -> Any:
    """The ``n`` smallest values, in ascending order."""
    return _series_top("nsmallest", series, n, keep)


def _attach() -> None:
    frame_methods: dict[str, Any] = {"nlargest": nlargest, "nsmallest": nsmallest}
    series_methods: dict[str, Any] = {
        "nlargest": series_nlargest,
        "nsmallest": series_nsmallest,
    }
    for attr, value in frame_methods.items():
        setattr(DataFrame, attr, value)
    for attr, value in series_methods.items():
        setattr(Series, attr, value)


_attach()
