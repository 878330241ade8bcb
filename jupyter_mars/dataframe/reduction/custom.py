"""``md.CustomReduction``: a reduction the user defines in three steps, as in Mars.

Subclass it and define

- ``pre(data)``: a chunk of a column (a pandas Series) -> one value or a tuple of values;
- ``agg(*values)``: partial values -> the same number of reduced values. It runs on each
  chunk's ``pre`` result (unless ``pre_with_agg``: ``pre`` already reduces), then on the
  partials of several chunks, each position's partials concatenated into a Series;
- ``post(*values)`` (optional): the reduced values -> the result (default: the one value).

Called on a lazy Series it builds a tree reduction (a lazy 0-d tensor); on a lazy
DataFrame, one per column (a lazy Series indexed by the columns). On pandas data (as
``groupby(...).agg`` passes each group) it runs the three steps at once. It works as a
function in ``agg`` too, named by ``name``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.core import DataFrame, Series
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.reduction.args import probe_frame
from jupyter_mars.dataframe.reduction.kernels import values_to_series
from jupyter_mars.dataframe.sort.tree import tree_frame, tree_tensor


def _as_tuple(value: Any) -> tuple[Any, ...]:
    return value if isinstance(value, tuple) else (value,)


def _concat(values: list[Any]) -> Any:
    """Partials of one position from several chunks, as one Series."""
    if all(isinstance(v, (pd.Series, pd.Index, np.ndarray)) for v in values):
        return pd.concat([pd.Series(np.asarray(v)) for v in values], ignore_index=True)
    return pd.Series(values)


class CustomReduction:
    """Base of user-defined reductions (see the module docstring)."""

    pre_with_agg = False
    """True when ``pre`` already reduces a chunk, so ``agg`` is not run on it."""

    def __init__(self, name: str | None = None, is_gpu: bool | None = None) -> None:
        self.name = name or "<custom>"
        self.output_limit = 1
        self._is_gpu = is_gpu

    @property
    def __name__(self) -> str:  # noqa: A003 - the label agg gives it, as a function's
        return self.name

    def pre(self, value: Any) -> Any:
        return value

    def agg(self, *values: Any) -> Any:
        raise NotImplementedError("a CustomReduction defines agg(*values)")

    def post(self, *values: Any) -> Any:
        if len(values) != 1:
            raise ValueError("post must be defined when agg gives several values")
        return values[0]

    # -- the three steps on pandas data ---------------------------------------------

    def reduce_chunk(self, column: pd.Series) -> tuple[Any, ...]:
        values = _as_tuple(self.pre(column))
        return values if self.pre_with_agg else _as_tuple(self.agg(*values))

    def merge(self, partials: list[tuple[Any, ...]]) -> tuple[Any, ...]:
        return _as_tuple(self.agg(*(_concat(list(p)) for p in zip(*partials))))

    def __call_agg__(self, value: Any) -> Any:
        return self.post(*self.reduce_chunk(value))

    def __call__(self, value: Any) -> Any:
        if isinstance(value, Series):
            probe = probe_frame(value.meta.to_frame()).iloc[:, 0]
            dtype = np.asarray(self.__call_agg__(probe)).dtype
            return tree_tensor(value, _Kernels(self, None), self.name, (), dtype)
        if isinstance(value, DataFrame):
            meta = value.meta
            probe = probe_frame(meta)
            results = [self.__call_agg__(probe.iloc[:, i]) for i in range(meta.shape[1])]
            out_meta = values_to_series(results, meta.columns)
            kernels = _Kernels(self, meta.columns)
            return tree_frame(value, kernels, self.name, empty_like(out_meta), meta.shape[1])
        if isinstance(value, pd.DataFrame):
            return value.apply(self.__call_agg__)
        return self.__call_agg__(value)


@dataclass(frozen=True)
class _Kernels:
    """The tree's kernels: a partial is one tuple of values per column."""

    reduction: CustomReduction
    columns: pd.Index | None
    """The frame's columns; None for a Series."""

    def _columns(self, block: Any) -> list[pd.Series]:
        if self.columns is None:
            return [block]
        return [block.iloc[:, i] for i in range(block.shape[1])]

    def chunk(self, block: Any) -> list[tuple[Any, ...]]:
        return [self.reduction.reduce_chunk(c) for c in self._columns(block)]

    def combine(self, parts: list[list[tuple[Any, ...]]]) -> list[tuple[Any, ...]]:
        return [self.reduction.merge(list(column)) for column in zip(*parts)]

    def aggregate(self, part: list[tuple[Any, ...]]) -> Any:
        results = [self.reduction.post(*values) for values in part]
        if self.columns is None:
            return results[0]
        return values_to_series(results, self.columns)
