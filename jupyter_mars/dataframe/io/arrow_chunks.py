"""Chunk kernel and operator of the Arrow file readers: ``read_feather`` and ``read_orc``.

A file is a list of blocks (Feather's record batches, ORC's stripes). A chunk is a list of
pieces ``(block, first row, end row)`` (``end`` None: to the block's end), so a chunk may
take several small blocks or a slice of a big one; its task reads those blocks with only
the chosen columns and converts them as pandas' readers do (``arrow_to_frame``). When the
blocks' row counts are known (Feather), each chunk numbers its rows from its offset, as
the index the pandas metadata describes; otherwise (ORC) ``renumber`` numbers them once
they are read.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pandas as pd
import pyarrow as pa

from jupyter_mars.dataframe.io.parquet_chunks import RangeLabels
from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule

try:  # pandas' own conversion of its Arrow readers (time zones, string and backend dtypes)
    from pandas.io._util import arrow_table_to_pandas
except ImportError:  # pragma: no cover - a pandas without it converts as pyarrow does
    arrow_table_to_pandas = None

Piece = tuple[int, int, int | None]
"""``(block, first row, end row or None)``: the rows of one block a chunk reads."""


def arrow_to_frame(table: pa.Table, dtype_backend: str | None) -> pd.DataFrame:
    """The frame pandas' Arrow readers make of ``table`` (its pandas metadata restores
    the stored index); ``dtype_backend`` as theirs (None: not given)."""
    if arrow_table_to_pandas is None:
        mapper = pd.ArrowDtype if dtype_backend == "pyarrow" else None
        return table.to_pandas(types_mapper=mapper)
    if dtype_backend is None:
        return arrow_table_to_pandas(table)
    return arrow_table_to_pandas(table, dtype_backend=dtype_backend)


def plan_pieces(rows: list[int], chunk_size: int | None) -> list[tuple[Piece, ...]]:
    """Chunks of the blocks of ``rows`` rows each: a block per chunk, or, with
    ``chunk_size``, ``chunk_size`` rows per chunk (the last one fewer).

    >>> plan_pieces([3, 1], None)
    [((0, 0, None),), ((1, 0, None),)]
    >>> plan_pieces([3, 1], 2)
    [((0, 0, 2),), ((0, 2, 3), (1, 0, 1))]
    """
    if chunk_size is None:
        return [((block, 0, None),) for block in range(len(rows))] or [()]
    chunks: list[tuple[Piece, ...]] = []
    current: list[Piece] = []
    room = chunk_size
    for block, n in enumerate(rows):
        first = 0
        while first < n:
            take = min(room, n - first)
            current.append((block, first, first + take))
            first += take
            room -= take
            if room == 0:
                chunks.append(tuple(current))
                current, room = [], chunk_size
    if current or not chunks:
        chunks.append(tuple(current))
    return chunks


def read_pieces(
    read_block: Callable[[Any, int, list[Any] | None], Any],
    path: str,
    pieces: tuple[Piece, ...],
    columns: list[Any] | None,
    schema: pa.Schema,
    dtype_backend: str | None,
    labels: RangeLabels | None,
    offset: int,
) -> pd.DataFrame:
    """The rows ``pieces`` of ``path`` name, of ``columns``, as pandas converts them;
    ``labels`` numbers them from row ``offset`` of the whole result."""
    batches = []
    with pa.OSFile(path) as source:
        for block, first, end in pieces:
            batch = read_block(source, block, columns)
            stop = batch.num_rows if end is None else end
            batches.append(batch.slice(first, stop - first))
    empty = schema.empty_table()
    table = pa.Table.from_batches(batches, schema=batches[0].schema) if batches else empty
    table = table.replace_schema_metadata(schema.metadata)
    frame = arrow_to_frame(table, dtype_backend)
    if labels is not None:
        labels.number(frame, offset)
    return frame


@dataclass(frozen=True, eq=False)
class ReadArrowChunks(Op):
    """Read blocks of an Arrow file (Feather, ORC): each chunk a tuple of pieces."""

    reader: str
    """``read_feather`` or ``read_orc``: the chunks' label."""
    read_block: Callable[[Any, int, list[Any] | None], Any]
    """``read_block(open file, block, columns)``: one record batch of the file."""
    path: str
    chunks: tuple[tuple[Piece, ...], ...]
    rows: tuple[float, ...]
    """Rows per chunk; ``nan`` where the blocks' counts are not known before reading."""
    columns: tuple[Any, ...] | None
    schema: Any
    """The Arrow schema of what is read: the chosen columns, the pandas metadata."""
    dtype_backend: str | None
    labels: RangeLabels | None
    """How rows are numbered when the index is a range and the offsets are known."""

    def label(self) -> str:
        return self.reader


@tile_rule(ReadArrowChunks)
def _tile_read(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, ReadArrowChunks)
    known = not any(math.isnan(n) for n in op.rows)
    starts = offsets(op.rows) if known else [0] * len(op.rows)
    columns = None if op.columns is None else list(op.columns)
    grid = key_grid(node.key, [len(op.chunks)])
    for i, pieces in enumerate(op.chunks):
        ctx.new_task(
            grid[i], read_pieces, op.read_block, op.path, pieces, columns, op.schema,
            op.dtype_backend, op.labels, int(starts[i]),
        )  # fmt: skip
    return Tiled((op.rows,), grid)
