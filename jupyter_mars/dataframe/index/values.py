"""Index methods that give plain values: computed on the workers, then fetched.

pandas returns Python or NumPy values from lookups (``get_loc``, ``get_indexer``,
``slice_locs``, ``searchsorted``), comparisons (``equals``, ``identical``) and
properties of the whole index (``is_unique``, ``is_monotonic_increasing``): these run
the call on the index in one task and fetch its value, as Mars does. ``size`` and
``empty`` need only the length, known without running when no earlier step filters.
``min``, ``max``, ``any``, ``all`` and ``nunique`` are lazy scalars, the Series
reductions of ``to_series()``, as Series' own are.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from jupyter_mars.dataframe.core import Index
from jupyter_mars.dataframe.index._calls import meta_call, value, whole
from jupyter_mars.dataframe.index.rows import to_series


def _value_method(name: str) -> Any:
    def method(self: Index, *args: Any, **kwargs: Any) -> Any:
        return value(self, name, *args, **kwargs)

    method.__name__ = name
    method.__doc__ = f"``pandas.Index.{name}``, computed and fetched."
    return method


def _value_property(name: str) -> Any:
    def getter(self: Index) -> Any:
        return value(self, name)

    getter.__doc__ = f"``pandas.Index.{name}``, computed and fetched."
    return property(getter)


def _length(self: Index) -> int:
    n = self._nrows()
    return int(n) if not isinstance(n, float) else int(value(self, "size"))


def _reduction(name: str) -> Any:
    def method(self: Index, *args: Any, **kwargs: Any) -> Any:
        meta_call(self, name, *args, **kwargs)  # pandas checks the arguments
        return getattr(to_series(self), name)(**kwargs)

    method.__name__ = name
    method.__doc__ = f"``pandas.Index.{name}`` as a lazy scalar."
    return method


def nunique(self: Index, dropna: bool = True) -> Any:
    series: Any = to_series(self)
    return series.nunique(dropna=dropna)


def sort_values(self: Index, *args: Any, return_indexer: bool = False, **kwargs: Any) -> Any:
    if return_indexer:
        return value(self, "sort_values", *args, return_indexer=True, **kwargs)
    return whole(self, "sort_values", *args, length=self.node.shape[0], **kwargs)


def join(self: Index, other: Any, *args: Any, return_indexers: bool = False, **kwargs: Any) -> Any:
    if return_indexers:
        return value(self, "join", other, *args, return_indexers=True, **kwargs)
    return whole(self, "join", other, *args, **kwargs)


def equals(self: Index, other: Any) -> bool:
    if not isinstance(other, (Index, pd.Index)):
        return False
    return bool(value(self, "equals", other))


def identical(self: Index, other: Any) -> bool:
    if not isinstance(other, (Index, pd.Index)):
        return False
    return bool(value(self, "identical", other))


def is_(self: Index, other: Any) -> bool:
    """The same object, or a view of the same lazy data (same node)."""
    return self is other or (isinstance(other, Index) and other.node is self.node)


def to_list(self: Index) -> list[Any]:
    out: list[Any] = self.to_pandas().tolist()
    return out


def to_numpy(self: Index, dtype: Any = None, copy: bool = False, **kwargs: Any) -> Any:
    return self.to_pandas().to_numpy(dtype=dtype, copy=copy, **kwargs)


VALUE_METHODS = (
    "get_loc get_indexer get_indexer_for get_indexer_non_unique slice_locs slice_indexer "
    "get_slice_bound searchsorted asof asof_locs item factorize reindex sortlevel groupby "
    "memory_usage argmin argmax"
).split()
VALUE_PROPERTIES = (
    "is_unique has_duplicates hasnans is_monotonic_increasing is_monotonic_decreasing "
    "inferred_type nbytes"
).split()


def _attach() -> None:
    methods: dict[str, Any] = {name: _value_method(name) for name in VALUE_METHODS}
    methods.update({name: _value_property(name) for name in VALUE_PROPERTIES})
    methods.update({name: _reduction(name) for name in ("min", "max", "any", "all")})
    methods.update(
        {
            "nunique": nunique,
            "sort_values": sort_values,
            "join": join,
            "equals": equals,
            "identical": identical,
            "is_": is_,
            "to_list": to_list,
            "tolist": to_list,
            "to_numpy": to_numpy,
            "array": property(lambda self: self.to_pandas().array),
            "size": property(_length),
            "empty": property(lambda self: _length(self) == 0),
        }
    )
    for attr, value_ in methods.items():
        setattr(Index, attr, value_)


_attach()
