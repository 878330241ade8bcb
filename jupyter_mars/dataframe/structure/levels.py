"""Levels and names of the row or column labels: ``rename_axis``, ``droplevel``,
``reorder_levels``, ``swaplevel``.

Each is the same pandas call on every chunk; on the columns the rows keep their index
(and line up with the input's), on the rows the labels change, so the result gets a new
index key. pandas checks the levels on the meta when the call is made.
"""

from __future__ import annotations

from typing import Any

from jupyter_mars.dataframe.axes import axis_number
from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series
from jupyter_mars.dataframe.structure.common import per_chunk, relabel_chunks


def _on_axis(self: FrameBase, method: str, axis: Any, *args: Any, **kwargs: Any) -> Any:
    meta = getattr(self.meta, method)(*args, axis=axis, **kwargs)
    if axis_number(self.meta, axis) == 0:
        return relabel_chunks(self, method, meta, *args, axis=axis, **kwargs)
    return per_chunk(self, method, meta, *args, axis=axis, **kwargs)


def droplevel(self: FrameBase, level: Any, axis: Any = 0) -> Any:
    """The labels without the given level(s) (pandas ``droplevel``)."""
    return _on_axis(self, "droplevel", axis, level)


def reorder_levels(self: FrameBase, order: Any, axis: Any = 0) -> Any:
    """The levels of the labels in ``order`` (pandas ``reorder_levels``)."""
    if isinstance(self, Series):
        meta = self.meta.reorder_levels(order)
        return relabel_chunks(self, "reorder_levels", meta, order)
    return _on_axis(self, "reorder_levels", axis, order)


def swaplevel(self: FrameBase, i: Any = -2, j: Any = -1, axis: Any = 0) -> Any:
    """Levels ``i`` and ``j`` of the labels swapped (pandas ``swaplevel``)."""
    if isinstance(self, Series):
        meta = self.meta.swaplevel(i, j)
        return relabel_chunks(self, "swaplevel", meta, i, j)
    return _on_axis(self, "swaplevel", axis, i, j)


def rename_axis(
    self: FrameBase,
    mapper: Any = None,
    *,
    index: Any = None,
    columns: Any = None,
    axis: Any = 0,
    copy: Any = None,
) -> Any:
    """New names for the index or the columns (pandas ``rename_axis``)."""
    kwargs: dict[str, Any] = {"axis": axis}
    if mapper is not None:
        kwargs["mapper"] = mapper
    if index is not None:
        kwargs["index"] = index
    if columns is not None:
        kwargs["columns"] = columns
    meta = self.meta.rename_axis(**kwargs)  # errors as pandas
    if list(meta.index.names) != list(self.meta.index.names):
        return relabel_chunks(self, "rename_axis", meta, **kwargs)
    return per_chunk(self, "rename_axis", meta, **kwargs)


def _attach() -> None:
    for cls in (DataFrame, Series):
        methods: dict[str, Any] = {
            "droplevel": droplevel,
            "reorder_levels": reorder_levels,
            "swaplevel": swaplevel,
            "rename_axis": rename_axis,
        }
        for attr, value in methods.items():
            setattr(cls, attr, value)


_attach()
