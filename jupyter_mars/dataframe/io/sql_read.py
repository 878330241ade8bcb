"""``read_sql_table``, ``read_sql_query``, ``read_sql``: lazy frames over a database.

At build time one connection plans the read: it finds the columns (reflection for a table,
the query run with ``LIMIT 0`` for a query), counts the rows and the non-NULL values of
every column and takes MIN/MAX of the partition column in one aggregate query, and reads a
sample of ``SAMPLE_ROWS`` rows. The sample's dtypes, corrected with the NULL counts (an
integer column with NULLs anywhere is float64 in pandas, a boolean one object; a column
NULL throughout the sample is sampled again over its non-NULL rows), are the dtypes of the
whole result, so every chunk is cast to them and the lazy frame knows them up front.

The rows are split into pieces, one task each (see ``sql_source``):

- ``partition_col`` (numeric or datetime): ``num_partitions`` equal ranges between its
  MIN and MAX, ``lo <= col < hi`` and the last ``<= hi``, plus one piece for its NULLs.
  The chunks come range after range, the rows of a range in the database's order.
- otherwise ``LIMIT``/``OFFSET`` slices of ``chunk_size`` rows (or ``num_partitions``
  slices) in a fixed order. A table is sliced in the order of a plain scan (SQLite
  ``rowid``, PostgreSQL ``ctid``), which is the order pandas reads it in, else (views,
  other databases) by ``index_col`` or its primary key; with none of these it is read in
  one chunk. A query is sliced in ``index_col`` order, or as it is written when
  ``chunk_size`` or ``num_partitions`` is given (give it an ``ORDER BY`` for the slices to
  be stable), and read in one chunk otherwise. Slices know their lengths
  from the row count; each ``OFFSET`` makes the database skip rows, so for large tables a
  ``partition_col`` (with an index on it) reads faster.
"""

from __future__ import annotations

import datetime as dt
import decimal
import math
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.chunks import row_splits
from jupyter_mars.dataframe.core import DataFrame
from jupyter_mars.dataframe.io.lazy_module import LazyModule
from jupyter_mars.dataframe.io.sql_chunks import ReadSQLChunks
from jupyter_mars.dataframe.io.sql_connect import connection_url, open_engine
from jupyter_mars.dataframe.io.sql_source import (
    PHYSICAL_ORDER,
    Piece,
    QuerySource,
    ReadPlan,
    Source,
    TableSource,
    read_rows,
)
from jupyter_mars.dataframe.node import FrameNode
from jupyter_mars.dataframe.renumber import renumber

if TYPE_CHECKING:
    import sqlalchemy as sa
else:  # SQLAlchemy loads with the first SQL call, not with md
    sa = LazyModule("sqlalchemy")

SAMPLE_ROWS = 1000
"""Rows read at build time to find the dtypes."""


def _names(value: Any) -> list[Any]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def _check_layout(num_partitions: Any, chunk_size: Any) -> None:
    if num_partitions is not None:
        if isinstance(num_partitions, bool) or not isinstance(num_partitions, int):
            raise TypeError(f"num_partitions must be an int, got {num_partitions!r}")
        if num_partitions <= 0:
            raise ValueError(f"num_partitions must be positive, got {num_partitions}")
        if chunk_size is not None:
            raise ValueError("pass num_partitions or chunk_size, not both")
    if chunk_size is not None:
        row_splits(1, chunk_size, 1)  # validates it


def _check_names(wanted: list[Any], available: list[str], what: str) -> None:
    for name in wanted:
        if name not in available:
            raise KeyError(f"{what}: no column {name!r}; the columns are {available}")


def _kwargs_for(kwargs: dict[str, Any], columns: tuple[str, ...]) -> dict[str, Any]:
    dtype = kwargs.get("dtype")
    if isinstance(dtype, dict):
        return {**kwargs, "dtype": {c: t for c, t in dtype.items() if c in columns}}
    return kwargs


