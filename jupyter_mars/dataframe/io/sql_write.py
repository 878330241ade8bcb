"""``DataFrame.to_sql``: write chunks in parallel to staging tables, then commit at once.

The build step checks the arguments as pandas does (``if_exists="fail"`` on an existing
table is a ValueError naming it; the column types are checked by building the table's
``CREATE TABLE`` with ``pandas.io.sql.get_schema``). The tile rule adds one writer task
per chunk, each filling its own staging table, and one commit task that copies them into
the target in a single transaction (see ``sql_stage``). The writers start once every chunk
is computed (they wait for the column types, which need every chunk's object columns), so
a chunk that fails stops the write before anything is written. A failed write, or a commit that
fails, leaves the target as it was (absent, or unchanged for ``append``/``replace``), and
the staging tables are dropped: by the commit, or by ``to_sql`` itself when a chunk
failed before its writer ran.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.core import DataFrame, Series
from jupyter_mars.dataframe.io.lazy_module import LazyModule
from jupyter_mars.dataframe.io.sql_connect import connection_url, open_engine
from jupyter_mars.dataframe.io.sql_stage import (
    column_types,
    commit_stages,
    drop_tables,
    object_kinds,
    write_stage,
)
from jupyter_mars.dataframe.io.written import WrittenRows
from jupyter_mars.dataframe.node import FrameNode
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule

if TYPE_CHECKING:
    import sqlalchemy as sa
else:  # SQLAlchemy loads with the first SQL call, not with md
    sa = LazyModule("sqlalchemy")

STAGE_PREFIX = "_mars_stage_"
"""Staging tables are named ``STAGE_PREFIX + token + _ + chunk number``."""

IF_EXISTS = ("fail", "replace", "append")


@dataclass(frozen=True, eq=False)
class ToSQL(Op):
    """A sink: write the input frame to the table ``name``."""

    url: str
    name: str
    schema: str | None
    if_exists: str
    token: str
    """Unique to this write; part of every staging table's name."""
    index: bool
    meta: Any
    """The frame's meta, its index levels named by their column labels."""
    fixed_types: dict[Any, Any]
    """Column types given by ``dtype=``."""
    object_columns: list[Any]
    """Object columns (index levels included) whose type depends on the values."""
    options: dict[str, Any]
    """``chunksize`` and ``method`` of ``pandas.DataFrame.to_sql``."""

    def label(self) -> str:
        return "to_sql"

    def stage(self, i: int) -> str:
        return f"{STAGE_PREFIX}{self.token}_{i}"


@tile_rule(ToSQL)
def _tile_to_sql(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, ToSQL)
    (t,) = inputs
    n = t.numblocks[0]
    suffix = node.key.split("-", 1)[1]
    # every writer waits for the column types, which wait for every chunk: a chunk that
    # fails stops the write before any staging table exists
    kinds = key_grid(f"to_sql_kinds-{suffix}", [n])
    for i in range(n):
        ctx.new_task(kinds[i], object_kinds, Ref(t.keys[i]), op.object_columns)
    types_key = key_grid(f"to_sql_types-{suffix}", [1])[0]
    refs = [Ref(k) for k in kinds]
    ctx.new_task(types_key, column_types, op.fixed_types, op.object_columns, *refs)
    types = Ref(types_key)
    labels = list(op.meta.index.names) if op.index else None
    writers = key_grid(f"to_sql_chunk-{suffix}", [n])
    # SQLite has one writer at a time: parallel writers would only wait on its lock
    one_at_a_time = sa.engine.make_url(op.url).get_backend_name() == "sqlite"
    for i in range(n):
        after = Ref(writers[i - 1]) if one_at_a_time and i else None
        ctx.new_task(
            writers[i], write_stage, Ref(t.keys[i]), op.url, op.schema, op.stage(i), types,
            op.index, labels, op.options, after,
        )  # fmt: skip
    grid = key_grid(node.key, [1])
    stages = [op.stage(i) for i in range(n)]
    ctx.new_task(
        grid[0], commit_stages, [Ref(k) for k in writers], op.url, op.schema, op.name,
        op.if_exists, stages, types, op.meta, op.index,
    )  # fmt: skip
    return Tiled(((1,),), grid)


