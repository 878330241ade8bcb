"""``ewm(...).cov(other)`` and ``.corr(other)``: the moments of ``ewm_moments`` over pairs.

The two inputs are laid out as column pairs (``pairs``); the scan of ``ewm_moments``
then carries the pairs' weighted means and covariance. ``corr`` carries three pairs per
column, ``(x, y)``, ``(x, x)`` and ``(y, y)``, and divides, as pandas does.
"""

from __future__ import annotations

from typing import Any

from jupyter_mars.dataframe.apply import sample_like
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.window.ewm import EWM
from jupyter_mars.dataframe.window.ewm_moments import moments
from jupyter_mars.dataframe.window.pairs import lay_out_pairs, numeric, other_frame
from jupyter_mars.dataframe.window.pairwise_table import pairwise_table, wants_table


def _pairs(self: EWM, how: str, other: Any, pairwise: Any, bias: bool, numeric_only: bool) -> Any:
    p = self._params
    frame = self._frame
    table = wants_table(frame, other, pairwise)
    other = other_frame(frame, other)
    # pandas checks the arguments and types the result on made-up rows
    window = sample_like(frame.meta).ewm(**p.pandas, min_periods=p.min_periods)
    kwargs: dict[str, Any] = {"numeric_only": numeric_only}
    if how == "cov":
        kwargs["bias"] = bias
    meta = empty_like(getattr(window, how)(sample_like(other.meta), pairwise=table, **kwargs))
    if table:
        return pairwise_table(self, how, numeric(other) if numeric_only else other, meta, kwargs)
    return moments(p, lay_out_pairs(frame, other, meta, numeric_only), meta, how, bias)


def ewm_cov(
    self: EWM,
    other: Any = None,
    pairwise: Any = None,
    bias: bool = False,
    numeric_only: bool = False,
) -> Any:
    """pandas' exponentially weighted covariance with ``other`` (a Series with itself
    when None)."""
    return _pairs(self, "cov", other, pairwise, bias, numeric_only)


def ewm_corr(self: EWM, other: Any = None, pairwise: Any = None, numeric_only: bool = False) -> Any:
    """pandas' exponentially weighted correlation with ``other``."""
    return _pairs(self, "corr", other, pairwise, True, numeric_only)


EWM.cov = ewm_cov  # type: ignore[attr-defined]
EWM.corr = ewm_corr  # type: ignore[attr-defined]