def _stats(conn: Any, source: Source, partition_col: str | None) -> dict[str, Any]:
    """Rows, non-NULL counts per column and the partition column's MIN/MAX, in one query."""
    src = source.from_clause()
    exprs: list[Any] = [sa.func.count()] + [sa.func.count(src.c[c]) for c in source.columns]
    if partition_col is not None:
        col = src.c[partition_col]
        exprs += [sa.func.min(col), sa.func.max(col), sa.func.count(col)]
    row = conn.execute(sa.select(*exprs).select_from(src)).one()
    n = len(source.columns)
    stats = {"rows": int(row[0]), "nonnull": dict(zip(source.columns, row[1 : n + 1]))}
    if partition_col is not None:
        stats.update(lo=row[n + 1], hi=row[n + 2], count=int(row[n + 3]))
    return stats


def whole_meta(
    conn: Any, source: Source, stats: dict[str, Any], kwargs: dict[str, Any]
) -> tuple[pd.DataFrame, int]:
    """The dtypes of the whole result as an empty frame, and the sample's bytes per row."""
    plan = ReadPlan(None, ())
    sample = read_rows(conn, source, plan, Piece(limit=SAMPLE_ROWS), kwargs)
    fixed = kwargs.get("dtype")
    dtypes = {}
    for c in source.columns:
        dtype = sample[c].dtype
        nonnull = int(stats["nonnull"][c])
        if fixed is not None and (not isinstance(fixed, dict) or c in fixed):
            dtypes[c] = dtype
            continue
        if nonnull and not sample[c].notna().any():
            one = source.with_columns((c,))
            piece = Piece(limit=SAMPLE_ROWS, not_null=c)
            dtype = read_rows(conn, one, plan, piece, _kwargs_for(kwargs, (c,)))[c].dtype
        if nonnull < stats["rows"] and dtype.kind in "iub":
            dtype = np.dtype(np.float64) if dtype.kind in "iu" else np.dtype(object)
        dtypes[c] = dtype
    row_bytes = int(sample.memory_usage(deep=True).sum()) // max(len(sample), 1)
    return sample.iloc[:0].astype(dtypes), max(row_bytes, 1)


def _parse_bound(value: Any, name: str) -> Any:
    if isinstance(value, str):  # SQLite keeps datetimes as text
        try:
            return dt.datetime.fromisoformat(value)
        except ValueError:
            pass
    if isinstance(value, bool) or not isinstance(
        value, (int, float, decimal.Decimal, dt.datetime, dt.date)
    ):
        raise TypeError(
            f"partition_col {name!r} must be a numeric or datetime column, "
            f"got values of type {type(value).__name__}"
        )
    return value


