"""Windows over each group: ``gb.rolling(...)``, ``gb.expanding(...)``, ``gb.ewm(...)``,
and time bins of each group: ``gb.resample(rule, ...)``.

A window of a grouping is a handle recording pandas' calls so far (the window, a column
selection); its aggregations (``mean``, ``sum``, ``agg``, ...) run pandas' own grouped
window on each group's rows after the key shuffle (``calls.grouped_call``): a window or
a time bin never spans two groups, so each group's rows, in their order, are all it
needs. The result is laid out as pandas does: the group keys, then the original index
(or the time bins), groups in key order (first-appearance order with ``sort=False``).
"""

from __future__ import annotations

from typing import Any

from jupyter_mars.dataframe.groupby.calls import Step, grouped_call, run_steps
from jupyter_mars.dataframe.groupby.core import GroupBy

_SLIDING = "mean sum min max std var count median quantile skew kurt sem agg aggregate apply"
AGGREGATIONS = {
    "rolling": _SLIDING.split(),
    "expanding": _SLIDING.split(),
    "ewm": "mean sum std var agg aggregate".split(),
    "resample": (
        "mean sum prod min max std var sem count size nunique median quantile first last ohlc"
        " agg aggregate apply ffill bfill asfreq"
    ).split(),
}
"""The aggregations each kind of window offers, as pandas names them."""


class GroupedWindow:
    """A lazy ``RollingGroupby`` / ``ExpandingGroupby`` / ``ExponentialMovingWindowGroupby``
    / ``DatetimeIndexResamplerGroupby``."""

    def __init__(self, gb: GroupBy, kind: str, steps: tuple[Step, ...]) -> None:
        self._gb = gb
        self._kind = kind
        self._steps = steps
        run_steps(gb._probe_gb(gb.as_index), steps)  # pandas checks the arguments here

    def _aggregate(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        # pandas' grouped resample with ``on=`` reads the row labels as positions
        on_column = self._kind == "resample" and (self._steps[0][2] or {}).get("on") is not None
        steps = (*self._steps, (name, args, kwargs))
        return grouped_call(self._gb, steps, positional=on_column)

    def __getitem__(self, key: Any) -> GroupedWindow:
        """The window of some columns: ``gb.rolling(2)[["x", "y"]]``."""
        return GroupedWindow(self._gb, self._kind, (*self._steps, ("__getitem__", (key,), {})))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        meta = self._gb._obj.meta
        if name not in AGGREGATIONS[self._kind] and name in getattr(meta, "columns", ()):
            return self[name]  # pandas' ``gb.resample("D").x``
        if name not in AGGREGATIONS[self._kind]:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

        def method(*args: Any, **kwargs: Any) -> Any:
            return self._aggregate(name, args, kwargs)

        method.__name__ = name
        return method

    def __dir__(self) -> list[str]:
        return sorted({*super().__dir__(), *AGGREGATIONS[self._kind]})

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._steps!r})"


def _window(kind: str) -> Any:
    def method(self: GroupBy, *args: Any, **kwargs: Any) -> GroupedWindow:
        return GroupedWindow(self, kind, ((kind, args, kwargs),))

    method.__name__ = kind
    method.__doc__ = f"pandas' ``{kind}`` over each group: a handle of its aggregations."
    return method


def _attach() -> None:
    for kind in AGGREGATIONS:
        setattr(GroupBy, kind, _window(kind))


_attach()
