"""Columns chosen, inserted or relabelled: ``insert``, ``pop``, ``isetitem``,
``select_dtypes``, ``filter``, ``set_axis``.

Which columns a call keeps is decided on the meta, so pandas checks the arguments when
the call is made; rows are never moved. ``insert``, ``pop`` and ``isetitem`` change the
frame in pandas: here they point the handle at a new node, as ``df[col] = value`` does.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.axes import axis_number
from jupyter_mars.dataframe.brackets import getitem
from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series, new_frame
from jupyter_mars.dataframe.filters import rows_like
from jupyter_mars.dataframe.labels import assign_one, drop
from jupyter_mars.dataframe.map_chunks import MapChunks, Slot, map_chunks, one_chunk
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.selection import select_column_positions
from jupyter_mars.dataframe.structure.common import meta_value, node_of, per_chunk


def insert(
    self: DataFrame, loc: int, column: Any, value: Any, allow_duplicates: bool = False
) -> None:
    """``value`` as a new column at position ``loc`` (pandas ``insert``, in place)."""
    meta = self.meta.copy()
    meta.insert(loc, column, meta_value(value), allow_duplicates=allow_duplicates)
    if column in self.meta.columns:
        raise NotImplementedError("insert: a second column of the same label is not supported")
    n = len(self.meta.columns)
    added = assign_one(self, column, value)
    order = list(range(n))
    order.insert(loc, n)
    self._node = select_column_positions(added, order)._node


def pop(self: FrameBase, item: Any) -> Any:
    """The column (a DataFrame's) or the value (a Series', fetched) ``item``, removed
    from ``self`` (pandas ``pop``)."""
    if isinstance(self, DataFrame):
        out = getitem(self, item)
    else:
        out = self.loc[item]  # type: ignore[attr-defined]
        out.execute()
        out = out.fetch()
    rest = drop(self, columns=[item]) if isinstance(self, DataFrame) else drop(self, [item])
    self._node = rest._node
    return out


def isetitem(self: DataFrame, loc: Any, value: Any) -> None:
    """The column(s) at position(s) ``loc`` set to ``value`` (pandas ``isetitem``)."""
    positions = [loc] if np.ndim(loc) == 0 else list(loc)
    labels = [self.meta.columns[p] for p in positions]  # IndexError as pandas
    if len(set(labels)) != len(labels) or not self.meta.columns.is_unique:
        raise NotImplementedError("isetitem: frames with repeated column labels")
    if np.ndim(loc) == 0:
        self[labels[0]] = value
    else:
        self[labels] = value


def select_dtypes(self: DataFrame, include: Any = None, exclude: Any = None) -> Any:
    """The columns of the given dtypes (pandas ``select_dtypes``)."""
    kept = self.meta.select_dtypes(include=include, exclude=exclude)  # errors as pandas
    chosen = [i for i, c in enumerate(self.meta.columns) if c in kept.columns]
    return select_column_positions(self, chosen)


def filter_labels(chunk: Any, kwargs: dict[str, Any]) -> Any:
    return chunk.filter(**kwargs)


def filter_(
    self: FrameBase, items: Any = None, like: Any = None, regex: Any = None, axis: Any = None
) -> Any:
    """The columns (a DataFrame's, by default) or rows whose labels are in ``items``,
    contain ``like`` or match ``regex`` (pandas ``filter``)."""
    kwargs = {"items": items, "like": like, "regex": regex, "axis": axis}
    meta = self.meta.filter(**kwargs)  # TypeError as pandas
    if axis is None:
        axis = 1 if isinstance(self, DataFrame) else 0
    if isinstance(self, DataFrame) and not axis_number(self.meta, axis) == 0:
        positions = [i for i, c in enumerate(self.meta.columns) if c in meta.columns]
        if items is not None:  # in the order of items
            order = {c: k for k, c in enumerate(items)}
            positions.sort(key=lambda i: order[self.meta.columns[i]])
        return select_column_positions(self, positions)
    if regex is not None:
        re.compile(regex)
    frame = self if items is None else one_chunk(self)  # items: their order, all chunks
    return map_chunks(filter_labels, [frame], (Slot(0), kwargs), empty_like(meta), keeps_rows=False)


def set_labels(chunk: Any, labels: Any, like: pd.Index) -> Any:
    return chunk.set_axis(pd.Index(labels.to_numpy(), dtype=like.dtype, name=like.name), axis=0)


def set_axis(self: FrameBase, labels: Any, *, axis: Any = 0, copy: Any = None) -> Any:
    """New labels for the rows (split at the chunks' offsets) or columns (pandas
    ``set_axis``)."""
    if not axis_number(self.meta, axis) == 0:
        meta = self.meta.set_axis(labels, axis=1)  # ValueError for a wrong length
        return per_chunk(self, "set_axis", meta, labels, axis=1)
    values = labels.to_pandas() if isinstance(labels, FrameBase) else labels
    index = pd.Index(values)
    meta = self.meta.copy()
    meta.index = index[:0]
    lazy = rows_like(self, np.asarray(index))
    op = MapChunks(set_labels, (Slot(0), Slot(1), index[:0]), {}, "set_axis")
    return new_frame(op, [self, lazy], node_of(self).shape[0], meta)


def _attach() -> None:
    frame_only: dict[str, Any] = {
        "insert": insert,
        "isetitem": isetitem,
        "select_dtypes": select_dtypes,
    }
    for attr, value in frame_only.items():
        setattr(DataFrame, attr, value)
    for cls in (DataFrame, Series):
        setattr(cls, "pop", pop)  # noqa: B010
        setattr(cls, "filter", filter_)  # noqa: B010
        setattr(cls, "set_axis", set_axis)  # noqa: B010


_attach()
