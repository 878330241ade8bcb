"""Moving windows down the rows: ``rolling``, ``expanding`` and ``ewm``.

Importing this package attaches the three methods to DataFrame and Series. Each returns
a window object whose aggregations (``.sum()``, ``.mean()``, ...) build lazy frames with
the input's rows and index, computed by scans that carry what a chunk needs from the
chunks before it (``jupyter_mars.dataframe.neighbours``):

- ``rolling``: the ``window`` rows above each chunk (and below, when ``center``), or for
  a time span the rows within that span of its first (last) time, then pandas on the
  chunk with them attached;
- ``expanding``: running counts, sums, extremes and second moments per column; for
  ``median``, ``quantile``, ``rank`` and ``nunique`` the (distinct) values so far, for
  ``apply`` the rows so far (``expanding_values``);
- ``ewm``: the exponentially weighted state (weighted sum and weight, or the last mean
  and the decay since the last value; for ``var`` and ``std`` the weighted distribution:
  weight, mean, variance, squared weights), folded exactly as pandas' recurrence does.

A DataFrame's window takes column selections (``selection``) and gives ``cov`` and
``corr`` with other frames, pairwise tables included (``pairs``, ``pairwise_table``).
"""

from __future__ import annotations

from typing import Any

from jupyter_mars.dataframe.core import DataFrame, Series
from jupyter_mars.dataframe.window import (  # noqa: F401 - attach agg, skew, kurt, sem, var, std, cov, corr, ...
    aggregate,
    ewm_moments,
    ewm_pairs,
    expanding_shape,
    expanding_values,
    introspection,
    selection,
    window_pairs,
)
from jupyter_mars.dataframe.window.ewm import EWM, ewm
from jupyter_mars.dataframe.window.expanding import Expanding, expanding
from jupyter_mars.dataframe.window.rolling import Rolling, rolling

__all__ = ["EWM", "Expanding", "Rolling"]


def _attach() -> None:
    methods: dict[str, Any] = {"rolling": rolling, "expanding": expanding, "ewm": ewm}
    for cls in (DataFrame, Series):
        for attr, value in methods.items():
            setattr(cls, attr, value)


_attach()
