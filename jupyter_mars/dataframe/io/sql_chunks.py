"""The ``read_sql`` operator: one task per piece, each with its own connection.

Every task opens an engine from the URL (no pool), runs its piece's ``SELECT``, gives the
columns the dtypes of the whole read (the meta, found at build time) and sets the index:
the ``index_col`` columns, or row numbers when the chunk's first row number is known (a
``LIMIT``/``OFFSET`` slice). Range pieces have unknown lengths; their rows are numbered
afterwards by ``renumber``. A slice whose length differs from the row count taken at
build time means the data changed in between, which is an error rather than a silent
misnumbering.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.io.conform import conform_dtypes
from jupyter_mars.dataframe.io.sql_connect import open_engine
from jupyter_mars.dataframe.io.sql_source import Piece, ReadPlan, Source, read_rows
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule


def finish_chunk(
    frame: pd.DataFrame, meta: pd.DataFrame, index_col: Any, start: int | None
) -> pd.DataFrame:
    """Conform the dtypes and set the index: ``index_col`` or row numbers from ``start``."""
    frame = conform_dtypes(frame, meta, "read_sql", "found when the read was planned")
    if index_col is not None:
        return frame.set_index(index_col)
    if start is not None:
        frame.index = pd.RangeIndex(start, start + len(frame))
    return frame


def read_piece(
    url: str,
    source: Source,
    plan: ReadPlan,
    piece: Piece,
    kwargs: dict[str, Any],
    meta: pd.DataFrame,
    index_col: Any,
    start: int | None,
    expected: int | None,
) -> pd.DataFrame:
    """One chunk: the piece's rows, shaped like the whole read."""
    with open_engine(url) as engine, engine.connect() as conn:
        frame = read_rows(conn, source, plan, piece, kwargs)
    if expected is not None and len(frame) != expected:
        raise RuntimeError(
            f"read_sql: a slice returned {len(frame)} rows where {expected} were counted "
            "when the read was planned; the data changed in between"
        )
    return finish_chunk(frame, meta, index_col, start)


@dataclass(frozen=True, eq=False)
class ReadSQLChunks(Op):
    """Read the pieces of a table or query, one chunk each."""

    url: str
    source: Source
    plan: ReadPlan
    pieces: tuple[Piece, ...]
    lengths: tuple[float, ...]
    """Rows per piece, ``nan`` where only the data tells (ranges of the partition column)."""
    kwargs: dict[str, Any]
    """``pandas.read_sql_query`` arguments: ``coerce_float``, ``parse_dates``, ``dtype``."""
    meta: Any
    """The columns read, index columns included, with the dtypes of the whole result."""
    index_col: Any
    row_numbers: bool
    """Number the rows from each slice's offset (only when every length is known)."""

    def label(self) -> str:
        return "read_sql"


@tile_rule(ReadSQLChunks)
def _tile_read_sql(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, ReadSQLChunks)
    grid = key_grid(node.key, [len(op.pieces)])
    start = 0
    for i, (piece, n) in enumerate(zip(op.pieces, op.lengths)):
        known = not math.isnan(n)
        first = start if op.row_numbers else None
        expected = int(n) if known else None
        args = (op.url, op.source, op.plan, piece, op.kwargs, op.meta, op.index_col)
        ctx.new_task(grid[i], read_piece, *args, first, expected)
        start += int(n) if known else 0
    return Tiled((op.lengths,), grid)
