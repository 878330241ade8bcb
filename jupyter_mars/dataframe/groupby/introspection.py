"""What a grouping says about itself: ``groups``, ``indices``, ``ngroups``, ``dtype``,
``ndim``, ``keys``, ``pipe``, ``len()`` and iteration.

``groups``, ``indices``, ``ngroups`` and ``dtype`` depend on the data: as Mars's methods
that hand data back to Python, they execute in the default session and fetch, then
return pandas' values. ``groups`` and ``indices`` fetch only the keys (and the row
labels), never the value columns; ``ngroups`` and ``dtype`` fetch one row per group;
iterating fetches the grouped data.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.groupby.core import DataFrameGroupBy, GroupBy, SeriesGroupBy
from jupyter_mars.dataframe.groupby.keys import grouper, key_series


def fetched_grouping(self: GroupBy, values: bool = False) -> Any:
    """pandas' GroupBy of the fetched keys (the grouped rows' labels; the values too when
    ``values``), with this grouping's flags and selection."""
    obj: Any = self._obj
    meta = obj.meta
    if not values and isinstance(meta, pd.DataFrame) and len(meta.columns):
        # the key columns, or one column to carry the row labels the keys come from
        columns = [k.ref for k in self._keys if k.kind == "column"] or [meta.columns[0]]
        obj = obj[columns]
    fetched = obj.to_pandas()
    extra = tuple(f.to_pandas() for f in self._frames[1:])
    keys = key_series(fetched, self._keys, extra)
    if isinstance(self._by, list) and len(keys) == 1:
        keys = list(keys)  # pandas names the groups of a list of one key by 1-tuples
    else:
        keys = grouper(keys)
    gb = fetched.groupby(keys, sort=self.sort, dropna=self.dropna)
    return gb[self._selection] if values and self._has_selection else gb


def groups(self: GroupBy) -> Any:
    """pandas' ``groups``: group key -> the row labels of its rows (fetched)."""
    return fetched_grouping(self).groups


def indices(self: GroupBy) -> Any:
    """pandas' ``indices``: group key -> the positions of its rows (fetched)."""
    return fetched_grouping(self).indices


def iterate(self: GroupBy) -> Iterator[tuple[Any, Any]]:
    """pandas' ``for key, group in grouping``: the data is fetched, then pandas' groups
    are handed out."""
    return iter(fetched_grouping(self, values=True))


def ngroups(self: GroupBy) -> int:
    """pandas' ``ngroups``: how many groups there are (fetched)."""
    return len(self._copy(as_index=True).size().to_pandas())


def dtype(self: GroupBy) -> Any:
    """pandas' ``SeriesGroupBy.dtype``: the values' dtype for each group (fetched)."""
    meta = self._obj.meta
    value = meta.dtype if isinstance(meta, pd.Series) else meta[self._selection].dtype
    keys = fetched_grouping(self).size().index
    out = pd.Series([value] * len(keys), index=keys, name=self._series_name(), dtype=object)
    return out if self.as_index else out.reset_index()


def pipe(self: GroupBy, func: Any, *args: Any, **kwargs: Any) -> Any:
    """pandas' ``pipe``: ``func(self, *args, **kwargs)``; with ``func`` a tuple
    ``(callable, keyword)``, the grouping is passed as that keyword."""
    if isinstance(func, tuple):
        func, target = func
        if target in kwargs:
            raise ValueError(f"{target} is both the pipe target and a keyword argument")
        kwargs[target] = self
        return func(*args, **kwargs)
    return func(self, *args, **kwargs)


def keys(self: GroupBy) -> Any:
    """pandas' ``keys``: the ``by`` the grouping was made with."""
    return self._by


def _attach() -> None:
    for name, value in {
        "groups": groups,
        "indices": indices,
        "ngroups": ngroups,
        "keys": keys,
    }.items():
        setattr(GroupBy, name, property(value, doc=value.__doc__))
    GroupBy.pipe = pipe  # type: ignore[attr-defined]
    GroupBy.__iter__ = iterate  # type: ignore[attr-defined]
    GroupBy.__len__ = ngroups  # type: ignore[attr-defined]
    SeriesGroupBy.dtype = property(dtype, doc=dtype.__doc__)  # type: ignore[attr-defined]
    SeriesGroupBy.ndim = 1  # type: ignore[attr-defined]
    DataFrameGroupBy.ndim = 2  # type: ignore[attr-defined]


_attach()
