"""A grouping's plots (``plot``, ``hist``, ``boxplot``) and its ``level``.

Plots hand data to matplotlib, so, as a frame's own ``plot`` does, they execute in the
default session and fetch the grouped data, then pandas draws it with its own grouped
plotting: the figures and axes returned are pandas'.
"""

from __future__ import annotations

from typing import Any

from jupyter_mars.dataframe.groupby.core import DataFrameGroupBy, GroupBy
from jupyter_mars.dataframe.groupby.introspection import fetched_grouping


def plot(self: GroupBy) -> Any:
    """pandas' grouped ``plot`` accessor over the fetched data: ``gb.plot()`` and
    ``gb.plot.line(...)`` draw one plot per group."""
    return fetched_grouping(self, values=True).plot


def _drawn(name: str) -> Any:
    def draw(self: GroupBy, *args: Any, **kwargs: Any) -> Any:
        return getattr(fetched_grouping(self, values=True), name)(*args, **kwargs)

    draw.__name__ = name
    draw.__doc__ = f"pandas' grouped ``{name}`` of the fetched data."
    return draw


def level(self: GroupBy) -> Any:
    """The index level(s) the grouping was made by (None when grouped by keys)."""
    return self._level


GroupBy.plot = property(plot, doc=plot.__doc__)  # type: ignore[attr-defined]
GroupBy.level = property(level, doc=level.__doc__)  # type: ignore[attr-defined]
GroupBy.hist = _drawn("hist")  # type: ignore[attr-defined]
DataFrameGroupBy.boxplot = _drawn("boxplot")  # type: ignore[attr-defined]
