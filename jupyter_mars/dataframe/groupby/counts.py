"""``value_counts`` of groups: how often each distinct row (or value) occurs per group.

pandas counts the distinct tuples (group keys, then values) in the order they first
appear (with ``sort=True``, then reordered by an argsort of their keys), sorts the counts
(stable, so ties keep that order), and with ``sort=True`` sorts again by the group keys
only. Counting is exact per chunk and merges by summing, and
first appearance survives merging chunks in their order, so it is a tree: each chunk
counts its tuples (``partial``), neighbours merge ``options.combine_size`` at a time,
and the root sorts, normalises and lays the counts out as pandas does (``finish``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.config import options
from jupyter_mars.dataframe.core import new_frame
from jupyter_mars.dataframe.groupby.calls import grouped_call
from jupyter_mars.dataframe.groupby.core import GroupBy, SeriesGroupBy
from jupyter_mars.dataframe.groupby.keys import KeyItem, key_series, probe
from jupyter_mars.dataframe.groupby.plan import map_to_unknown
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.reduction import combine_tree


@dataclass(frozen=True)
class CountsSpec:
    """One ``value_counts`` call and the layout of its result."""

    keys: tuple[KeyItem, ...]
    values: tuple[Any, ...] | None
    """The counted columns; None: the grouped Series itself."""
    dropna_keys: bool
    dropna_values: bool
    normalize: bool
    sort_counts: bool
    ascending: bool
    sort_groups: bool
    as_index: bool
    meta: Any

    def partial(self, chunk: Any, *extra: Any) -> pd.Series:
        """The chunk's distinct tuples and their counts, in order of appearance."""
        keys = key_series(chunk, self.keys, extra)
        if self.values is None:
            values = [chunk]
        else:
            values = [chunk[c] for c in self.values]
        by = [*keys, *values]
        counts = pd.Series(np.ones(len(chunk), dtype=np.int64), index=chunk.index)
        out = counts.groupby(by, sort=False, dropna=False, observed=True).sum()
        out.index.names = [s.name for s in by]
        nkeys = len(keys)
        drop = np.zeros(len(out), dtype=bool)
        for level in range(out.index.nlevels):
            if self.dropna_keys if level < nkeys else self.dropna_values:
                drop |= np.asarray(pd.isna(out.index.get_level_values(level)))
        if not drop.any():
            return out
        out = out[~drop]
        if isinstance(out.index, pd.MultiIndex):
            out.index = _trim_levels(out.index, nkeys, [s.dtype for s in by])
        return out

    def combine(self, *parts: pd.Series) -> pd.Series:
        nonempty = [p for p in parts if len(p)] or list(parts[:1])
        if len(nonempty) == 1:
            return nonempty[0]
        cat = pd.concat(nonempty)
        levels = list(range(cat.index.nlevels))
        merged: pd.Series = cat.groupby(level=levels, sort=False, dropna=False).sum()
        return merged

    def finish(self, *parts: pd.Series) -> Any:
        counts = self.combine(*parts)
        if not len(counts):
            empty = self.meta.iloc[:0].copy()
            if self.as_index and empty.index.nlevels == counts.index.nlevels:
                empty.index = counts.index[:0]  # the levels' real dtypes (object: no rows)
            return empty
        nkeys = len(self.keys)
        counts = counts.rename("proportion" if self.normalize else "count")
        extra = list(range(nkeys, counts.index.nlevels))
        if self.sort_groups and extra:
            # pandas lists the tuples by the sorted keys before it sorts the counts, and
            # the same argsort of the same keys puts equal keys in the same order
            counts = counts.iloc[counts.index.droplevel(extra).argsort()]
        if self.sort_counts:
            counts = counts.sort_values(ascending=self.ascending, kind="stable")
        if self.sort_groups:
            names = counts.index.names
            counts.index.names = list(range(len(names)))  # names may be integers
            counts = counts.sort_index(level=list(range(nkeys)), sort_remaining=False)
            counts.index.names = names
        if self.normalize:
            groups = counts.index.droplevel(extra) if extra else counts.index
            sizes = counts.groupby(groups, sort=False, dropna=False).transform("sum")
            counts = counts / sizes
        if self.as_index:
            return counts
        counts.index = counts.index.set_names(range(counts.index.nlevels))  # unique names
        frame = counts.reset_index()
        frame.columns = self.meta.columns
        return frame


