"""Rows and columns conformed to new labels: ``reindex``, ``reindex_like``, ``align``.

New column labels are a per-chunk call that keeps the rows. New row labels may take
rows from anywhere (and ``method=`` fills from neighbours), so the frame is brought into
one chunk and pandas reindexes it there; the row count is known when the labels are
given. ``align`` brings both frames into one chunk and gives each side of pandas' result.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series, new_frame
from jupyter_mars.dataframe.map_chunks import MapChunks, Slot, one_chunk
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.structure.common import (
    as_lazy,
    conform,
    fetch_index,
    per_chunk,
    sample_like,
)


def reindex_chunk(chunk: Any, kwargs: dict[str, Any], meta: Any) -> Any:
    return conform(chunk.reindex(**kwargs), meta)


def reindex(
    self: FrameBase,
    labels: Any = None,
    *,
    index: Any = None,
    columns: Any = None,
    axis: Any = None,
    method: Any = None,
    copy: Any = None,
    level: Any = None,
    fill_value: Any = None,
    limit: Any = None,
    tolerance: Any = None,
) -> Any:
    """The rows and/or columns with the given labels, missing ones filled (pandas
    ``reindex``)."""
    if labels is not None:
        if index is not None or columns is not None:
            raise TypeError("reindex: cannot give labels with index= or columns=")
        if isinstance(self, Series) or self.meta._get_axis_number(axis or 0) == 0:
            index = labels
        else:
            columns = labels
    if isinstance(index, FrameBase):
        index = index.to_pandas()
    options = {
        "method": method,
        "level": level,
        "fill_value": fill_value,
        "limit": limit,
        "tolerance": tolerance,
    }
    options = {k: v for k, v in options.items() if v is not None}
    out = self
    if columns is not None:
        meta = self.meta.reindex(columns=columns, **options)  # errors as pandas
        out = per_chunk(self, "reindex", meta, columns=columns, **options)
    if index is not None:
        if np.ndim(index) != 1:
            raise TypeError(f"reindex: index must be list-like, got {index!r}")
        # whether gaps are filled (and the dtypes widened) depends on the labels
        sample = sample_like(out.meta, fetch_index(out))
        meta = empty_like(sample.reindex(index=index, **options))
        kwargs = {"index": index, **options}
        out = _whole(reindex_chunk, [out], (kwargs, meta), meta, len(index))
    return out


def reindex_like_chunk(chunk: Any, other: Any, kwargs: dict[str, Any], meta: Any) -> Any:
    return conform(chunk.reindex_like(other, **kwargs), meta)


def reindex_like(
    self: FrameBase,
    other: Any,
    method: Any = None,
    copy: Any = None,
    limit: Any = None,
    tolerance: Any = None,
) -> Any:
    """The rows and columns of ``other`` (pandas ``reindex_like``)."""
    other = as_lazy(other)
    if not isinstance(other, FrameBase):
        raise TypeError(
            f"reindex_like: other must be a DataFrame or Series, got {type(other).__name__}"
        )
    kwargs = {
        k: v
        for k, v in {"method": method, "limit": limit, "tolerance": tolerance}.items()
        if v is not None
    }
    other_index = fetch_index(other)
    left = sample_like(self.meta, fetch_index(self))
    meta = empty_like(left.reindex_like(sample_like(other.meta, other_index), **kwargs))
    return _whole(reindex_like_chunk, [self, other], (kwargs, meta), meta, len(other_index))


def align_side(left: Any, right: Any, side: int, kwargs: dict[str, Any], meta: Any) -> Any:
    return conform(left.align(right, **kwargs)[side], meta)


def align(
    self: FrameBase,
    other: Any,
    join: str = "outer",
    axis: Any = None,
    level: Any = None,
    copy: Any = None,
    fill_value: Any = None,
) -> tuple[Any, Any]:
    """Both objects on the union (``join``) of their labels (pandas ``align``)."""
    other = as_lazy(other)
    if not isinstance(other, FrameBase):
        raise TypeError(f"align: other must be a DataFrame or Series, got {type(other).__name__}")
    kwargs: dict[str, Any] = {"join": join, "axis": axis, "level": level}
    if fill_value is not None:
        kwargs["fill_value"] = fill_value
    left = sample_like(self.meta, fetch_index(self))
    right = sample_like(other.meta, fetch_index(other))
    samples = left.align(right, **kwargs)  # the labels decide where gaps widen dtypes
    return tuple(
        _whole(align_side, [self, other], (side, kwargs, empty_like(x)), empty_like(x), len(x))
        for side, x in enumerate(samples)
    )


def _whole(func: Any, frames: list[FrameBase], args: tuple[Any, ...], meta: Any, nrows: int) -> Any:
    """``func(*whole_frames, *args)`` in one task, giving ``nrows`` rows."""
    slots = tuple(Slot(i) for i in range(len(frames)))
    op = MapChunks(func, (*slots, *args), {}, getattr(func, "__name__", ""), keeps_rows=False)
    return new_frame(op, [one_chunk(f) for f in frames], nrows, meta)


def _attach() -> None:
    for cls in (DataFrame, Series):
        setattr(cls, "reindex", reindex)  # noqa: B010
        setattr(cls, "reindex_like", reindex_like)  # noqa: B010
        setattr(cls, "align", align)  # noqa: B010


_attach()
