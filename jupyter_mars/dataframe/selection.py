"""Columns by label, rows by position: ``df['a']``, ``df[['a', 'b']]``, ``iloc``, ``head``,
``tail``.

Column selections are one pandas call per chunk and keep the rows. A positional row slice
needs the lengths of the chunks before it, so it is tiled once they are known (a stage
computes them first when a filter made them data-dependent); each chunk it touches gives
the slice of its own rows, and chunks it does not touch are not computed at all.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from jupyter_mars.dataframe.core import DataFrame, Series, _Frame, new_frame
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.node import FrameNode, empty_like
from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule


def take_columns(chunk: Any, key: Any) -> Any:
    return chunk[key]


def getitem(frame: DataFrame, key: Any) -> Any:
    """``df[col]`` (a Series) or ``df[[cols]]`` (a DataFrame); a missing label raises
    KeyError here, at the line that asked for it."""
    if isinstance(key, slice):
        return iloc_rows(frame, key)
    meta = empty_like(frame.meta[key])  # KeyError for missing columns, as pandas
    return map_chunks(take_columns, [frame], (Slot(0), key), meta, name="getitem")


@dataclass(frozen=True, eq=False)
class RowSlice(Op):
    start: int | None
    stop: int | None
    step: int

    def label(self) -> str:
        return "iloc"


def slice_rows(chunk: Any, start: int, stop: int, step: int) -> Any:
    return chunk[start:stop:step] if not hasattr(chunk, "iloc") else chunk.iloc[start:stop:step]


@tile_rule(RowSlice)
def _tile_row_slice(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, RowSlice)
    (t,) = inputs
    ctx.require_known(t)
    lengths = [int(n) for n in t.nsplits[0]]
    start, stop, step = slice(op.start, op.stop, op.step).indices(sum(lengths))
    pieces: list[tuple[Any, int, int]] = []
    for i, (lo, n) in enumerate(zip(offsets(lengths), lengths)):
        lo = int(lo)
        first = start if lo <= start else start + math.ceil((lo - start) / step) * step
        last = min(stop, lo + n)
        if first < last and first < lo + n:
            pieces.append((t.keys[i], first - lo, last - lo))
    grid = key_grid(node.key, [max(len(pieces), 1)])
    if not pieces:  # empty: one chunk of no rows, from the first input chunk
        ctx.new_task(grid[0], slice_rows, Ref(t.keys[0]), 0, 0, 1)
        return Tiled(((0,),), grid)
    splits = []
    for j, (key, a, b) in enumerate(pieces):
        ctx.new_task(grid[j], slice_rows, Ref(key), a, b, step)
        splits.append(len(range(a, b, step)))
    return Tiled((tuple(splits),), grid)


def iloc_rows(frame: _Frame, rows: slice) -> Any:
    for name in ("start", "stop", "step"):
        value = getattr(rows, name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise TypeError(f"iloc: slice {name} must be an int or None, got {value!r}")
    step = 1 if rows.step is None else rows.step
    if step <= 0:
        raise ValueError(f"iloc: slice step must be positive, got {step}")
    node = frame.node
    assert isinstance(node, FrameNode)
    n = node.shape[0]
    nrows = float("nan") if math.isnan(n) else len(range(*rows.indices(int(n))))
    return new_frame(RowSlice(rows.start, rows.stop, step), [frame], nrows, node.meta)


class _ILoc:
    def __init__(self, frame: _Frame) -> None:
        self.frame = frame

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, tuple):
            rows, cols = key
            frame = iloc_rows(self.frame, rows) if rows != slice(None) else self.frame
            names = self.frame.meta.columns[cols]
            return getitem(frame, names)  # type: ignore[arg-type]
        if isinstance(key, slice):
            return iloc_rows(self.frame, key)
        raise NotImplementedError(
            f"iloc takes a row slice (and a column position or slice), got {key!r}"
        )


def _attach() -> None:
    setattr(DataFrame, "__getitem__", getitem)  # noqa: B010 - mypy does not know it
    for cls in (DataFrame, Series):
        methods: dict[str, Any] = {
            "iloc": property(_ILoc),
            "head": lambda self, n=5: iloc_rows(self, slice(None, n)),
            "tail": lambda self, n=5: iloc_rows(self, slice(-n, None) if n else slice(0, 0)),
        }
        for attr, value in methods.items():
            setattr(cls, attr, value)


_attach()
