"""Functions of whole groups: ``apply``, ``filter`` and ``transform`` of a function.

All rows of a group must be in one chunk, so the rows are shuffled by a hash of their
keys. Each chunk's rows first get their key columns and their place (chunk number and
row number) appended (``tag_rows``); output chunk ``j`` of the shuffle gathers the rows of
the groups hashed to ``j`` and runs pandas' own grouped call on them.

- ``apply``: the results of all parts are gathered into one chunk (sorted by keys when
  ``sort``; with ``sort=False`` the groups come in hash-partition order);
- ``call`` (``func`` a ``calls.GroupedCall``: ``nlargest``, ``unique``, ``take``, window
  aggregations, ...): gathered as ``apply`` is, but each part also tells where its groups
  first appear, so with ``sort=False`` the groups come in first-appearance order, as in
  pandas; the call's ``finish`` then lays the whole result out;
- ``filter``, ``select`` (``head``, ``tail``, ``sample``: rows that pandas picks from each
  group) and ``transform``: their rows go back where they came from: a second shuffle
  by chunk number, and each output chunk puts its rows in their original order. A
  transform keeps the input's chunking, so it lines up with the grouped object.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.core import new_frame
from jupyter_mars.dataframe.groupby.keys import KeyItem, grouper, key_codes, key_series
from jupyter_mars.dataframe.groupby.titles import rows_title
from jupyter_mars.dataframe.node import FrameNode
from jupyter_mars.dataframe.partition import split_by_codes
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.shuffle import shuffle_tasks

ROW_SUBSETS = frozenset({"filter", "select"})
"""Modes whose result is some of the grouped object's rows, as they are."""


