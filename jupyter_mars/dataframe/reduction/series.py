"""Series reductions, with pandas' signatures; each returns a lazy 0-d tensor holding
the scalar pandas would return (``.execute().fetch()`` or ``.to_numpy()`` gives it)."""

from __future__ import annotations

from typing import Any

from jupyter_mars.dataframe.core import Series
from jupyter_mars.dataframe.reduction.build import series_reduce
from jupyter_mars.tensor.core import Tensor


def sum(
    s: Series,
    axis: Any = None,
    skipna: bool = True,
    numeric_only: bool = False,
    min_count: int = 0,
) -> Tensor:
    """The sum of the values; missing values count as 0."""
    return series_reduce(s, "sum", axis, skipna, numeric_only, 1, min_count)


def prod(
    s: Series,
    axis: Any = None,
    skipna: bool = True,
    numeric_only: bool = False,
    min_count: int = 0,
) -> Tensor:
    """The product of the values."""
    return series_reduce(s, "prod", axis, skipna, numeric_only, 1, min_count)


def mean(s: Series, axis: Any = None, skipna: bool = True, numeric_only: bool = False) -> Tensor:
    """The mean of the non-missing values."""
    return series_reduce(s, "mean", axis, skipna, numeric_only)


def count(s: Series) -> Tensor:
    """The number of non-missing values."""
    return series_reduce(s, "count", None, True, False)


def min(s: Series, axis: Any = None, skipna: bool = True, numeric_only: bool = False) -> Tensor:
    """The smallest value."""
    return series_reduce(s, "min", axis, skipna, numeric_only)


def max(s: Series, axis: Any = None, skipna: bool = True, numeric_only: bool = False) -> Tensor:
    """The largest value."""
    return series_reduce(s, "max", axis, skipna, numeric_only)


def var(
    s: Series, axis: Any = None, skipna: bool = True, ddof: int = 1, numeric_only: bool = False
) -> Tensor:
    """The variance with ``ddof`` delta degrees of freedom (NaN when too few values)."""
    return series_reduce(s, "var", axis, skipna, numeric_only, ddof)


def std(
    s: Series, axis: Any = None, skipna: bool = True, ddof: int = 1, numeric_only: bool = False
) -> Tensor:
    """The standard deviation with ``ddof`` delta degrees of freedom."""
    return series_reduce(s, "std", axis, skipna, numeric_only, ddof)


def sem(
    s: Series, axis: Any = None, skipna: bool = True, ddof: int = 1, numeric_only: bool = False
) -> Tensor:
    """The standard error of the mean: ``std / sqrt(count)``."""
    return series_reduce(s, "sem", axis, skipna, numeric_only, ddof)


def any(s: Series, axis: Any = 0, bool_only: bool = False, skipna: bool = True) -> Tensor:
    """Whether any value is true."""
    return series_reduce(s, "any", axis, skipna, bool_only)


def all(s: Series, axis: Any = 0, bool_only: bool = False, skipna: bool = True) -> Tensor:
    """Whether every value is true."""
    return series_reduce(s, "all", axis, skipna, bool_only)
