"""Chunk kernels and operators of ``read_csv``: byte ranges cut at line boundaries.

A file is split into byte ranges; each range is widened to whole lines (a range starts
just after the first newline at or after its start offset, except the first range of a
file, which starts where the data begins, and ends just after the first newline at or
after its end offset), so every line belongs to exactly one chunk. Each chunk parses its
lines with ``pandas.read_csv`` with the file's column names; its row count is unknown until
parsed, so a second operator renumbers the rows into one ``RangeIndex`` once the lengths
are known.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.io.conform import conform_dtypes
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule

_BLOCK = 1 << 16


def line_end(f: Any, pos: int, size: int) -> int:
    """The offset just past the first newline at or after ``pos`` (``size`` if none)."""
    if pos >= size:
        return size
    f.seek(pos)
    while True:
        block: bytes = f.read(_BLOCK)
        if not block:
            return size
        i: int = block.find(b"\n")
        if i >= 0:
            return pos + i + 1
        pos += len(block)


FIRST_FILE = "inferred from the start of the first file"


def conform(frame: pd.DataFrame, meta: pd.DataFrame, where: str) -> pd.DataFrame:
    """``frame`` with ``meta``'s columns and dtypes, or an error saying to pass ``dtype=``."""
    if list(frame.columns) != list(meta.columns):
        raise ValueError(
            f"{where}: parsed columns {list(frame.columns)} differ from the expected "
            f"{list(meta.columns)}"
        )
    return conform_dtypes(frame, meta, where, FIRST_FILE)


def owned_range(f: Any, start: int, stop: int, first: bool) -> tuple[int, int]:
    """The bytes of the open file ``f`` that the range ``[start, stop)`` owns: from the
    first line starting in it (from ``start`` itself for a file's first range) to the end
    of the line that ``stop`` falls in."""
    size = f.seek(0, io.SEEK_END)
    begin = start if first else line_end(f, start, size)
    end = line_end(f, stop, size) if stop < size else size
    return begin, end


def read_range(
    path: str,
    start: int,
    stop: int,
    first: bool,
    names: list[Any],
    kwargs: dict[str, Any],
    meta: Any,
) -> Any:
    """Parse the whole lines of ``path`` that the byte range ``[start, stop)`` owns."""
    with open(path, "rb") as f:
        begin, end = owned_range(f, start, stop, first)
        if begin >= end:
            return meta.copy()
        f.seek(begin)
        # parsed as it is read: copying a range of tens of MiB into one buffer first
        # costs a quarter of the parse (fresh pages), and the parser reads in pieces
        stream = io.BufferedReader(ByteRange(f, end - begin))
        try:
            frame = pd.read_csv(stream, header=None, names=names, **kwargs)
        except pd.errors.EmptyDataError:  # only blank lines
            return meta.copy()
    return conform(frame, meta, "read_csv")


class ByteRange(io.RawIOBase):
    """The next ``size`` bytes of the binary file ``f``, as a stream of their own."""

    def __init__(self, f: Any, size: int) -> None:
        super().__init__()
        self._f = f
        self._left = size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = min(len(buffer), self._left)
        if n <= 0:
            return 0
        got = self._f.readinto(memoryview(buffer)[:n])
        self._left -= got
        return int(got)


def read_head(
    files: list[tuple[str, int]],
    nrows: int,
    names: list[Any],
    kwargs: dict[str, Any],
    meta: Any,
) -> Any:
    """The first ``nrows`` data rows over ``files`` (each ``(path, data start)``), in order."""
    parts = []
    left = nrows
    for path, begin in files:
        if left <= 0:
            break
        with open(path, "rb") as f:
            f.seek(begin)
            data = f.read()
        if not data.strip():
            continue
        frame = pd.read_csv(io.BytesIO(data), header=None, names=names, nrows=left, **kwargs)
        parts.append(conform(frame, meta, "read_csv"))
        left -= len(frame)
    if not parts:
        return meta.copy()
    return pd.concat(parts, ignore_index=True)


@dataclass(frozen=True, eq=False)
class ReadCSVChunks(Op):
    """Parse byte ranges of CSV files; each chunk keeps its own 0-based row numbers."""

    ranges: tuple[tuple[str, int, int, bool], ...]
    """``(path, start, stop, first range of its file)`` per chunk."""
    names: tuple[Any, ...]
    kwargs: dict[str, Any]
    meta: Any
    nrows: int | None = None
    """With ``nrows``, one chunk reads the first rows of the files in order."""

    def label(self) -> str:
        return "read_csv"


@tile_rule(ReadCSVChunks)
def _tile_read(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, ReadCSVChunks)
    names = list(op.names)
    if op.nrows is not None:
        grid = key_grid(node.key, [1])
        files = [(path, start) for path, start, _, first in op.ranges if first]
        ctx.new_task(grid[0], read_head, files, op.nrows, names, op.kwargs, op.meta)
        return Tiled(((math.nan,),), grid)
    grid = key_grid(node.key, [len(op.ranges)])
    for i, (path, start, stop, first) in enumerate(op.ranges):
        ctx.new_task(grid[i], read_range, path, start, stop, first, names, op.kwargs, op.meta)
    return Tiled(((math.nan,) * len(op.ranges),), grid)
