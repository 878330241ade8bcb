"""Rows chosen by position or label, or made of list-like values: ``take``,
``truncate``, ``xs``, ``squeeze``, ``explode``, ``first_valid_index`` /
``last_valid_index``.

Selections go through ``iloc``/``loc``; ``truncate`` and ``xs`` on a level keep each
chunk's matching rows in parallel, after one small task has checked what pandas checks
(a sorted index; a key present somewhere). The valid-index lookups return a label, so they are
computed when called (each chunk reports its first or last valid label, in parallel).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.axes import axis_number
from jupyter_mars.dataframe.brackets import getitem
from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series, new_frame
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.renumber import renumber
from jupyter_mars.dataframe.structure.common import node_of
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule


def take(self: FrameBase, indices: Any, axis: Any = 0, **kwargs: Any) -> Any:
    """Rows (or a DataFrame's columns) at the positions ``indices`` (pandas ``take``)."""
    positions = np.asarray(indices)
    if positions.ndim != 1 or (positions.size and positions.dtype.kind not in "iu"):
        raise ValueError(f"take: indices must be a 1-d list of ints, got {indices!r}")
    if axis_number(self.meta, axis) == 0:
        return self.iloc[positions]  # type: ignore[attr-defined]
    self.meta.take(positions, axis=1)  # IndexError as pandas
    return self.iloc[:, positions]  # type: ignore[attr-defined]


@dataclass(frozen=True, eq=False)
class Truncate(Op):
    before: Any
    after: Any

    def label(self) -> str:
        return "truncate"


def index_order(chunk: Any) -> tuple[bool, bool, Any]:
    """Whether the chunk's labels increase, decrease, and its first and last ones."""
    index = chunk.index
    edges = (index[0], index[-1]) if len(index) else None
    return bool(index.is_monotonic_increasing), bool(index.is_monotonic_decreasing), edges


def check_sorted(*orders: tuple[bool, bool, Any]) -> None:
    """ValueError, as pandas, unless the labels of all chunks in order are sorted."""
    edges = [e for _, _, e in orders if e is not None]
    pairs = list(zip(edges, edges[1:]))
    if all(inc for inc, _, _ in orders) and all(a[1] <= b[0] for a, b in pairs):
        return
    if all(dec for _, dec, _ in orders) and all(a[1] >= b[0] for a, b in pairs):
        return
    raise ValueError("truncate requires a sorted index")


def rows_between(chunk: Any, before: Any, after: Any, checked: Any = None) -> Any:
    index = chunk.index
    keep = np.ones(len(index), dtype=bool)
    if before is not None:
        keep &= np.asarray(index >= before)
    if after is not None:
        keep &= np.asarray(index <= after)
    return chunk[keep]


@tile_rule(Truncate)
def _tile_truncate(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Truncate)
    (t,) = inputs
    n = len(t.nsplits[0])
    orders = [(node.key, "order", i) for i in range(n)]
    for i, key in enumerate(orders):
        ctx.new_task(key, index_order, Ref(t.keys[i]))
    check = (node.key, "sorted")
    ctx.new_task(check, check_sorted, *(Ref(k) for k in orders))
    grid = key_grid(node.key, [n])
    for i in range(n):
        args = (Ref(t.keys[i]), op.before, op.after, Ref(check))
        ctx.add_blockwise(grid[i], rows_between, args, {})
    return Tiled(((math.nan,) * n,), grid)


def truncate(
    self: FrameBase, before: Any = None, after: Any = None, axis: Any = None, copy: Any = None
) -> Any:
    """Rows (or a DataFrame's columns) with labels from ``before`` to ``after`` (pandas
    ``truncate``). The index must be sorted, as pandas asks: each chunk reports its
    order and edges, and one small task raises ValueError when computed if they are not
    sorted as a whole."""
    axis = 0 if axis is None else axis
    self.meta.truncate(before=before, after=after, axis=axis)  # ValueError as pandas
    if not axis_number(self.meta, axis) == 0:
        kept = self.meta.truncate(before=before, after=after, axis=1).columns
        return getitem(self, list(kept))  # type: ignore[arg-type]
    return new_frame(Truncate(before, after), [self], math.nan, empty_like(self.meta))


def xs(self: FrameBase, key: Any, axis: Any = 0, level: Any = None, drop_level: bool = True) -> Any:
    """A cross-section: the rows (or a DataFrame's columns) with label ``key``, at
    ``level`` of a MultiIndex (pandas ``xs``)."""
    if not axis_number(self.meta, axis) == 0:
        if level is not None:
            raise NotImplementedError("xs: level= on the columns is not supported")
        return getitem(self, key)  # type: ignore[arg-type]
    if level is None:
        return self.loc[key]  # type: ignore[attr-defined]
    index = self.meta.index
    if not isinstance(index, pd.MultiIndex):
        raise TypeError("xs: level= needs a MultiIndex")
    names = level if isinstance(level, list) else [level]
    positions = [index._get_level_number(n) for n in names]
    keep = [i for i in range(index.nlevels) if i not in positions]
    meta = empty_like(self.meta)
    if drop_level:
        meta = meta.droplevel(positions) if keep else meta
    return new_frame(CrossSection(key, level, drop_level, meta), [self], math.nan, meta)


@dataclass(frozen=True, eq=False)
class CrossSection(Op):
    key: Any
    level: Any
    drop_level: bool
    meta: Any

    def label(self) -> str:
        return "xs"


def key_found(chunk: Any, key: Any, level: Any) -> bool:
    try:
        chunk.xs(key, level=level, drop_level=False)
    except KeyError:
        return False
    return True


def check_found(key: Any, *found: bool) -> None:
    """KeyError, as pandas, when no chunk holds the key."""
    if not any(found):
        raise KeyError(key)


def xs_chunk(chunk: Any, op: CrossSection, found: bool, checked: Any) -> Any:
    if not found:
        return op.meta
    return chunk.xs(op.key, level=op.level, drop_level=op.drop_level)


@tile_rule(CrossSection)
def _tile_cross_section(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, CrossSection)
    (t,) = inputs
    n = len(t.nsplits[0])
    found = [(node.key, "found", i) for i in range(n)]
    for i, key in enumerate(found):
        ctx.new_task(key, key_found, Ref(t.keys[i]), op.key, op.level)
    check = (node.key, "check")
    ctx.new_task(check, check_found, op.key, *(Ref(k) for k in found))
    grid = key_grid(node.key, [n])
    for i in range(n):
        ctx.add_blockwise(grid[i], xs_chunk, (Ref(t.keys[i]), op, Ref(found[i]), Ref(check)), {})
    return Tiled(((math.nan,) * n,), grid)


def squeeze(self: FrameBase, axis: Any = None) -> Any:
    """One-column frames as a Series, one-row Series as a value (pandas ``squeeze``);
    the row count must be known for the rows to be squeezed."""
    if axis is not None:
        axis = self.meta._get_axis_number(axis)
    out: Any = self
    if isinstance(self, DataFrame) and axis in (None, 1) and len(self.columns) == 1:
        out = self.iloc[:, 0]
    if axis in (None, 0):
        n = node_of(self).shape[0]
        if n == 1:
            return out.iloc[0]
    return out


def edge_label(chunk: Any, last: bool) -> pd.Index:
    valid = chunk.notna()
    if isinstance(chunk, pd.DataFrame):
        valid = valid.any(axis=1)
    positions = np.flatnonzero(valid.to_numpy())
    if not len(positions):
        return chunk.index[:0]
    return chunk.index[[positions[-1] if last else positions[0]]]


def _valid_index(self: FrameBase, last: bool) -> Any:
    labels = map_chunks(
        edge_label, [self], (Slot(0), last), self.meta.index, name="valid_index", keeps_rows=False
    )
    labels.execute()
    found = labels.fetch()
    if not len(found):
        return None
    return found[-1] if last else found[0]


def first_valid_index(self: FrameBase) -> Any:
    """The label of the first row with a value (pandas ``first_valid_index``)."""
    return _valid_index(self, last=False)


def last_valid_index(self: FrameBase) -> Any:
    """The label of the last row with a value (pandas ``last_valid_index``)."""
    return _valid_index(self, last=True)


def explode_chunk(chunk: Any, kwargs: dict[str, Any]) -> Any:
    return chunk.explode(**kwargs)


def explode(self: FrameBase, column: Any = None, ignore_index: bool = False) -> Any:
    """A row for each element of list-likes (pandas ``explode``)."""
    kwargs: dict[str, Any] = {}
    if isinstance(self, DataFrame):
        if column is None:
            raise TypeError("explode() missing 1 required positional argument: 'column'")
        kwargs["column"] = column
    meta = self.meta.explode(**kwargs)  # ValueError / KeyError as pandas
    out = map_chunks(
        explode_chunk, [self], (Slot(0), kwargs), empty_like(meta), name="explode", keeps_rows=False
    )
    return renumber(out) if ignore_index else out


def _attach() -> None:
    for cls in (DataFrame, Series):
        methods: dict[str, Any] = {
            "take": take,
            "truncate": truncate,
            "xs": xs,
            "squeeze": squeeze,
            "explode": explode,
            "first_valid_index": first_valid_index,
            "last_valid_index": last_valid_index,
        }
        for attr, value in methods.items():
            setattr(cls, attr, value)


_attach()
