"""``DataFrame.corrwith``: each column's Pearson correlation with a Series, or with the
column of the same label in another DataFrame.

Each correlation is ``Series.corr`` of the two columns (one tree reduction of their
moments each, on the rows where both are present); one ``collect`` task puts them in
pandas' order, which, with the NaN of labels found on one side only, comes from pandas'
own ``corrwith`` of two one-row probes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.axes import axis_number
from jupyter_mars.dataframe.collect import collect
from jupyter_mars.dataframe.core import DataFrame, Series
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.reduction.args import check_flag, is_numeric, probe_frame
from jupyter_mars.dataframe.reduction.pairwise import check_pairwise_method


@dataclass(frozen=True)
class Correlations:
    labels: pd.Index

    def __call__(self, values: list[Any]) -> pd.Series:
        return pd.Series([np.float64(v) for v in values], index=self.labels, dtype=np.float64)


def corrwith(
    df: Any,
    other: Any,
    axis: Any = 0,
    drop: bool = False,
    method: str = "pearson",
    numeric_only: bool = False,
    min_periods: int | None = None,
) -> Any:
    """Pearson correlations of the columns with ``other`` (a Series or a DataFrame)."""
    if axis_number(df.meta, axis) != 0:
        raise NotImplementedError("corrwith(axis=1) is not supported")
    check_pairwise_method(method)
    only = check_flag(numeric_only, "numeric_only")
    if isinstance(other, (pd.Series, pd.DataFrame)):
        other = (Series if isinstance(other, pd.Series) else DataFrame)(other)
    if not isinstance(other, (Series, DataFrame)):
        raise TypeError(f"other must be a Series or a DataFrame, got {type(other).__name__}")
    meta = df.meta
    keep = [c for c, t in meta.dtypes.items() if not only or is_numeric(t)]
    left = probe_frame(meta[keep])
    if isinstance(other, Series):
        right: Any = probe_frame(other.meta.to_frame()).iloc[:, 0]
    else:
        right = probe_frame(other.meta)
    kwargs: dict[str, Any] = {"drop": drop, "method": method, "numeric_only": only}
    out_meta = left.corrwith(right, **kwargs)  # pandas checks the dtypes and arguments
    corr_kwargs = {} if min_periods is None else {"min_periods": min_periods}
    parts: list[Any] = []
    for label in out_meta.index:
        if isinstance(other, Series):
            parts.append(df[label].corr(other, **corr_kwargs))
        elif label in left.columns and label in right.columns:
            parts.append(df[label].corr(other[label], **corr_kwargs))  # type: ignore[index]
        else:
            parts.append(math.nan)
    if not any(not isinstance(p, float) for p in parts):
        return Series(Correlations(out_meta.index)(parts))
    build = Correlations(out_meta.index)
    return collect(build, parts, empty_like(out_meta), len(out_meta), "corrwith")


setattr(DataFrame, "corrwith", corrwith)  # noqa: B010
