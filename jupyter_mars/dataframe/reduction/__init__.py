"""Reductions of DataFrame and Series: ``sum``, ``prod``, ``mean``, ``count``, ``min``,
``max``, ``var``, ``std``, ``sem``, ``any``, ``all``, ``idxmax``, ``idxmin``, ``corr`` and
``cov``, with pandas' results and dtypes.

Importing this package attaches them as methods. A DataFrame reduction gives a lazy
Series (one value per column with ``axis=0``, per row with ``axis=1``) or, with
``axis=None``, a lazy 0-d tensor; a Series reduction gives a lazy 0-d tensor that
executes to pandas' scalar. ``corr`` and ``cov`` of a DataFrame give a lazy DataFrame.
"""

from __future__ import annotations

from typing import Any

from jupyter_mars.dataframe.core import DataFrame, Series
from jupyter_mars.dataframe.reduction import (  # noqa: F401 - aggregate, shape attach
    aggregate,
    corrwith,
    custom,
    frame,
    labels,
    mode,
    pairwise,
    series,
    shape,
)

NAMES = ("sum", "prod", "mean", "count", "min", "max", "var", "std", "sem", "any", "all")

for _name in NAMES:
    setattr(DataFrame, _name, getattr(frame, _name))
    setattr(Series, _name, getattr(series, _name))

_FRAME_METHODS: dict[str, Any] = {
    "idxmax": labels.frame_idxmax,
    "idxmin": labels.frame_idxmin,
    "corr": pairwise.frame_corr,
    "cov": pairwise.frame_cov,
}
_SERIES_METHODS: dict[str, Any] = {
    "idxmax": labels.series_idxmax,
    "idxmin": labels.series_idxmin,
    "corr": pairwise.series_corr,
    "cov": pairwise.series_cov,
}
for _attr, _value in _FRAME_METHODS.items():
    setattr(DataFrame, _attr, _value)
for _attr, _value in _SERIES_METHODS.items():
    setattr(Series, _attr, _value)

__all__ = ["NAMES"]