def partition_bounds(lo: Any, hi: Any, n: int, name: str) -> list[Any]:
    """``n + 1`` ascending bounds from ``lo`` to ``hi`` (both included) of ``n`` ranges."""
    lo, hi = _parse_bound(lo, name), _parse_bound(hi, name)
    if isinstance(lo, int) and isinstance(hi, int):
        inner = [lo + (hi - lo) * i // n for i in range(1, n)]
    elif isinstance(lo, (dt.date, dt.datetime)):
        inner = [lo + (hi - lo) * i // n for i in range(1, n)]
    else:
        inner = [lo + (hi - lo) * i / n for i in range(1, n)]
    return [lo, *inner, hi]


def _even(rows: int, n: int) -> tuple[int, ...]:
    return tuple(rows // n + (1 if i < rows % n else 0) for i in range(n))


def plan_pieces(
    stats: dict[str, Any],
    plan: ReadPlan,
    sliceable: bool,
    num_partitions: int | None,
    chunk_size: Any,
    row_bytes: int,
) -> tuple[tuple[Piece, ...], tuple[float, ...]]:
    """The pieces of a read and their lengths (``nan`` for ranges)."""
    rows = stats["rows"]
    if plan.partition_col is not None and stats["count"]:
        count = stats["count"]
        n = num_partitions or len(row_splits(count, chunk_size, row_bytes))
        bounds = partition_bounds(stats["lo"], stats["hi"], n, plan.partition_col)
        ranges = [Piece(lo=bounds[i], hi=bounds[i + 1], last=i == n - 1) for i in range(n)]
        if count < rows:
            ranges.append(Piece(nulls=True))
        return tuple(ranges), (math.nan,) * len(ranges)
    if num_partitions is not None:
        splits = _even(rows, num_partitions)
    elif chunk_size is not None or (sliceable and plan.order):
        splits = row_splits(rows, chunk_size, row_bytes)
    else:
        splits = (rows,)
    if len(splits) == 1 or not sliceable:
        return (Piece(),), (float(rows),)
    starts = np.cumsum((0,) + splits[:-1])
    pieces = tuple(Piece(offset=int(s), limit=n) for s, n in zip(starts, splits))
    return pieces, tuple(float(n) for n in splits)


def plan_read(
    conn: Any,
    url: str,
    source: Source,
    plan: ReadPlan,
    sliceable: bool,
    index_col: Any,
    kwargs: dict[str, Any],
    num_partitions: int | None,
    chunk_size: Any,
) -> Any:
    """The lazy frame of a read, planned over ``conn``."""
    stats = _stats(conn, source, plan.partition_col)
    meta, row_bytes = whole_meta(conn, source, stats, kwargs)
    result_meta = meta.set_index(index_col) if index_col is not None else meta
    pieces, lengths = plan_pieces(stats, plan, sliceable, num_partitions, chunk_size, row_bytes)
    known = not any(math.isnan(n) for n in lengths)
    op = ReadSQLChunks(
        url, source, plan, pieces, lengths, kwargs, meta, index_col, known and index_col is None
    )
    node = FrameNode(op, [], stats["rows"] if known else math.nan, result_meta)
    if index_col is None and not known:
        return renumber(node, result_meta)
    return DataFrame(node)


def _reflect(conn: Any, name: str, schema: str | None) -> sa.Table:
    if not isinstance(name, str):
        raise TypeError(f"table_name must be a str, got {type(name).__name__}")
    try:
        return sa.Table(name, sa.MetaData(), autoload_with=conn, schema=schema)
    except sa.exc.NoSuchTableError:
        raise ValueError(f"Table {name} not found") from None


def _scan_order(engine: Any, table: sa.Table) -> tuple[tuple[str, ...], bool]:
    """The order of a plain scan of ``table`` (physical), else its primary key, else none."""
    expr = PHYSICAL_ORDER.get(engine.dialect.name)
    if expr is not None:
        probe: Any = sa.select(sa.literal_column(expr)).select_from(table).limit(0)
        try:
            with engine.connect() as conn:
                conn.execute(probe)
            return (expr,), True
        except sa.exc.DBAPIError:
            pass  # a view, or a table without row ids
    return tuple(c.name for c in table.primary_key.columns), False


def read_sql_table(
    table_name: str,
    con: Any,
    schema: str | None = None,
    index_col: Any = None,
    coerce_float: bool = True,
    parse_dates: Any = None,
    columns: Any = None,
    partition_col: str | None = None,
    num_partitions: int | None = None,
    chunk_size: Any = None,
) -> Any:
    """A lazy DataFrame of a database table, like ``pandas.read_sql_table``.

    ``con`` is a SQLAlchemy URL string or an Engine (only its URL is kept: every task
    connects on its own). ``columns`` selects the columns read (``index_col`` ones come
    first, as in pandas). The rows are read in chunks, in parallel: by ranges of
    ``partition_col`` (``num_partitions`` of them, or as many as ``chunk_size`` rows per
    range on average), or by ``LIMIT``/``OFFSET`` slices of ``chunk_size`` rows in the order
    of ``index_col`` or of a plain scan of the table. See the module docstring.
    """
    _check_layout(num_partitions, chunk_size)
    url = connection_url(con)
    index = _names(index_col)
    with open_engine(url) as engine, engine.connect() as conn:
        table = _reflect(conn, table_name, schema)
        names = [c.name for c in table.columns]
        _check_names(index, names, "index_col")
        _check_names(_names(columns), names, "columns")
        _check_names(_names(partition_col), names, "partition_col")
        selected = names if columns is None else index + _names(columns)
        types = tuple((c.name, c.type) for c in table.columns)
        source = TableSource(table_name, schema, types, tuple(selected))
        order, physical = _scan_order(engine, table)
        if not physical and index:
            order = tuple(index)
        plan = ReadPlan(partition_col, order, physical)
        kwargs = {"coerce_float": coerce_float, "parse_dates": parse_dates}
        return plan_read(
            conn, url, source, plan, bool(order), index_col, kwargs, num_partitions, chunk_size
        )


def _result_columns(conn: Any, sql: str, params: dict[str, Any]) -> tuple[str, ...]:
    probe: Any = sa.text(f"SELECT * FROM ({sql}) AS q LIMIT 0").bindparams(**params)
    names = tuple(conn.execute(probe).keys())
    if len(set(names)) != len(names):
        raise ValueError(f"sql: the query returns duplicate column names {list(names)}")
    return names


def read_sql_query(
    sql: str,
    con: Any,
    index_col: Any = None,
    coerce_float: bool = True,
    params: dict[str, Any] | None = None,
    parse_dates: Any = None,
    dtype: Any = None,
    partition_col: str | None = None,
    num_partitions: int | None = None,
    chunk_size: Any = None,
) -> Any:
    """A lazy DataFrame of a SQL query's result, like ``pandas.read_sql_query``.

    The query is read as a subquery, so chunks can filter it by ``partition_col`` ranges
    or slice it with ``LIMIT``/``OFFSET`` (ordered by ``index_col`` when given; see the
    module docstring). ``params`` is a dict for the query's ``:name`` placeholders (the
    query is a SQLAlchemy ``text()`` construct, whatever the driver).
    """
    _check_layout(num_partitions, chunk_size)
    if not isinstance(sql, str):
        raise TypeError(f"sql must be a SQL query string, got {type(sql).__name__}")
    if params is not None and not isinstance(params, dict):
        raise NotImplementedError("params must be a dict for the query's :name placeholders")
    url = connection_url(con)
    text = sql.strip().rstrip(";")
    bound = params or {}
    with open_engine(url) as engine, engine.connect() as conn:
        names = _result_columns(conn, text, bound)
        index = _names(index_col)
        _check_names(index, list(names), "index_col")
        _check_names(_names(partition_col), list(names), "partition_col")
        source = QuerySource(text, tuple(bound.items()), names, names)
        plan = ReadPlan(partition_col, tuple(index))
        kwargs = {"coerce_float": coerce_float, "parse_dates": parse_dates, "dtype": dtype}
        return plan_read(
            conn, url, source, plan, True, index_col, kwargs, num_partitions, chunk_size
        )


def read_sql(
    sql: str,
    con: Any,
    index_col: Any = None,
    coerce_float: bool = True,
    params: dict[str, Any] | None = None,
    parse_dates: Any = None,
    columns: Any = None,
    dtype: Any = None,
    partition_col: str | None = None,
    num_partitions: int | None = None,
    chunk_size: Any = None,
) -> Any:
    """``read_sql_table`` when ``sql`` names a table or view, else ``read_sql_query``."""
    url = connection_url(con)
    is_table = False
    if isinstance(sql, str):
        with open_engine(url) as engine, engine.connect() as conn:
            is_table = sa.inspect(conn).has_table(sql)
    layout: dict[str, Any] = {"partition_col": partition_col, "num_partitions": num_partitions}
    if is_table:
        return read_sql_table(
            sql, url, index_col=index_col, coerce_float=coerce_float,
            parse_dates=parse_dates, columns=columns, chunk_size=chunk_size, **layout,
        )  # fmt: skip
    return read_sql_query(
        sql, url, index_col=index_col, coerce_float=coerce_float, params=params,
        parse_dates=parse_dates, dtype=dtype, chunk_size=chunk_size, **layout,
    )  # fmt: skip
