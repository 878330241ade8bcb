"""``skew`` and ``kurt`` (alias ``kurtosis``) of DataFrame and Series.

Tree reductions like ``var``: each chunk gives its count, mean and central moment sums,
merged pairwise up the tree, and pandas' bias-corrected estimator is applied at the end.
"""

from __future__ import annotations

from typing import Any

from jupyter_mars.dataframe.core import DataFrame, Series
from jupyter_mars.dataframe.reduction.build import frame_reduce, series_reduce


def frame_skew(
    df: DataFrame, axis: Any = 0, skipna: bool = True, numeric_only: bool = False
) -> Any:
    """Unbiased skewness per column (``axis=0``) or per row (``axis=1``)."""
    return frame_reduce(df, "skew", axis, skipna, numeric_only)


def frame_kurt(
    df: DataFrame, axis: Any = 0, skipna: bool = True, numeric_only: bool = False
) -> Any:
    """Unbiased excess kurtosis (Fisher's, normal == 0) per column or per row."""
    return frame_reduce(df, "kurt", axis, skipna, numeric_only)


def series_skew(
    s: Series, axis: Any = None, skipna: bool = True, numeric_only: bool = False
) -> Any:
    """Unbiased skewness, as a lazy 0-d tensor."""
    return series_reduce(s, "skew", axis, skipna, numeric_only)


def series_kurt(
    s: Series, axis: Any = None, skipna: bool = True, numeric_only: bool = False
) -> Any:
    """Unbiased excess kurtosis, as a lazy 0-d tensor."""
    return series_reduce(s, "kurt", axis, skipna, numeric_only)


def _attach() -> None:
    for cls, skew, kurt in (
        (DataFrame, frame_skew, frame_kurt),
        (Series, series_skew, series_kurt),
    ):
        for attr, value in {"skew": skew, "kurt": kurt, "kurtosis": kurt}.items():
            setattr(cls, attr, value)


_attach()
