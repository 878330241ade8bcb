"""Kernels of grouped aggregations: per-chunk partial states, their merge, the finish.

An ``AggSpec`` is one aggregation; its bound methods are the kernels the plan puts in
tasks (so they pickle to workers). Two kinds:

- decomposable (``size``, ``count``, ``sum``, ``prod``, ``min``, ``max``, ``first``,
  ``last``, ``mean``, ``var``, ``std``): a chunk becomes a small frame of partial states
  indexed by its group keys, one row per group (``partial``): ``sum|p`` and ``count|p``
  for a mean of value column ``p``, ``count|p``/``sum|p``/``m2|p`` (sum of squared
  deviations from the chunk's group mean) for ``var``/``std``, and pandas' own result for
  the others. ``combine`` merges partials by grouping them again on their index (sums of
  sums and counts, min of mins, first of firsts in chunk order, and Chan's formula for
  ``m2``); ``finish`` turns states into the result's columns;
- holistic (``median``, ``nunique``, functions): all rows of a group must meet, so the
  partial is the chunk's rows themselves (value columns renamed to positions, key columns
  appended) and ``finish`` runs pandas' own call on them.

``present`` gives the pandas layout: sorted by keys when ``sort``, keys as columns when
not ``as_index``, the meta when there are no groups.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.groupby.fast import fast_partial
from jupyter_mars.dataframe.groupby.keys import KeyItem, grouper, key_codes, key_series
from jupyter_mars.dataframe.groupby.keys import split_by_index_keys as split_states
from jupyter_mars.dataframe.map_chunks import TAKES_COLUMNS
from jupyter_mars.dataframe.meta_dtypes import frame_in_meta_dtypes, in_meta_dtype
from jupyter_mars.dataframe.partition import split_by_codes
from jupyter_mars.dataframe.projection import as_labels

DECOMPOSABLE = frozenset(
    {"size", "count", "sum", "prod", "min", "max", "first", "last", "mean", "var", "std"}
)
"""Aggregations computed from per-chunk partial states."""

_STATES = {
    "size": ("size",),
    "count": ("count",),
    "mean": ("sum", "count"),
    "var": ("count", "sum", "m2"),
    "std": ("count", "sum", "m2"),
}
"""The partial states each aggregation needs (others: a state of its own name)."""

_MERGE = {"size": "sum", "count": "sum", "sum": "sum", "prod": "prod", "min": "min"}
_MERGE |= {"max": "max", "first": "first", "last": "last"}
"""How partial states of each kind merge (``m2`` has its own formula)."""


@dataclass(frozen=True)
class Output:
    """One column of the result: aggregation ``func`` of value column ``position``."""

    position: int
    func: Any
    ddof: int = 1


@dataclass(frozen=True)
class AggSpec:
    """A grouped aggregation and the layout of its result."""

    keys: tuple[KeyItem, ...]
    value_columns: tuple[Any, ...] | None
    """Labels of the aggregated columns; None when the grouped object is a Series."""
    outputs: tuple[Output, ...]
    meta: Any
    """The result's meta, laid out as pandas does (index or columns of keys)."""
    inner_meta: Any
    """The result's meta with the keys as its index, before ``present``."""
    dropna: bool
    sort: bool
    as_index: bool
    holistic_call: tuple[str, tuple[Any, ...], dict[str, Any]] | None = None
    """For a holistic aggregation: pandas' method, its arguments and keyword arguments."""
    series_name: Any = None
    """The name of the grouped Series (a Series grouped, or one column selected)."""
    select_series: bool = False
    """One column is aggregated, as a Series (``gb[col]``, or a Series grouped)."""
    states: tuple[tuple[str, int], ...] = field(init=False)

    def __post_init__(self) -> None:
        states: dict[tuple[str, int], None] = {}
        for out in self.outputs:
            p = -1 if out.func == "size" else out.position
            for state in _STATES.get(out.func, (out.func,)):
                states[(state, p)] = None
        object.__setattr__(self, "states", tuple(states))

    def columns_taken(self, meta: Any) -> list[Any] | None:
        """The columns of a grouped frame that the partials read: keys and values."""
        if self.value_columns is None or not isinstance(meta, pd.DataFrame):
            return None
        keys = [k.ref for k in self.keys if k.kind == "column"]
        return as_labels([*keys, *self.value_columns], meta)

    @property
    def nkeys(self) -> int:
        return len(self.keys)

    @property
    def holistic(self) -> bool:
        return self.holistic_call is not None

    # -- the chunk kernel -------------------------------------------------------------

    def _values(self, chunk: Any) -> pd.DataFrame:
        if self.value_columns is None:
            values = chunk.to_frame()
        else:
            values = chunk[list(self.value_columns)]
        values.columns = pd.RangeIndex(values.shape[1])
        return values

    def partial(self, chunk: Any, *extra: Any) -> pd.DataFrame:
        """A chunk's partial states (decomposable) or its keyed rows (holistic)."""
        keys = key_series(chunk, self.keys, extra)
        values = self._values(chunk)
        if self.holistic:
            m = values.shape[1]
            for i, k in enumerate(keys):
                values[m + i] = k.array if isinstance(k, pd.Series) else k  # keeps the dtype
            return values
        if len(keys) == 1:
            fast = fast_partial(values, keys[0], self.states, self.dropna, dense_ok=self.sort)
            if fast is not None:
                return fast
        gb = values.groupby(grouper(keys), sort=False, dropna=self.dropna, observed=True)
        pieces: list[Any] = []
        by_state: dict[str, list[int]] = {}
        for state, p in self.states:
            by_state.setdefault(state, []).append(p)
        for state, ps in by_state.items():
            if state == "size":
                pieces.append(gb.size().rename("size"))
                continue
            if state == "m2":
                var0 = gb[ps].var(ddof=0)
                counts = gb[ps].count()
                part = (var0 * counts).fillna(0.0)
            else:
                part = getattr(gb[ps], state)()
            part.columns = [f"{state}|{p}" for p in ps]
            pieces.append(part)
        if not pieces:  # no value columns: the groups' keys alone
            return gb.size().to_frame().iloc[:, :0]
        return pd.concat(pieces, axis=1) if len(pieces) > 1 else _as_frame(pieces[0])

    # -- merging partials -------------------------------------------------------------

    def _levels(self) -> Any:
        return 0 if self.nkeys == 1 else list(range(self.nkeys))

    def combine(self, parts: list[Any]) -> pd.DataFrame:
        """Partials of disjoint row sets merged into one (keyed rows: concatenated)."""
        nonempty = [p for p in parts if len(p)] or parts[:1]
        if len(nonempty) == 1:
            return nonempty[0]
        cat = pd.concat(nonempty)
        if self.holistic:
            return cat
        gb = cat.groupby(level=self._levels(), sort=False, dropna=False, observed=True)
        by_merge: dict[str, list[str]] = {}
        for state, p in self.states:
            name = "size" if state == "size" else f"{state}|{p}"
            if state != "m2":
                by_merge.setdefault(_MERGE[state], []).append(name)
        merged = [getattr(gb[names], how)() for how, names in by_merge.items()]
        if not merged:  # no value columns: the groups' keys alone
            merged = [gb.size().to_frame().iloc[:, :0]]
        out = pd.concat(merged, axis=1) if len(merged) > 1 else merged[0]
        for state, p in self.states:
            if state == "m2":
                out[f"m2|{p}"] = self._merge_m2(cat, gb, p)
        return out[[("size" if s == "size" else f"{s}|{p}") for s, p in self.states]]

    def _merge_m2(self, cat: pd.DataFrame, gb: Any, p: int) -> pd.Series:
        n = cat[f"count|{p}"]
        total = cat[f"sum|{p}"]
        n_all = gb[f"count|{p}"].transform("sum")
        mean_all = gb[f"sum|{p}"].transform("sum") / n_all
        with np.errstate(invalid="ignore", divide="ignore"):
            delta = total / n - mean_all
        term = (cat[f"m2|{p}"] + n * delta * delta).where(n > 0, 0.0)
        m2: pd.Series = term.groupby(level=self._levels(), sort=False, dropna=False).sum()
        return m2

    def split(self, chunk: Any, n_out: int) -> list[Any]:
        """A partial's rows in ``n_out`` parts by a hash of their group keys."""
        if not self.holistic:
            return split_states(chunk, n_out)
        keys = chunk.iloc[:, chunk.shape[1] - self.nkeys :]
        return split_by_codes(chunk, key_codes(keys, n_out), n_out)

    # -- finishing --------------------------------------------------------------------

    def finish(self, partial: pd.DataFrame) -> Any:
        """The groups' results from merged partials, keys as the index, unsorted."""
        if self.holistic:
            return self._finish_holistic(partial)
        cols: dict[int, Any] = {}
        for i, out in enumerate(self.outputs):
            cols[i] = self._column(partial, out)
        if isinstance(self.inner_meta, pd.Series):
            result: Any = in_meta_dtype(cols[0], self.inner_meta.dtype)
            result.name = self.inner_meta.name
        else:
            result = pd.DataFrame(cols, index=partial.index)
            result.columns = self.inner_meta.columns
            result = frame_in_meta_dtypes(result, self.inner_meta)
        return result

    def _column(self, partial: pd.DataFrame, out: Output) -> Any:
        p, func = out.position, out.func
        if func == "size":
            return partial["size"]
        if func not in ("mean", "var", "std"):
            return partial[f"{func}|{p}"]
        n = partial[f"count|{p}"]
        total = partial[f"sum|{p}"]
        if func == "mean":
            with np.errstate(invalid="ignore", divide="ignore"):
                return (total / n).astype("float64")
        dof = n - out.ddof
        with np.errstate(invalid="ignore", divide="ignore"):
            var = (partial[f"m2|{p}"] / dof).where(dof > 0, np.nan).astype("float64")
        return np.sqrt(var) if func == "std" else var

    def _finish_holistic(self, rows: pd.DataFrame) -> Any:
        m = rows.shape[1] - self.nkeys
        values = rows.iloc[:, :m]
        if self.select_series:
            data: Any = values.iloc[:, 0].rename(self.series_name)
        else:
            data = values.copy()
            data.columns = pd.Index(self.value_columns)
        keys = [rows.iloc[:, m + i].rename(item.name) for i, item in enumerate(self.keys)]
        gb = data.groupby(grouper(keys), sort=False, dropna=self.dropna, observed=True)
        assert self.holistic_call is not None
        name, args, kwargs = self.holistic_call
        return getattr(gb, name)(*args, **kwargs)

    def present(self, result: Any) -> Any:
        """``result`` (keys as index) in pandas' layout."""
        if not len(result):
            empty = self.meta.copy()
            if self.as_index and empty.index.nlevels == result.index.nlevels:
                empty.index = result.index[:0]  # the keys' real dtype (object when no rows)
            return empty
        if self.sort:
            result = result.sort_index()
        if not self.as_index:
            if isinstance(result, pd.Series) and result.name is None:
                result = result.rename("size")
            result = result.reset_index()
            if len(result.columns) == len(self.meta.columns):
                result.columns = self.meta.columns
        return result

    def finish_parts(self, *parts: Any) -> Any:
        """Tree root or shuffle output: merge, finish, present."""
        return self.present(self.finish(self.combine(list(parts))))

    def finish_unsorted(self, parts: list[Any]) -> Any:
        """A shuffle output gathered later: merged and finished, keys as index."""
        return self.finish(self.combine(parts))

    def gather(self, *results: Any) -> Any:
        """Finished shuffle outputs in one chunk, in pandas' layout."""
        nonempty = [r for r in results if len(r)] or list(results[:1])
        return self.present(pd.concat(nonempty) if len(nonempty) > 1 else nonempty[0])

    def merge_present(self, parts: list[Any]) -> Any:
        """A shuffle output that is final: merged, finished and laid out."""
        return self.present(self.finish(self.combine(parts)))

    def combine_parts(self, *parts: Any) -> Any:
        return self.combine(list(parts))


def _as_frame(obj: Any) -> pd.DataFrame:
    return obj.to_frame() if isinstance(obj, pd.Series) else obj


def _taken_by_partials(op: Any, position: int, meta: Any) -> list[Any] | None:
    spec = op.func.__self__
    return spec.columns_taken(meta) if position == 0 else None


TAKES_COLUMNS[AggSpec.partial] = _taken_by_partials
