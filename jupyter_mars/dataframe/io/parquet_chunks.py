"""Chunk kernels and operator of ``read_parquet``: one task per group of row groups.

A chunk is a list of pieces ``(file, partition expression, row group ids)``; its task
rebuilds those file fragments with pyarrow's dataset API and reads only the chosen columns
of the chosen row groups, applying the row filter, then converts the table as
``pandas.read_parquet`` does (its pandas metadata restores a stored index). When the
result's index is a ``RangeIndex``, each chunk numbers its rows from its offset, known from
the row-group metadata when there is no filter; with a filter the lengths are unknown and
``renumber`` numbers them once they are computed.
"""

from __future__ import annotations

import math
import warnings
import zlib
from dataclasses import dataclass
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.dataset as ds

from jupyter_mars.dataframe.projection import needed_columns
from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule

Piece = tuple[str, Any, tuple[int, ...]]
"""``(file path, partition expression, row group ids)``: what one fragment read covers."""


def table_to_frame(table: pa.Table) -> pd.DataFrame:
    """The pandas frame of an Arrow table, converted as ``pandas.read_parquet`` does."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "make_block is deprecated")
        return table.to_pandas()


def conform(frame: pd.DataFrame, meta: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with ``meta``'s dtypes: partition categories, ints widened by nulls."""
    differ = {c: t for c, t in meta.dtypes.items() if frame[c].dtype != t}
    return frame.astype(differ) if differ else frame


@dataclass(frozen=True)
class RangeLabels:
    """The ``RangeIndex`` the rows get: ``start + step * row``, named ``name``."""

    start: int = 0
    step: int = 1
    name: Any = None

    def number(self, frame: pd.DataFrame, offset: int) -> None:
        """Label ``frame``'s rows as rows ``offset`` on of the whole result."""
        start = self.start + self.step * offset
        stop = start + self.step * len(frame)
        frame.index = pd.RangeIndex(start, stop, self.step, name=self.name)


def read_pieces(
    pieces: tuple[Piece, ...],
    filesystem: Any,
    schema: pa.Schema,
    columns: list[str] | None,
    filter_expr: Any,
    meta: pd.DataFrame,
    labels: RangeLabels | None,
    offset: int,
) -> pd.DataFrame:
    """Read ``columns`` of the row groups in ``pieces``, keep the rows ``filter_expr`` keeps.

    ``labels`` (when the index is a range) numbers the rows from row ``offset`` of the
    whole result; otherwise the index is the one the pandas metadata stores.
    """
    fmt = ds.ParquetFileFormat()
    tables = []
    for path, partition, row_groups in pieces:
        # one fragment per row group: a fragment of several does not keep their order
        for group in row_groups:
            fragment = fmt.make_fragment(
                path, filesystem, partition_expression=partition, row_groups=[group]
            )
            table = fragment.to_table(schema=schema, columns=columns, filter=filter_expr)
            tables.append(table)
    if not tables:
        frame = meta.copy()
    else:
        table = tables[0] if len(tables) == 1 else pa.concat_tables(tables)
        frame = conform(table_to_frame(table.replace_schema_metadata(schema.metadata)), meta)
    if labels is not None:
        labels.number(frame, offset)
    return frame


@dataclass(frozen=True, eq=False)
class ReadParquetChunks(Op):
    """Read Parquet row groups: each chunk a group of pieces, read by one task."""

    chunks: tuple[tuple[Piece, ...], ...]
    rows: tuple[float, ...]
    """Rows per chunk from the row-group metadata; ``nan`` with a filter."""
    filesystem: Any
    schema: Any
    """The dataset's Arrow schema (with its pandas metadata) every piece is read as."""
    columns: tuple[str, ...] | None
    """The columns asked of pyarrow (with the stored index columns); None for all."""
    filter_expr: Any
    meta: Any
    labels: RangeLabels | None
    """How rows are numbered when the index is a range and the offsets are known."""

    def label(self) -> str:
        return "read_parquet"


@tile_rule(ReadParquetChunks)
def _tile_read(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, ReadParquetChunks)
    known = not any(math.isnan(n) for n in op.rows)
    starts = offsets(op.rows) if known else [0] * len(op.rows)
    columns = None if op.columns is None else list(op.columns)
    meta = op.meta
    needed = needed_columns(node, ctx)
    if needed is None:
        grid = key_grid(node.key, [len(op.chunks)])
    else:
        # nothing downstream reads the other columns: they are not read at all (the
        # stored index columns, outside the meta's columns, still are)
        every = list(op.schema.names) if columns is None else columns
        columns = [c for c in every if c in needed or c not in meta.columns]
        meta = meta[needed]
        tag = zlib.crc32(repr(needed).encode())
        grid = key_grid(f"{node.key}-c{tag:x}", [len(op.chunks)])
    for i, pieces in enumerate(op.chunks):
        ctx.new_task(
            grid[i], read_pieces, pieces, op.filesystem, op.schema, columns,
            op.filter_expr, meta, op.labels, int(starts[i]),
        )  # fmt: skip
    return Tiled((op.rows,), grid)
