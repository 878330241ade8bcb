"""``describe`` from small parts, without gathering the columns.

A numeric column's summary is its count, mean, std, min and max (tree reductions over
all the numeric columns at once) and its percentiles (exact, by parallel selection); a
column of strings, booleans or categories is summarised from its value counts (a tree of
distinct values): count, number of distinct values, the most frequent and its count.
One ``collect`` task lays the parts out in pandas' rows (taken from pandas' describe of
a one-row probe, which also checks ``percentiles``, ``include`` and ``exclude``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.collect import collect
from jupyter_mars.dataframe.node import empty_like

NUMERIC_ROWS = ("count", "mean", "std", "min", "max")


def numeric(dtype: Any) -> bool:
    return isinstance(dtype, np.dtype) and dtype.kind in "iuf"


def categorical(dtype: Any) -> bool:
    return bool(
        pd.api.types.is_object_dtype(dtype)
        or pd.api.types.is_string_dtype(dtype)
        or pd.api.types.is_bool_dtype(dtype)
        or isinstance(dtype, pd.CategoricalDtype)
    )


def _percent_labels(qs: list[float], labels: pd.Index) -> list[Any]:
    """The probe's percentile row labels, in the order of ``qs``."""
    inside = list(labels[list(labels).index("min") + 1 : list(labels).index("max")])
    return inside if len(inside) == len(qs) else []


@dataclass(frozen=True)
class Layout:
    """Per column: ``("numeric", j)`` (position among the numeric columns) or
    ``("counts", part)`` (which part holds its value counts)."""

    columns: pd.Index
    kinds: tuple[tuple[str, int], ...]
    rows: pd.Index
    percent_labels: tuple[Any, ...]
    dtypes: tuple[Any, ...]
    series_name: Any = None
    is_series: bool = False

    def _numeric(self, values: list[Any], j: int) -> dict[Any, Any]:
        """A numeric column's rows (a Series: its statistics are scalars)."""
        if self.is_series:
            out = {name: values[i] for i, name in enumerate(NUMERIC_ROWS)}
            quantiles = values[len(NUMERIC_ROWS)].to_numpy()
        else:
            out = {name: values[i].iloc[j] for i, name in enumerate(NUMERIC_ROWS)}
            quantiles = values[len(NUMERIC_ROWS)].iloc[:, j].to_numpy()
        out.update(zip(self.percent_labels, quantiles))
        return out

    @staticmethod
    def _counted(counts: pd.Series) -> dict[Any, Any]:
        if not len(counts):
            return {"count": 0, "unique": 0, "top": np.nan, "freq": np.nan}
        return {
            "count": int(counts.sum()),
            "unique": len(counts),
            "top": counts.index[0],
            "freq": int(counts.iloc[0]),
        }

    def __call__(self, values: list[Any]) -> Any:
        summaries = []
        for kind, where in self.kinds:
            summary = (
                self._numeric(values, where) if kind == "numeric" else self._counted(values[where])
            )
            summaries.append(pd.Series(summary, dtype=object).reindex(self.rows))
        frame = pd.concat(summaries, axis=1, ignore_index=True)
        frame = frame.astype(dict(enumerate(self.dtypes)))
        if self.is_series:
            return frame.iloc[:, 0].rename(self.series_name)
        frame.columns = self.columns
        return frame


def describe_from_parts(frame: Any, meta: Any, percentiles: Any) -> Any:
    """The lazy describe of ``frame`` (a DataFrame or Series), or None when a described
    column is of a kind this path does not summarise (dates, say)."""
    is_series = isinstance(frame.meta, pd.Series)
    if is_series:
        frame_meta = frame.meta.to_frame()
        described = frame_meta.columns
        dtypes = [frame.meta.dtype]
    else:
        frame_meta = frame.meta
        described = meta.columns
        if not frame_meta.columns.is_unique:
            return None
        dtypes = [frame_meta.dtypes[c] for c in described]
    if not all(numeric(t) or categorical(t) for t in dtypes):
        return None
    qs = sorted({0.25, 0.5, 0.75} if percentiles is None else {float(p) for p in percentiles})
    rows = meta.index
    numeric_columns = [c for c, t in zip(described, dtypes) if numeric(t)]
    percent_labels = _percent_labels(qs, rows) if numeric_columns else []
    if numeric_columns and not percent_labels:
        return None
    parts: list[Any] = []
    kinds: list[tuple[str, int]] = []
    if numeric_columns:
        numbers = frame if is_series else frame[numeric_columns]
        parts = [getattr(numbers, how)() for how in NUMERIC_ROWS] + [numbers.quantile(qs)]
    j = 0
    for column, dtype in zip(described, dtypes):
        if numeric(dtype):
            kinds.append(("numeric", j))
            j += 1
        else:
            series = frame if is_series else frame[column]
            kinds.append(("counts", len(parts)))
            parts.append(series.value_counts(dropna=True))
    out_dtypes = [meta.dtype] if is_series else list(meta.dtypes)
    layout = Layout(
        described,
        tuple(kinds),
        rows,
        tuple(percent_labels),
        tuple(out_dtypes),
        frame.meta.name if is_series else None,
        is_series,
    )
    return collect(layout, parts, empty_like(meta), len(rows), "describe")
