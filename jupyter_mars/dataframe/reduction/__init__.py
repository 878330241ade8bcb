"""Reductions of DataFrame and Series: ``sum``, ``prod``, ``mean``, ``count``, ``min``,
``max``, ``var``, ``std``, ``sem``, ``any`` and ``all``, with pandas' results and dtypes.

Importing this package attaches them as methods. A DataFrame reduction gives a lazy
Series (one value per column with ``axis=0``, per row with ``axis=1``); a Series
reduction gives a lazy 0-d tensor that executes to pandas' scalar.
"""

from __future__ import annotations

from jupyter_mars.dataframe.core import DataFrame, Series
from jupyter_mars.dataframe.reduction import frame, series

NAMES = ("sum", "prod", "mean", "count", "min", "max", "var", "std", "sem", "any", "all")

for _name in NAMES:
    setattr(DataFrame, _name, getattr(frame, _name))
    setattr(Series, _name, getattr(series, _name))

__all__ = ["NAMES"]
