"""Chunk kernels of ``to_sql``: column types, staging tables, and the one-transaction commit.

Every chunk is written by its own task into its own staging table (``pandas.to_sql`` into
a new table named after the write's token and the chunk number), so writers run in
parallel without sharing a table. The commit task then, in a single transaction, drops
the target (``replace``) or checks it is still absent (``fail``), creates it from the
frame's meta as pandas would, copies the staging tables into it in chunk order with
``INSERT ... SELECT``, and finally the staging tables are dropped whatever happened. A
writer's error is returned to the commit, which raises it after the clean-up.

Every staging table, and the target, must get the column types pandas would choose for
the whole frame. For typed columns those follow from the dtypes; an object column's type
depends on the values (``infer_dtype``), so each chunk reports its object columns' kinds
(``object_kinds``) and ``column_types`` combines them: one kind throughout (ignoring
empty chunks) keeps it, different kinds mean mixed values, written as text.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

import pandas as pd

from jupyter_mars.dataframe.io.lazy_module import LazyModule
from jupyter_mars.dataframe.io.sql_connect import open_engine

if TYPE_CHECKING:
    import sqlalchemy as sa
else:  # SQLAlchemy loads with the first SQL call, not with md
    sa = LazyModule("sqlalchemy")

Status = tuple[int, BaseException | None]
"""``(rows written, error)`` of one staging table."""


def object_kinds(chunk: pd.DataFrame, columns: list[Any]) -> dict[Any, str]:
    """``infer_dtype`` (NULLs skipped) of each of ``columns``, index levels included."""
    if not columns:
        return {}
    flat = chunk.reset_index()
    return {c: pd.api.types.infer_dtype(flat[c], skipna=True) for c in columns}


def _kind_type(kind: str) -> Any:
    """The SQLAlchemy type pandas writes an object column of this inferred kind as."""
    types = {
        "datetime64": sa.DateTime,
        "datetime": sa.DateTime,
        "floating": sa.Float(precision=53),
        "integer": sa.BigInteger,
        "boolean": sa.Boolean,
        "date": sa.Date,
        "time": sa.Time,
    }
    return types.get(kind, sa.Text)


def column_types(
    fixed: dict[Any, Any], columns: list[Any], *kinds: dict[Any, str]
) -> dict[Any, Any]:
    """``fixed`` plus the type of each object column from every chunk's kinds."""
    out = dict(fixed)
    for c in columns:
        found = {k[c] for k in kinds} - {"empty"}
        out[c] = _kind_type(found.pop()) if len(found) == 1 else sa.Text
    return out


def write_stage(
    chunk: pd.DataFrame,
    url: str,
    schema: str | None,
    stage: str,
    types: dict[Any, Any],
    index: bool,
    labels: list[Any] | None,
    options: dict[str, Any],
    after: Any = None,
) -> Status:
    """Write one chunk to its own new staging table; an error is returned, not raised.

    ``after`` is the status of a writer that must finish first (SQLite), unused here.
    """
    try:
        frame = chunk
        if index:
            frame = chunk.rename_axis(labels)
        with open_engine(url) as engine, engine.begin() as conn:
            frame.to_sql(stage, conn, schema=schema, index=index, dtype=types, **options)
    except Exception as exc:  # raised by the commit, after every staging table is dropped
        return (0, exc)
    return (len(chunk), None)


def drop_tables(url: str, schema: str | None, names: list[str]) -> None:
    """Drop the tables that exist among ``names``."""
    with open_engine(url) as engine, engine.begin() as conn:
        for name in names:
            sa.Table(name, sa.MetaData(), schema=schema).drop(conn, checkfirst=True)


def _copy(conn: Any, schema: str | None, source: str, target: str, columns: list[Any]) -> None:
    names = [str(c) for c in columns]
    tgt = sa.table(target, *[sa.column(c) for c in names], schema=schema)
    src = sa.table(source, *[sa.column(c) for c in names], schema=schema)
    conn.execute(sa.insert(tgt).from_select(names, sa.select(*src.c)))


def commit_stages(
    statuses: list[Status],
    url: str,
    schema: str | None,
    name: str,
    if_exists: str,
    stages: list[str],
    types: dict[Any, Any],
    meta: pd.DataFrame,
    index: bool,
) -> pd.DataFrame:
    """Move the staged rows into ``name`` in one transaction, or raise the first error.

    ``meta`` is the frame's meta with the index named by its column labels. Returns the
    number of rows written, as a one-row frame.
    """
    errors = [err for _, err in statuses if err is not None]
    columns = [*(meta.index.names if index else []), *meta.columns]
    try:
        if errors:
            raise errors[0]
        with open_engine(url, transactional_ddl=True) as engine, engine.begin() as conn:
            exists = sa.inspect(conn).has_table(name, schema=schema)
            if exists and if_exists == "fail":
                raise ValueError(f"Table '{name}' already exists.")
            if exists and if_exists == "replace":
                sa.Table(name, sa.MetaData(), schema=schema).drop(conn)
            if not exists or if_exists == "replace":
                meta.to_sql(name, conn, schema=schema, index=index, dtype=types)
            for stage in stages:
                _copy(conn, schema, stage, name, columns)
    finally:
        with contextlib.suppress(sa.exc.SQLAlchemyError):
            drop_tables(url, schema, stages)
    return pd.DataFrame({"rows": [sum(n for n, _ in statuses)]})
