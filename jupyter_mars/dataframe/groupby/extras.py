"""More grouped methods, built on the three paths a grouping already has:

- statistics of whole groups (``skew``, ``kurt``, ``sem``, ``quantile``, ``describe``,
  ``corr``, ``cov``, ``all``, ``any``, ``idxmax``, ``idxmin``): the holistic aggregation
  (each group's rows meet after a shuffle, or up a tree, and pandas' own grouped method
  runs there);
- running, filling and neighbour methods (``cumsum``, ``cumprod``, ``cummin``, ``cummax``,
  ``ffill``, ``bfill``, ``diff``, ``shift``, ``pct_change``, ``rank``): a transform
  through the key shuffle, the rows going back to their chunks in their order;
- rows picked per group (``head``, ``tail``): the same shuffle, the picked rows going
  back in their original order (``sample``, which pandas draws group after group, is in
  ``picks``);
- ``ohlc``: the decomposable aggregation, its four columns being ``first``, ``max``,
  ``min`` and ``last``.

Importing the module attaches them to ``GroupBy``; ``md.NamedAgg`` is pandas' own.
"""

from __future__ import annotations

import warnings
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.groupby.aggregate import Output
from jupyter_mars.dataframe.groupby.apply import shuffle_rows
from jupyter_mars.dataframe.groupby.core import GroupBy

NamedAgg = pd.NamedAgg
"""``NamedAgg(column, aggfunc)``: a named aggregation, ``gb.agg(total=NamedAgg("v", "sum"))``."""

WHOLE_GROUP_STATISTICS = (
    "skew",
    "kurt",
    "sem",
    "quantile",
    "describe",
    "corr",
    "cov",
    "all",
    "any",
    "idxmax",
    "idxmin",
)
RUNNING = "cumsum cumprod cummin cummax ffill bfill diff shift pct_change rank".split()


def _whole_group(name: str) -> Any:
    def method(self: GroupBy, *args: Any, **kwargs: Any) -> Any:
        with warnings.catch_warnings():
            # the one-row probe that gives the meta has too few rows for a covariance
            warnings.simplefilter("ignore", RuntimeWarning)
            return self._build(name, args, kwargs, None)

    method.__name__ = name
    method.__doc__ = f"pandas' grouped ``{name}``, on each group's rows."
    return method


def _running(name: str) -> Any:
    def method(self: GroupBy, *args: Any, **kwargs: Any) -> Any:
        meta = getattr(self._probe_gb(True), name)(*args, **kwargs).iloc[:0]
        return shuffle_rows(self, "transform", name, args, kwargs, meta)

    method.__name__ = name
    method.__doc__ = f"pandas' grouped ``{name}``: a value per row, in the rows' order."
    return method


def _picked(name: str) -> Any:
    def method(self: GroupBy, *args: Any, **kwargs: Any) -> Any:
        # every picking method keeps the grouped object's layout; head(0) gives it
        # without asking the one-row probe for more rows than it has
        meta = self._probe_gb(True).head(0)
        return shuffle_rows(self, "select", name, args, kwargs, meta)

    method.__name__ = name
    method.__doc__ = f"pandas' grouped ``{name}``: rows of each group, in their order."
    return method


def ohlc(self: GroupBy, method: str = "auto") -> Any:
    """pandas' grouped ``ohlc``: open, high, low and close of each group, which are the
    first, largest, smallest and last values (NaN skipped): a tree of partial states."""
    cols = self._value_columns()
    outputs = tuple(
        Output(p, how)
        for p in range(1 if cols is None else len(cols))
        for how in ("first", "max", "min", "last")
    )
    return self._build("ohlc", (), {}, outputs, method)


def _attach() -> None:
    methods: dict[str, Any] = {name: _whole_group(name) for name in WHOLE_GROUP_STATISTICS}
    methods |= {name: _running(name) for name in RUNNING}
    methods |= {name: _picked(name) for name in ("head", "tail")}
    methods["ohlc"] = ohlc
    for attr, value in methods.items():
        setattr(GroupBy, attr, value)


_attach()