def _trim_levels(index: pd.MultiIndex, start: int, dtypes: list[Any]) -> pd.MultiIndex:
    """``index`` with levels ``start`` and after holding only the values used, as pandas'
    levels of counted values do (the group keys' levels are left as they are); a level
    left empty has its column's dtype (``dtypes``), as in pandas."""
    levels, codes = list(index.levels), list(index.codes)
    for i in range(start, index.nlevels):
        used = np.unique(codes[i][codes[i] >= 0])
        renumber = np.full(len(levels[i]) + 1, -1, dtype=np.intp)  # the last slot: -1
        renumber[used] = np.arange(len(used))
        levels[i] = levels[i].take(used) if len(used) else pd.Index([], dtype=dtypes[i])
        codes[i] = renumber[codes[i]]
    return pd.MultiIndex(levels=levels, codes=codes, names=index.names, verify_integrity=False)


@dataclass(frozen=True, eq=False)
class CountsTree(Op):
    spec: CountsSpec

    def label(self) -> str:
        return "groupby_value_counts"


@tile_rule(CountsTree)
def _tile_counts(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, CountsTree)
    spec = op.spec
    keys = combine_tree(ctx, node.key, inputs[0].flat_keys(), options.combine_size, spec.combine)
    grid = key_grid(node.key, [1])
    ctx.new_task(grid[0], spec.finish, *(Ref(k) for k in keys))
    return Tiled(((math.nan,),), grid)


def _value_counts(self: GroupBy, subset: Any, bins: Any, **kwargs: Any) -> Any:
    if bins is not None:
        return _binned_value_counts(self, bins, kwargs)
    gb = self._probe_gb(self.as_index)
    if isinstance(self, SeriesGroupBy):
        meta = empty_like(gb.value_counts(**kwargs))
    else:
        meta = empty_like(gb.value_counts(subset, **kwargs))
    columns = self._value_columns()
    if columns is not None:
        # pandas counts no column that is also a group key
        in_axis = {k.ref for k in self._keys if k.kind == "column"}
        columns = tuple(c for c in columns if c not in in_axis)
        if subset is not None:
            columns = tuple(c for c in columns if c in set(subset))
    spec = CountsSpec(
        keys=self._keys,
        values=columns,
        dropna_keys=self.dropna,
        dropna_values=bool(kwargs["dropna"]),
        normalize=bool(kwargs["normalize"]),
        sort_counts=bool(kwargs["sort"]),
        ascending=bool(kwargs["ascending"]),
        sort_groups=self.sort,
        as_index=self.as_index or isinstance(self._obj.meta, pd.Series),
        meta=meta,
    )
    frames = list(self._frames)
    first = spec.partial(probe(frames[0].meta), *(probe(f.meta) for f in frames[1:]))
    parts = map_to_unknown(spec.partial, frames, (), empty_like(first), "groupby_counts")
    return new_frame(CountsTree(spec), [parts], math.nan, meta)


@dataclass(frozen=True)
class BinnedCounts:
    """One group's ``value_counts(bins=)``. pandas cuts each group on its own (an int
    is that many equal-width bins over the group's own range), so the rows of a group
    are brought together first. Each group is counted as the Series it is: pandas'
    grouped form mislabels the bins of a frame holding a single group."""

    bins: Any
    label: Any
    """The counted column's name: the result's inner index level."""
    flags: tuple[tuple[str, bool], ...]

    def __call__(self, group: pd.Series) -> pd.Series:
        counts = group.value_counts(bins=self.bins, **dict(self.flags))
        counts.index.name = self.label
        return counts


def _binned_value_counts(self: GroupBy, bins: Any, flags: dict[str, Any]) -> Any:
    meta = self._probe_gb(self.as_index).value_counts(bins=bins, **flags)  # pandas checks
    kernel = BinnedCounts(bins, meta.index.names[-1], tuple(flags.items()))
    return grouped_call(self, (("apply", (kernel,), {}),)).rename(meta.name)


def value_counts(
    self: GroupBy,
    subset: Any = None,
    normalize: bool = False,
    sort: bool = True,
    ascending: bool = False,
    dropna: bool = True,
) -> Any:
    """pandas' ``DataFrameGroupBy.value_counts``: counts of the distinct rows of each
    group (of the ``subset`` columns)."""
    flags = dict(normalize=normalize, sort=sort, ascending=ascending, dropna=dropna)
    return _value_counts(self, subset, None, **flags)


def series_value_counts(
    self: SeriesGroupBy,
    normalize: bool = False,
    sort: bool = True,
    ascending: bool = False,
    bins: Any = None,
    dropna: bool = True,
) -> Any:
    """pandas' ``SeriesGroupBy.value_counts``: counts of each group's distinct values."""
    flags = dict(normalize=normalize, sort=sort, ascending=ascending, dropna=dropna)
    return _value_counts(self, None, bins, **flags)


GroupBy.value_counts = value_counts  # type: ignore[attr-defined]
SeriesGroupBy.value_counts = series_value_counts  # type: ignore[attr-defined]
