"""``Series.list`` and ``Series.struct``: pandas' accessors of Arrow list and struct
columns (``pd.ArrowDtype(pa.list_(...))``, ``pd.ArrowDtype(pa.struct(...))``).

Each method is one pandas call per row chunk, with the result's meta from the same call
on a one-row sample holding a missing value (valid for every Arrow type); a Series of
another dtype raises pandas' AttributeError at once. ``list.flatten`` gives each chunk's
values one after another, so its chunks' lengths depend on the data.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from jupyter_mars.dataframe.accessors._call import accessor_attr, map_accessor
from jupyter_mars.dataframe.core import Series
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.node import empty_like


def _sample(series: Series, accessor: str) -> pd.Series:
    """A one-row Series of the input's dtype (a missing value); pandas' AttributeError
    for another dtype."""
    meta = series.meta
    getattr(meta, accessor)  # pandas' AttributeError for a dtype the accessor does not serve
    return pd.Series([None], dtype=meta.dtype, name=meta.name)


class _NestedMethods:
    accessor = ""

    def __init__(self, series: Series) -> None:
        self._series = series
        self._sample = _sample(series, self.accessor)

    def _call(self, name: str, *args: Any) -> Any:
        return map_accessor(self._series, self._sample, self.accessor, name, True, args)


class ListMethods(_NestedMethods):
    """The ``.list`` accessor of a lazy Series of Arrow lists."""

    accessor = "list"

    def len(self) -> Series:
        """The length of each list."""
        out: Series = self._call("len")
        return out

    def __getitem__(self, key: int | slice) -> Series:
        """The element (or slice) at ``key`` of each list."""
        out: Series = self._call("__getitem__", key)
        return out

    def flatten(self) -> Series:
        """All the lists' values, one after another (each indexed by its list's label)."""
        meta = empty_like(self._sample.list.flatten())
        args: tuple[Any, ...] = (Slot(0), "list", "flatten", True, (), {})
        out: Series = map_chunks(accessor_attr, [self._series], args, meta, keeps_rows=False)
        return out


class StructMethods(_NestedMethods):
    """The ``.struct`` accessor of a lazy Series of Arrow structs."""

    accessor = "struct"

    @property
    def dtypes(self) -> pd.Series:
        """The type of each field (from the metadata)."""
        dtypes: pd.Series = self._sample.struct.dtypes
        return dtypes

    def field(self, name_or_index: Any) -> Series:
        """One field of each struct, as a Series."""
        out: Series = self._call("field", name_or_index)
        return out

    def explode(self) -> Any:
        """Every field as a column of a DataFrame."""
        return self._call("explode")


setattr(Series, "list", property(ListMethods))  # noqa: B010 - attached as the others
setattr(Series, "struct", property(StructMethods))  # noqa: B010
