"""``DataFrame.rechunk`` and ``Series.rechunk``: the same rows in new chunks, for a frame
split by columns too when ``chunk_size`` is ``(rows, cols)`` (the operator and its tiling:
``rechunk_tiling.py``).
"""

from __future__ import annotations

from typing import Any

from jupyter_mars.dataframe.chunks import column_splits, row_splits
from jupyter_mars.dataframe.core import DataFrame, FrameBase, Index, Series, new_frame
from jupyter_mars.dataframe.node import FrameNode
from jupyter_mars.dataframe.rechunk_tiling import Rechunk


def rechunk(frame: FrameBase, chunk_size: Any, reassign_worker: bool = False) -> Any:
    """The same data in chunks of ``chunk_size``: rows, or ``(rows, cols)`` for a DataFrame
    (``rows`` None keeps the row chunks; no ``cols``, full-width chunks).
    ``reassign_worker`` is Mars's, accepted and unused: the scheduler places chunks."""
    node = frame.node
    assert isinstance(node, FrameNode)
    pair = isinstance(chunk_size, (tuple, list))
    if pair and not isinstance(frame, DataFrame):
        raise ValueError(f"chunk_size of a {type(frame).__name__} is a number of rows")
    rows = chunk_size[0] if pair and len(chunk_size) == 2 else chunk_size
    if rows is not None:
        row_splits(0, rows, 1)  # checks it, raising here rather than when tiled
    cols = column_splits(node.meta.shape[1], chunk_size) if pair else None
    if rows is None and cols is None and not isinstance(frame, DataFrame):
        return frame
    return new_frame(Rechunk(rows, cols), [frame], node.shape[0], node.meta)


_METHODS: dict[str, Any] = {"rechunk": rechunk}
for _cls in (DataFrame, Series, Index):
    for _attr, _value in _METHODS.items():
        setattr(_cls, _attr, _value)