@dataclass(frozen=True)
class RowsSpec:
    """A function of whole groups and how to rebuild the grouped object around it."""

    mode: str
    """``"apply"``, ``"call"``, ``"filter"``, ``"select"`` (``func`` names the pandas
    method) or ``"transform"``."""
    func: Any
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    keys: tuple[KeyItem, ...]
    columns: tuple[Any, ...] | None
    """Labels of the grouped frame's columns (None: a Series), all carried along."""
    selection: tuple[Any, ...] | None
    """The columns the function sees (None: all of them)."""
    series_name: Any
    select_series: bool
    dropna: bool
    sort: bool
    group_keys: bool
    meta: Any

    @property
    def nkeys(self) -> int:
        return len(self.keys)

    @property
    def width(self) -> int:
        return 1 if self.columns is None else len(self.columns)

    def tag_rows(self, number: int, chunk: Any, *extra: Any) -> pd.DataFrame:
        """The chunk's columns (as positions), keys, chunk number and row number."""
        keys = key_series(chunk, self.keys, extra)
        rows = chunk.to_frame() if self.columns is None else chunk.copy()
        rows.columns = pd.RangeIndex(self.width)
        m = self.width
        for i, k in enumerate(keys):
            rows[m + i] = k.to_numpy()
        rows[m + self.nkeys] = np.full(len(rows), number, dtype=np.int64)
        rows[m + self.nkeys + 1] = np.arange(len(rows), dtype=np.int64)
        return rows

    def split_keys(self, rows: pd.DataFrame, n_out: int) -> list[Any]:
        m = self.width
        return split_by_codes(rows, key_codes(rows.iloc[:, m : m + self.nkeys], n_out), n_out)

    def _data(self, rows: pd.DataFrame, index: pd.Index) -> Any:
        """The grouped object's rows with their labels (``index``: their row labels)."""
        values = rows.iloc[:, : self.width].set_axis(index, axis=0)
        if self.columns is None:
            return values.iloc[:, 0].rename(self.series_name)
        values.columns = pd.Index(self.columns)
        if self.select_series:
            return values[self.series_name]
        return values if self.selection is None else values[list(self.selection)]

    def _grouped(self, rows: pd.DataFrame, positional: bool) -> Any:
        index = pd.RangeIndex(len(rows)) if positional else rows.index
        data = self._data(rows, index)
        m = self.width
        keys = [
            pd.Series(rows.iloc[:, m + i].to_numpy(), index=index, name=item.name)
            for i, item in enumerate(self.keys)
        ]
        return data.groupby(
            grouper(keys), sort=self.sort, dropna=self.dropna, group_keys=self.group_keys
        )

    def run(self, parts: list[Any]) -> Any:
        """Output ``j`` of the key shuffle: pandas' grouped call on its rows."""
        rows = pd.concat(parts) if len(parts) > 1 else parts[0]
        if self.mode == "call":
            return self._call(rows)
        if self.mode == "apply":
            if not len(rows):
                return self.meta.iloc[:0]
            return self._grouped(rows, False).apply(self.func, *self.args, **self.kwargs)
        if not len(rows):
            return rows.iloc[:0] if self.mode in ROW_SUBSETS else None
        gb = self._grouped(rows, True)
        place = rows.iloc[:, rows.shape[1] - 2 :]
        if self.mode in ROW_SUBSETS:
            if self.mode == "filter":
                kept = gb.filter(self.func, *self.args, **self.kwargs)
            else:  # head, tail, sample, nth: pandas picks the rows of each group
                kept = getattr(gb, self.func)(*self.args, **self.kwargs)
            taken = rows.iloc[np.asarray(kept.index, dtype=np.intp)]
            return taken
        if gb.ngroups:
            out = gb.transform(self.func, *self.args, **self.kwargs)
        else:  # every key missing and dropped: pandas gives NaN rows (it fails on none)
            width = 1 if isinstance(self.meta, pd.Series) else self.meta.shape[1]
            out = pd.DataFrame(np.full((len(rows), width), np.nan), index=pd.RangeIndex(len(rows)))
        where = np.asarray(out.index, dtype=np.intp)
        frame = out.to_frame() if isinstance(out, pd.Series) else out
        frame = frame.set_axis(rows.index[where], axis=0)
        frame.columns = pd.RangeIndex(frame.shape[1])
        ncol = frame.shape[1]
        frame[ncol] = place.iloc[where, 0].to_numpy()
        frame[ncol + 1] = place.iloc[where, 1].to_numpy()
        return frame

    def _call(self, rows: pd.DataFrame) -> tuple[Any, pd.Series | None]:
        """A ``GroupedCall`` on the part's groups, and where each group first appears
        (chunk and row number in one int64) when the groups keep that order."""
        gb = self._grouped(rows, self.func.positional) if len(rows) else None
        if gb is None or not gb.ngroups:  # pandas' windows fail on no groups
            return self.func.keyed_meta, None
        out = self.func(gb)
        if self.sort:
            return out, None
        width = rows.shape[1]
        place = rows.iloc[:, width - 2].to_numpy() << 32 | rows.iloc[:, width - 1].to_numpy()
        m = self.width
        keys = [rows.iloc[:, m + i].rename(item.name) for i, item in enumerate(self.keys)]
        first = pd.Series(place, index=rows.index).groupby(
            grouper(keys), sort=False, dropna=self.dropna
        )
        return out, first.min()

    def gather_calls(self, *results: tuple[Any, pd.Series | None]) -> Any:
        """The parts' ``GroupedCall`` results in one chunk, groups in pandas' order."""
        nonempty = [r for r in results if len(r[0])]
        if not nonempty:
            return self.meta.iloc[:0]
        out = pd.concat([r[0] for r in nonempty]) if len(nonempty) > 1 else nonempty[0][0]
        levels = list(range(self.nkeys))
        if self.sort:
            out = out.sort_index(level=levels, sort_remaining=False, kind="stable")
        else:
            firsts = pd.concat([r[1] for r in nonempty if r[1] is not None])
            extra = list(range(self.nkeys, out.index.nlevels))
            keys = out.index.droplevel(extra) if extra else out.index
            where = firsts.reindex(keys).to_numpy()
            out = out.iloc[np.argsort(where, kind="stable")]
        return self.func.finish(out)

    def split_back(self, rows: pd.DataFrame | None, n_out: int) -> list[Any]:
        if rows is None:
            return [None] * n_out
        codes = rows.iloc[:, rows.shape[1] - 2].to_numpy().astype(np.intp)
        return split_by_codes(rows, codes, n_out)

    def restore(self, parts: list[Any]) -> Any:
        """Rows back in their chunk, in their order, in the result's layout."""
        nonempty = [p for p in parts if p is not None and len(p)]
        if not nonempty:
            return self.meta.iloc[:0]
        rows = pd.concat(nonempty) if len(nonempty) > 1 else nonempty[0]
        rows = rows.iloc[np.argsort(rows.iloc[:, -1].to_numpy(), kind="stable")]
        if self.mode in ROW_SUBSETS:
            data = self._data(rows, rows.index)
            if isinstance(self.meta, pd.DataFrame) and isinstance(data, pd.DataFrame):
                return data[list(self.meta.columns)]
            return data
        values = rows.iloc[:, : rows.shape[1] - 2]
        if isinstance(self.meta, pd.Series):
            return values.iloc[:, 0].rename(self.meta.name)
        values.columns = self.meta.columns
        return values

    def gather(self, *results: Any) -> Any:
        """The results of ``apply`` in one chunk, in key order when ``sort``."""
        nonempty = [r for r in results if len(r)]
        if not nonempty:
            return self.meta.iloc[:0]
        out = pd.concat(nonempty) if len(nonempty) > 1 else nonempty[0]
        if not self.sort:
            return out
        if isinstance(out.index, pd.MultiIndex) and out.index.nlevels > self.nkeys:
            levels = list(range(self.nkeys))
            return out.sort_index(level=levels, sort_remaining=False, kind="stable")
        return out.sort_index(kind="stable")


