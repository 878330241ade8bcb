"""DataFrame reductions, with pandas' signatures; each returns a lazy Series (with
``axis=None``, a lazy 0-d tensor holding the one scalar over every value)."""

from __future__ import annotations

from typing import Any

from jupyter_mars.dataframe.core import DataFrame
from jupyter_mars.dataframe.reduction.build import frame_reduce


def sum(
    df: DataFrame,
    axis: Any = 0,
    skipna: bool = True,
    numeric_only: bool = False,
    min_count: int = 0,
) -> Any:
    """Column sums (``axis=0``) or row sums (``axis=1``); missing values count as 0, and
    fewer than ``min_count`` present values give NaN."""
    return frame_reduce(df, "sum", axis, skipna, numeric_only, 1, min_count)


def prod(
    df: DataFrame,
    axis: Any = 0,
    skipna: bool = True,
    numeric_only: bool = False,
    min_count: int = 0,
) -> Any:
    """Column or row products."""
    return frame_reduce(df, "prod", axis, skipna, numeric_only, 1, min_count)


def mean(df: DataFrame, axis: Any = 0, skipna: bool = True, numeric_only: bool = False) -> Any:
    """Column or row means of the non-missing values."""
    return frame_reduce(df, "mean", axis, skipna, numeric_only)


def count(df: DataFrame, axis: Any = 0, numeric_only: bool = False) -> Any:
    """Non-missing values per column or per row (int64)."""
    return frame_reduce(df, "count", axis, True, numeric_only)


def min(df: DataFrame, axis: Any = 0, skipna: bool = True, numeric_only: bool = False) -> Any:
    """Column or row minimums."""
    return frame_reduce(df, "min", axis, skipna, numeric_only)


def max(df: DataFrame, axis: Any = 0, skipna: bool = True, numeric_only: bool = False) -> Any:
    """Column or row maximums."""
    return frame_reduce(df, "max", axis, skipna, numeric_only)


def var(
    df: DataFrame, axis: Any = 0, skipna: bool = True, ddof: int = 1, numeric_only: bool = False
) -> Any:
    """Variance with ``ddof`` delta degrees of freedom (NaN when too few values)."""
    return frame_reduce(df, "var", axis, skipna, numeric_only, ddof)


def std(
    df: DataFrame, axis: Any = 0, skipna: bool = True, ddof: int = 1, numeric_only: bool = False
) -> Any:
    """Standard deviation with ``ddof`` delta degrees of freedom."""
    return frame_reduce(df, "std", axis, skipna, numeric_only, ddof)


def sem(
    df: DataFrame, axis: Any = 0, skipna: bool = True, ddof: int = 1, numeric_only: bool = False
) -> Any:
    """Standard error of the mean: ``std / sqrt(count)``."""
    return frame_reduce(df, "sem", axis, skipna, numeric_only, ddof)


def any(df: DataFrame, axis: Any = 0, bool_only: bool = False, skipna: bool = True) -> Any:
    """Whether any value per column or row is true."""
    return frame_reduce(df, "any", axis, skipna, bool_only)


def all(df: DataFrame, axis: Any = 0, bool_only: bool = False, skipna: bool = True) -> Any:
    """Whether every value per column or row is true."""
    return frame_reduce(df, "all", axis, skipna, bool_only)
