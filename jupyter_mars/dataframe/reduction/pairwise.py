"""``corr`` and ``cov`` of DataFrame columns, and of a Series with another.

A tree reduction of pairwise co-moments (see ``_pairwise``): one pass over the rows, all
pairs of columns at once, each pair on the rows where both are present, as pandas.
Correlations by ranks or by a callable gather the numbers instead (``ranked_corr``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.config import options
from jupyter_mars.dataframe.core import DataFrame, Series, new_frame
from jupyter_mars.dataframe.map_chunks import Slot, aligned, map_chunks
from jupyter_mars.dataframe.reduction._pairwise import PairwiseSpec
from jupyter_mars.dataframe.reduction.args import check_ddof, check_flag, is_numeric
from jupyter_mars.dataframe.reduction.build import reduction_op
from jupyter_mars.dataframe.reduction.ranked_corr import (
    check_method,
    frame_corr_whole,
    series_corr_whole,
)
from jupyter_mars.engine.node import Node
from jupyter_mars.tensor.core import Tensor


def check_pairwise_method(method: Any) -> None:
    """``corrwith``'s check: Pearson only (ranks would need both frames gathered)."""
    if method != "pearson":
        raise NotImplementedError(f"corr: only method='pearson' is supported, got {method!r}")


def _check_min_periods(min_periods: Any) -> int | None:
    if min_periods is None:
        return None
    if isinstance(min_periods, (bool, np.bool_)) or not isinstance(min_periods, (int, np.integer)):
        raise TypeError(f"min_periods must be an integer or None, got {min_periods!r}")
    return int(min_periods)


def _frame_pairwise(
    df: DataFrame, method: str, min_periods: Any, ddof: int, numeric_only: Any, how: Any = None
) -> Any:
    only = check_flag(numeric_only, "numeric_only")
    minp = _check_min_periods(min_periods)
    meta: pd.DataFrame = df.meta
    keep = [i for i, t in enumerate(meta.dtypes) if is_numeric(t)]
    bad = [str(c) for i, c in enumerate(meta.columns) if i not in keep]
    if bad and not only:
        raise ValueError(
            f"{method} needs numbers; column(s) {', '.join(bad)} cannot be converted to "
            "float (pass numeric_only=True to leave them out)"
        )
    columns = meta.columns[keep]
    out_meta = pd.DataFrame(np.empty((0, len(keep))), columns=columns, index=columns[:0])
    if how is not None and not (isinstance(how, str) and how == "pearson"):
        numbers = df if len(keep) == len(meta.columns) else df.iloc[:, keep]
        return frame_corr_whole(numbers, how, 1 if minp is None else minp, out_meta)
    spec = PairwiseSpec(method, minp, ddof, tuple(keep), columns)
    return new_frame(reduction_op(spec, len(keep), spec.method), [df], len(keep), out_meta)


def frame_corr(
    df: DataFrame, method: str = "pearson", min_periods: int = 1, numeric_only: bool = False
) -> Any:
    """The correlation of every pair of columns, on the rows where both are present."""
    check_method(method)
    return _frame_pairwise(df, "corr", min_periods, 1, numeric_only, method)


def frame_cov(
    df: DataFrame, min_periods: int | None = None, ddof: int = 1, numeric_only: bool = False
) -> Any:
    """Covariance of every pair of columns; with missing values, pandas' pairwise form
    (which divides by ``n - 1`` whatever ``ddof``)."""
    return _frame_pairwise(df, "cov", min_periods, check_ddof(ddof), numeric_only)


def pair_block(a: pd.Series, b: pd.Series) -> pd.DataFrame:
    """The two Series side by side on their common labels, as floats."""
    if not a.index.equals(b.index):
        a, b = a.align(b, join="inner")
    return pd.DataFrame(
        {
            0: a.to_numpy(dtype=np.float64, na_value=np.nan),
            1: b.to_numpy(dtype=np.float64, na_value=np.nan),
        }
    )


def _series_pairwise(
    s: Series, other: Any, method: str, min_periods: Any, ddof: int, how: Any = None
) -> Tensor:
    if not isinstance(other, Series):
        if isinstance(other, pd.Series):
            other = Series(other)
        else:
            raise TypeError(f"{method}: other must be a Series, got {type(other).__name__}")
    for x in (s, other):
        if not is_numeric(x.meta.dtype):
            raise TypeError(f"{method} needs numbers, got a Series of {x.meta.dtype}")
    minp = _check_min_periods(min_periods)
    frames = aligned([s, other])
    meta = pd.DataFrame({0: pd.Series([], dtype=float), 1: pd.Series([], dtype=float)})
    pair = map_chunks(pair_block, frames, (Slot(0), Slot(1)), meta, name="pair", keeps_rows=False)
    if how is not None and not (isinstance(how, str) and how == "pearson"):
        return series_corr_whole(pair, how, minp)  # type: ignore[no-any-return]
    spec = PairwiseSpec(method, minp, ddof, None)
    out = Tensor(Node(reduction_op(spec, None, spec.method), [pair.node], (), np.dtype(np.float64)))
    if options.eager_mode:
        out.execute()
    return out


def series_corr(
    s: Series, other: Any, method: str = "pearson", min_periods: int | None = None
) -> Tensor:
    """The correlation with ``other`` on their common labels where both are present."""
    check_method(method)
    return _series_pairwise(s, other, "corr", min_periods, 1, method)


def series_cov(s: Series, other: Any, min_periods: int | None = None, ddof: int = 1) -> Tensor:
    """Covariance with ``other`` on their common labels where both are present."""
    return _series_pairwise(s, other, "cov", min_periods, check_ddof(ddof))