@dataclass(frozen=True, eq=False)
class GroupbyRows(Op):
    spec: RowsSpec

    def label(self) -> str:
        return f"groupby_{self.spec.mode}"

    def title(self, inner: str) -> str:
        spec = self.spec
        selected = spec.series_name if spec.select_series else None
        return rows_title(spec.mode, spec.func, spec.keys, selected)


@tile_rule(GroupbyRows)
def _tile_groupby_rows(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, GroupbyRows)
    spec = op.spec
    n = len(inputs[0].nsplits[0])
    tagged = []
    for i in range(n):
        key = (f"{node.key}-tag", i)
        ctx.new_task(key, spec.tag_rows, i, *(Ref(t.keys[i]) for t in inputs))
        tagged.append(key)
    mid = shuffle_tasks(ctx, f"{node.key}-bykey", tagged, n, spec.split_keys, (), spec.run)
    grid_keys = mid.flat_keys()
    if spec.mode in ("apply", "call"):
        gather = spec.gather if spec.mode == "apply" else spec.gather_calls
        grid = key_grid(node.key, [1])
        ctx.new_task(grid[0], gather, *(Ref(k) for k in grid_keys))
        return Tiled(((math.nan,),), grid)
    back = shuffle_tasks(ctx, node.key, grid_keys, n, spec.split_back, (), spec.restore)
    if spec.mode == "transform":
        return Tiled(inputs[0].nsplits, back.keys)
    return back


def _selection(gb: Any, mode: str) -> tuple[Any, ...] | None:
    """The columns the function sees: ``filter`` sees every column unless some are
    selected; ``apply`` and ``transform`` see the value columns (keys left out)."""
    if isinstance(gb._obj.meta, pd.Series) or gb._series_selected:
        return None
    if mode in ROW_SUBSETS and not gb._has_selection:
        return None
    columns: tuple[Any, ...] | None = gb._value_columns()
    return columns


def shuffle_rows(
    gb: Any, mode: str, func: Any, args: tuple[Any, ...], kwargs: dict[str, Any], meta: Any
) -> Any:
    """The lazy result of ``gb.<mode>(func, *args, **kwargs)`` through a key shuffle."""
    spec = RowsSpec(
        mode=mode,
        func=func,
        args=tuple(args),
        kwargs=dict(kwargs),
        keys=gb._keys,
        columns=None if isinstance(gb._obj.meta, pd.Series) else tuple(gb._obj.meta.columns),
        selection=_selection(gb, mode),
        series_name=gb._series_name(),
        select_series=gb._series_selected,
        dropna=gb.dropna,
        sort=gb.sort,
        group_keys=gb.group_keys,
        meta=meta,
    )
    frames = list(gb._frames)
    node = frames[0].node
    assert isinstance(node, FrameNode)
    if mode == "transform":
        return new_frame(GroupbyRows(spec), frames, node.shape[0], meta, node.index_key)
    return new_frame(GroupbyRows(spec), frames, math.nan, meta)
