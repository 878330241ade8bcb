"""Windows over each group: ``gb.rolling(...)``, ``gb.expanding(...)``, ``gb.ewm(...)``.

A window of a grouping is a handle recording the window's arguments; its aggregations
(``mean``, ``sum``, ``agg``, ...) run pandas' own grouped window on each group's rows
after the key shuffle (``calls.grouped_call``): a window never spans two groups, so each
group's rows, in their order, are all it needs. The result is laid out as pandas does:
the group keys, then the original index, groups in key order (first-appearance order
with ``sort=False``).
"""

from __future__ import annotations

from typing import Any

from jupyter_mars.dataframe.groupby.calls import grouped_call
from jupyter_mars.dataframe.groupby.core import GroupBy

_SLIDING = "mean sum min max std var count median quantile skew kurt sem agg aggregate apply"
AGGREGATIONS = {
    "rolling": _SLIDING.split(),
    "expanding": _SLIDING.split(),
    "ewm": "mean sum std var agg aggregate".split(),
}
"""The aggregations each kind of window offers, as pandas names them."""


class GroupedWindow:
    """A lazy ``RollingGroupby`` / ``ExpandingGroupby`` / ``ExponentialMovingWindowGroupby``."""

    def __init__(self, gb: GroupBy, kind: str, args: tuple[Any, ...], kwargs: dict[str, Any]):
        self._gb = gb
        self._kind = kind
        self._args = args
        self._kwargs = kwargs
        getattr(gb._probe_gb(gb.as_index), kind)(*args, **kwargs)  # pandas checks them here

    def _aggregate(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        window = (self._kind, self._args, self._kwargs)
        return grouped_call(self._gb, (window, (name, args, kwargs)))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name not in AGGREGATIONS[self._kind]:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

        def method(*args: Any, **kwargs: Any) -> Any:
            return self._aggregate(name, args, kwargs)

        method.__name__ = name
        return method

    def __dir__(self) -> list[str]:
        return sorted({*super().__dir__(), *AGGREGATIONS[self._kind]})

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._kind}, args={self._args}, kwargs={self._kwargs})"


def _window(kind: str) -> Any:
    def method(self: GroupBy, *args: Any, **kwargs: Any) -> GroupedWindow:
        return GroupedWindow(self, kind, args, kwargs)

    method.__name__ = kind
    method.__doc__ = f"pandas' ``{kind}`` over each group: a handle of its aggregations."
    return method


def _attach() -> None:
    for kind in AGGREGATIONS:
        setattr(GroupBy, kind, _window(kind))


_attach()
