"""``T`` / ``transpose``: rows become columns.

The columns of the result are the row labels, which are data, so they are computed when
``transpose`` is called (only the index, in parallel) to give the result its meta; the
result is then lazy: its rows are the input's columns (a known count), computed by
bringing the frame into one chunk and transposing it there. A frame's columns are few
(they are all in every chunk), so the result's rows are few too, but its columns are as
many as the input's rows: transpose frames whose rows fit in one chunk.
"""

from __future__ import annotations

from typing import Any

from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series, new_frame
from jupyter_mars.dataframe.map_chunks import MapChunks, Slot, one_chunk
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.structure.common import conform, fetch_index, sample_like


def transpose_chunk(chunk: Any, meta: Any) -> Any:
    return conform(chunk.T, meta)


def transpose(self: FrameBase, *args: Any, copy: Any = None) -> Any:
    """Rows as columns and columns as rows (pandas ``transpose``); a Series is itself."""
    if args:
        raise TypeError("transpose() takes no positional arguments besides self")
    if isinstance(self, Series):
        return self
    index = fetch_index(self)
    meta = empty_like(sample_like(self.meta, index).T)
    op = MapChunks(transpose_chunk, (Slot(0), meta), {}, "transpose", keeps_rows=False)
    return new_frame(op, [one_chunk(self)], len(self.meta.columns), meta)


def _attach() -> None:
    for cls in (DataFrame, Series):
        setattr(cls, "transpose", transpose)  # noqa: B010
        setattr(cls, "T", property(transpose))  # noqa: B010


_attach()
