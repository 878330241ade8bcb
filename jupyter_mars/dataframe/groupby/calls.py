"""Grouped methods whose result is pandas' own call on each group, laid out by keys:
listings of each group's values or rows (``nlargest``, ``nsmallest``, ``unique``,
``take``), ``corrwith``, ``is_monotonic_*`` and the window aggregations of ``windows``.

The rows meet by groups through the key shuffle of ``apply.shuffle_rows`` (mode
``"call"``); each part runs a ``GroupedCall`` (a chain of pandas attribute reads and
method calls, starting at the part's pandas GroupBy) and the parts are gathered in
pandas' group order. The kernel always computes the keyed form (group keys as the first
index levels, which the gather orders by); ``finish`` then gives the layout pandas' flags
ask for (``group_keys=False``: keys dropped; ``as_index=False``: keys as columns).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.core import FrameBase
from jupyter_mars.dataframe.groupby.apply import shuffle_rows
from jupyter_mars.dataframe.groupby.core import DataFrameGroupBy, GroupBy, SeriesGroupBy
from jupyter_mars.dataframe.node import empty_like

Step = tuple[str, tuple[Any, ...], dict[str, Any] | None]
"""An attribute read (keyword arguments None) or a method call."""

LAYOUTS = ("keyed", "drop_keys", "keys_to_columns")


@dataclass(frozen=True)
class GroupedCall:
    """pandas' ``gb.<step>.<step>...`` on a part's groups, and the result's layout."""

    steps: tuple[Step, ...]
    keyed_meta: Any
    """The result's meta with the group keys as its first index levels."""
    layout: str
    """One of ``LAYOUTS``: how the keyed result becomes pandas' result."""
    nkeys: int
    positional: bool = False
    """Group the rows on positions 0..n-1 instead of their labels (a call whose result
    does not show them, and that reads them as positions)."""

    def __call__(self, gb: Any) -> Any:
        with warnings.catch_warnings():
            # pandas' deprecation warnings were raised once, at the lazy call
            warnings.simplefilter("ignore", FutureWarning)
            warnings.simplefilter("ignore", DeprecationWarning)
            return run_steps(gb, self.steps)

    def finish(self, out: Any) -> Any:
        levels = list(range(self.nkeys))
        if self.layout == "drop_keys":
            return out.droplevel(levels)
        if self.layout == "keyed":
            return out
        frame = out.to_frame() if isinstance(out, pd.Series) else out
        # a key named as a column of the result is left out, as pandas does
        clash = [i for i in levels if out.index.names[i] in frame.columns]
        if len(clash) == frame.index.nlevels:
            return frame.reset_index(drop=True)
        if clash:
            frame = frame.droplevel(clash)  # the other keys are the first levels now
        kept = self.nkeys - len(clash)
        return frame.reset_index(level=list(range(kept))) if kept else frame


def _layout(keyed: Any, final: Any, nkeys: int) -> str:
    """How pandas' result ``final`` derives from ``keyed`` (both on the probe)."""
    if isinstance(final, pd.DataFrame) and (
        isinstance(keyed, pd.Series) or final.shape[1] > keyed.shape[1]
    ):
        return "keys_to_columns"
    if final.index.nlevels < keyed.index.nlevels:
        return "drop_keys"
    return "keyed"


def run_steps(obj: Any, steps: tuple[Step, ...]) -> Any:
    """``obj.<step>.<step>...``: pandas' own calls, in order."""
    for name, args, kwargs in steps:
        obj = getattr(obj, name)
        if kwargs is not None:
            obj = obj(*args, **kwargs)
    return obj


def grouped_call(
    gb: GroupBy, steps: tuple[Step, ...], rows: int = 1, positional: bool = False
) -> Any:
    """The lazy result of pandas' ``gb.<steps>``, by groups. pandas checks the arguments
    (and warns) here, on a probe of ``rows`` rows in one group."""
    final = run_steps(gb._probe_gb(gb.as_index, rows), steps)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # warned once, just above
        keyed_gb = gb._copy(as_index=True, group_keys=True)
        keyed = run_steps(keyed_gb._probe_gb(True, rows), steps)
    if not isinstance(keyed, (pd.Series, pd.DataFrame)):
        raise TypeError(f"{steps[-1][0]} does not give a Series or DataFrame per group")
    nkeys = len(gb._keys)
    layout = _layout(keyed, final, nkeys)
    call = GroupedCall(steps, empty_like(keyed), layout, nkeys, positional)
    meta = empty_like(call.finish(keyed))
    return shuffle_rows(keyed_gb, "call", call, (), {}, meta)


def _method(name: str) -> Any:
    def method(self: GroupBy, *args: Any, **kwargs: Any) -> Any:
        return grouped_call(self, ((name, args, kwargs),))

    method.__name__ = name
    method.__doc__ = f"pandas' grouped ``{name}``, on each group's rows."
    return method


def take(self: GroupBy, indices: Any, **kwargs: Any) -> Any:
    """pandas' grouped ``take``: the rows at ``indices`` (positions within each group)."""
    positions = list(indices) if pd.api.types.is_list_like(indices) else [indices]
    rows = max([abs(int(i)) + 1 for i in positions if pd.api.types.is_integer(i)], default=1)
    return grouped_call(self, (("take", (indices,), kwargs),), rows)


def corrwith(self: GroupBy, other: Any, *args: Any, **kwargs: Any) -> Any:
    """pandas' grouped ``corrwith``: each group's correlation with ``other``, a pandas
    DataFrame or Series that every part of the shuffle reads whole."""
    if isinstance(other, FrameBase):
        raise TypeError("corrwith of a grouping takes a pandas DataFrame or Series as other")
    return grouped_call(self, (("corrwith", (other, *args), kwargs),))


def _flag(name: str) -> Any:
    def get(self: GroupBy) -> Any:
        return grouped_call(self, ((name, (), None),))

    get.__doc__ = f"pandas' grouped ``{name}``: a lazy Series of one value per group."
    return property(get)


def _attach() -> None:
    GroupBy.take = take  # type: ignore[attr-defined]
    DataFrameGroupBy.corrwith = corrwith  # type: ignore[attr-defined]
    for name in ("nlargest", "nsmallest", "unique"):
        setattr(SeriesGroupBy, name, _method(name))
    for name in ("is_monotonic_increasing", "is_monotonic_decreasing"):
        setattr(SeriesGroupBy, name, _flag(name))


_attach()