def index_labels(frame: pd.DataFrame, index_label: Any) -> list[Any]:
    """The column names of the index levels, chosen as pandas does."""
    nlevels = frame.index.nlevels
    if index_label is not None:
        labels = index_label if isinstance(index_label, list) else [index_label]
        if len(labels) != nlevels:
            raise ValueError(
                f"Length of 'index_label' should match number of levels, which is {nlevels}"
            )
        return labels
    if nlevels == 1 and "index" not in frame.columns and frame.index.name is None:
        return ["index"]
    return [f"level_{i}" if n is None else n for i, n in enumerate(frame.index.names)]


def _fixed_types(dtype: Any, columns: list[Any]) -> dict[Any, Any]:
    if dtype is None:
        return {}
    return dict(dtype) if isinstance(dtype, dict) else {c: dtype for c in columns}


def to_sql(
    df: Any,
    name: str,
    con: Any,
    schema: str | None = None,
    if_exists: str = "fail",
    index: bool = True,
    index_label: Any = None,
    chunksize: int | None = None,
    dtype: Any = None,
    method: str | None = None,
    session: Any = None,
) -> int:
    """Write the frame to a database table, like ``pandas.DataFrame.to_sql``, atomically.

    ``con`` is a SQLAlchemy URL string or an Engine. Chunks are written in parallel to
    staging tables, which one transaction copies into ``name`` once all are written: the
    table never holds part of the frame, and a failure leaves it as it was (see the
    module docstring). ``chunksize`` and ``method`` are passed to each chunk's
    ``pandas.DataFrame.to_sql``. Returns the number of rows written.
    """
    if not isinstance(df, DataFrame):
        raise TypeError(f"to_sql writes a DataFrame, got {type(df).__name__}")
    if not isinstance(name, str) or not name:
        raise ValueError(f"name must be a non-empty table name, got {name!r}")
    if if_exists not in IF_EXISTS:
        raise ValueError(f"'{if_exists}' is not valid for if_exists")
    if not isinstance(index, bool):
        raise TypeError(f"index must be True or False, got {index!r}")
    if method not in (None, "multi"):
        raise NotImplementedError(f"method={method!r}: only None and 'multi' are supported")
    url = connection_url(con)
    meta = df.meta
    if index:
        meta = meta.rename_axis(index_labels(meta, index_label))
    flat = meta.reset_index() if index else meta
    fixed = _fixed_types(dtype, list(flat.columns))
    with open_engine(url) as engine:
        pd.io.sql.get_schema(flat, name, con=engine, schema=schema, dtype=fixed or None)
        with engine.connect() as conn:
            exists = sa.inspect(conn).has_table(name, schema=schema)
    if exists and if_exists == "fail":
        raise ValueError(f"Table '{name}' already exists.")
    objects = [c for c, t in flat.dtypes.items() if t == np.dtype(object) and c not in fixed]
    options = {"chunksize": chunksize, "method": method}
    token = uuid.uuid4().hex[:16]
    op = ToSQL(url, name, schema, if_exists, token, index, meta, fixed, objects, options)
    written_meta = pd.DataFrame({"rows": pd.Series([], dtype="int64")})
    sink = DataFrame(FrameNode(op, [df.node], 1, written_meta))
    try:
        written = sink.to_pandas(session=session)
    finally:
        # a writer whose chunk failed never ran: drop what the others staged
        with open_engine(url) as engine, engine.connect() as conn:
            left = [
                t
                for t in sa.inspect(conn).get_table_names(schema=schema)
                if t.startswith(f"{STAGE_PREFIX}{token}_")
            ]
        if left:
            drop_tables(url, schema, left)
    return WrittenRows(int(written["rows"].iloc[0]))


def _frame_to_sql(self: Any, name: str, con: Any, **kwargs: Any) -> int:
    return to_sql(self, name, con, **kwargs)


_frame_to_sql.__doc__ = to_sql.__doc__


def _series_to_sql(self: Any, name: str, con: Any, **kwargs: Any) -> int:
    """Write the Series to a database table as pandas does: as its one-column frame."""
    return to_sql(self.to_frame(), name, con, **kwargs)


def _attach() -> None:
    setattr(DataFrame, "to_sql", _frame_to_sql)  # noqa: B010
    setattr(Series, "to_sql", _series_to_sql)  # noqa: B010


_attach()
