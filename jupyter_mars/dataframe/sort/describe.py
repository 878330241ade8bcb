"""``describe`` of DataFrame and Series: pandas' summary, exact.

Numeric, string, boolean and categorical columns are summarised from small parts
(``describe_parts``): reductions, exact quantiles by selection and value counts. When
another kind of column (dates, say) is described, the described columns (those pandas
picks for ``include`` / ``exclude``, not the others) are gathered in row order into one
task by a tree of concatenations, where pandas summarises them. Both give the same
statistics, labels and dtypes as pandas on the whole data.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.core import DataFrame, Series
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.reduction.args import probe_frame
from jupyter_mars.dataframe.sort.describe_parts import describe_from_parts
from jupyter_mars.dataframe.sort.tree import Gather, tree_frame


def describe(frame: Any, percentiles: Any = None, include: Any = None, exclude: Any = None) -> Any:
    """Count, mean, std, min, percentiles and max of numeric columns; count, unique, top
    and freq of the others (as pandas chooses them)."""
    kwargs = dict(percentiles=percentiles, include=include, exclude=exclude)
    meta = frame.meta
    if isinstance(meta, pd.Series):
        probe = probe_frame(meta.to_frame()).iloc[:, 0]
        out_meta = probe.describe(**kwargs)
        parted = describe_from_parts(frame, out_meta, percentiles)
        if parted is not None:
            return parted
        return tree_frame(frame, Gather("describe", kwargs), "describe", empty_like(out_meta))
    out_meta = probe_frame(meta).describe(**kwargs)  # pandas checks the arguments
    parted = describe_from_parts(frame, out_meta, percentiles)
    if parted is not None:
        return parted
    kernels = Gather("describe", kwargs, tuple(out_meta.columns))
    return tree_frame(frame, kernels, "describe", empty_like(out_meta), math.nan)


def _attach() -> None:
    for cls in (DataFrame, Series):
        methods: dict[str, Any] = {"describe": describe}
        for attr, value in methods.items():
            setattr(cls, attr, value)


_attach()
