"""What a ``Resampler`` says about its bins: ``groups``, ``indices``, ``ngroups``,
``get_group``, and ``keys``, ``level``, ``ndim``, ``exclusions``, ``pipe``.

The bins depend on the data's times: as the grouping's ``groups`` and ``indices`` do,
``groups``, ``indices`` and ``ngroups`` execute in the default session and fetch the
times only (the index, or the ``on`` column), then return pandas' answers;
``get_group`` fetches the data. The others come from the metadata: pandas' resampler
of the empty frame answers for the lazy one.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from jupyter_mars.dataframe.apply import pipe
from jupyter_mars.dataframe.timeseries.resample import ResampleParams, Resampler


def _fetched_bins(self: Resampler) -> Any:
    """pandas' resampler of the fetched times (one column, whatever the selection)."""
    frame: Any = self._frame
    meta = frame.meta
    on = self._params.kwargs.get("on")
    if isinstance(meta, pd.DataFrame) and len(meta.columns):
        frame = frame[[on if on is not None else meta.columns[0]]]
    return ResampleParams(self._params.kwargs).resampler(frame.to_pandas())


def groups(self: Resampler) -> Any:
    """pandas' ``groups``: each bin's label -> the end position of its rows (fetched)."""
    return _fetched_bins(self).groups


def indices(self: Resampler) -> Any:
    """pandas' ``indices``: each non-empty bin's label -> its rows' positions (fetched)."""
    return _fetched_bins(self).indices


def ngroups(self: Resampler) -> int:
    """pandas' ``ngroups``: how many bins there are, empty ones included (fetched)."""
    return int(_fetched_bins(self).ngroups)


def get_group(self: Resampler, name: Any) -> Any:
    """pandas' ``get_group``: the rows of the bin labelled ``name`` (fetched), or
    pandas' KeyError for a bin no row falls in."""
    return self._params.resampler(self._frame.to_pandas()).get_group(name)


def _from_meta(name: str, doc: str) -> property:
    def get(self: Resampler) -> Any:
        return getattr(self._meta, name)

    return property(get, doc=doc)


for _name, _value in {"groups": groups, "indices": indices, "ngroups": ngroups}.items():
    setattr(Resampler, _name, property(_value, doc=_value.__doc__))
for _name, _doc in {
    "keys": "pandas' ``keys`` of a resampler: None (it groups by time, not by keys).",
    "level": "The index level the bins are on: None (``level=`` is not supported).",
    "ndim": "1 for a Series (or one selected column), 2 for a DataFrame, as pandas says.",
    "exclusions": "The ``on`` column, which pandas leaves out of the results.",
}.items():
    setattr(Resampler, _name, _from_meta(_name, _doc))
setattr(Resampler, "get_group", get_group)  # noqa: B010
setattr(Resampler, "pipe", pipe)  # noqa: B010
