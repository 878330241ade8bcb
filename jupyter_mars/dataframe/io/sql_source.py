"""What ``read_sql`` reads: a table or a query, and the SQL statement of one chunk.

A source is plain data (names, SQL text, SQLAlchemy column types), so it pickles to
workers; ``from_clause`` rebuilds the SQLAlchemy construct there. A ``Piece`` says which
rows a chunk reads: a range of the partition column (``lo <= col < hi``, the last range
``<= hi``), the rows where it is NULL, or a ``LIMIT``/``OFFSET`` slice in a fixed order.

Each chunk is read with ``pandas.read_sql_query`` on its statement. A table's chunks are
then given the dtypes its column types call for, as ``pandas.read_sql_table`` does
(``harmonize``): float columns are float64, datetime columns datetime64 (tz-aware ones in
UTC), string columns ``str`` when pandas infers strings, and integer and boolean columns
int64 and bool when they hold no NULL.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.io.lazy_module import LazyModule

if TYPE_CHECKING:
    import sqlalchemy as sa
else:  # SQLAlchemy loads with the first SQL call, not with md
    sa = LazyModule("sqlalchemy")

PHYSICAL_ORDER = {"sqlite": "rowid", "postgresql": "ctid"}
"""The expression that orders a table's rows as a plain scan returns them, per dialect."""


def column_kind(sqltype: Any) -> str:
    """The dtype family pandas gives a table column of this SQLAlchemy type."""
    if isinstance(sqltype, sa.Float):
        return "float"
    if isinstance(sqltype, sa.Integer):
        return "int"
    if isinstance(sqltype, sa.TIMESTAMP) and sqltype.timezone:
        return "datetimetz"
    if isinstance(sqltype, sa.DateTime):
        return "datetime"
    if isinstance(sqltype, sa.Date):
        return "date"
    if isinstance(sqltype, sa.Boolean):
        return "bool"
    if isinstance(sqltype, sa.String):
        return "string"
    return "object"


@functools.cache
def _infers_strings() -> bool:
    """Whether pandas gives text the ``str`` dtype (pandas 3, or 2.x with the option)."""
    return isinstance(pd.Series(["a"]).dtype, pd.StringDtype)


def _to_datetime(col: pd.Series, utc: bool) -> pd.Series:
    if col.dtype.kind in "iuf":
        return pd.to_datetime(col, errors="coerce", unit="s", utc=utc)
    if isinstance(col.dtype, pd.DatetimeTZDtype):
        return pd.to_datetime(col, utc=True)
    return pd.to_datetime(col, errors="coerce", utc=utc)


@dataclass(frozen=True)
class TableSource:
    """A table (or view) and the columns read from it, index columns first."""

    name: str
    schema: str | None
    types: tuple[tuple[str, Any], ...]
    """``(name, SQLAlchemy type)`` of every column of the table."""
    columns: tuple[str, ...]
    """The columns read, in the order of the result."""

    def from_clause(self) -> Any:
        cols = [sa.column(name, sqltype) for name, sqltype in self.types]
        return sa.table(self.name, *cols, schema=self.schema)

    def with_columns(self, columns: tuple[str, ...]) -> TableSource:
        return dataclasses.replace(self, columns=columns)

    def harmonize(self, frame: pd.DataFrame, parse_dates: Any) -> pd.DataFrame:
        """Give ``frame`` the dtypes ``pandas.read_sql_table`` gives these column types."""
        skip = set(_date_names(parse_dates))
        strings = _infers_strings()
        types = dict(self.types)
        for name in self.columns:
            if name in skip or name not in frame.columns:
                continue
            col = frame[name]
            kind = column_kind(types[name])
            if kind in ("datetime", "datetimetz", "date"):
                frame[name] = _to_datetime(col, utc=kind == "datetimetz")
            elif kind == "float":
                frame[name] = col.astype(np.float64)
            elif kind == "string" and strings and col.dtype == object:
                frame[name] = col.astype(pd.StringDtype(na_value=np.nan))
            elif kind in ("int", "bool") and not col.isna().any():
                frame[name] = col.astype(np.int64 if kind == "int" else bool)
        return frame


@dataclass(frozen=True)
class QuerySource:
    """A SQL query, read as a subquery so chunks can filter, order and slice it."""

    sql: str
    params: tuple[tuple[str, Any], ...]
    """Values of the query's ``:name`` parameters."""
    result_columns: tuple[str, ...]
    """Every column the query returns (found by running it with no rows)."""
    columns: tuple[str, ...]

    def from_clause(self) -> Any:
        text = sa.text(self.sql).bindparams(**dict(self.params))
        return text.columns(*[sa.column(c) for c in self.result_columns]).subquery("q")

    def with_columns(self, columns: tuple[str, ...]) -> QuerySource:
        return dataclasses.replace(self, columns=columns)

    def harmonize(self, frame: pd.DataFrame, parse_dates: Any) -> pd.DataFrame:
        return frame


Source = TableSource | QuerySource


def _date_names(parse_dates: Any) -> list[Any]:
    if parse_dates is None:
        return []
    if isinstance(parse_dates, (str, bytes)):
        return [parse_dates]
    return list(parse_dates)


@dataclass(frozen=True)
class Piece:
    """The rows one chunk reads (every row when nothing is set)."""

    lo: Any = None
    hi: Any = None
    """With a partition column: ``lo <= col < hi`` (``<= hi`` for the last range)."""
    last: bool = False
    nulls: bool = False
    """Only the rows whose partition column is NULL."""
    offset: int | None = None
    limit: int | None = None
    """A slice of the rows in the read's order."""
    not_null: str | None = None
    """Only rows where this column is not NULL (samples for the dtypes)."""


@dataclass(frozen=True)
class ReadPlan:
    """How the chunks of one read are told apart."""

    partition_col: str | None
    order: tuple[str, ...]
    """Columns that order the rows for slices; empty: the source's own order."""
    physical: bool = False
    """``order`` is a dialect's row-position expression (``rowid``, ``ctid``)."""


def statement(source: Source, plan: ReadPlan, piece: Piece) -> Any:
    """The ``SELECT`` of one piece of ``source``."""
    src = source.from_clause()
    stmt = sa.select(*[src.c[c] for c in source.columns])
    if piece.lo is not None and plan.partition_col is not None:
        col = src.c[plan.partition_col]
        stmt = stmt.where(col >= piece.lo, col <= piece.hi if piece.last else col < piece.hi)
    if piece.nulls and plan.partition_col is not None:
        stmt = stmt.where(src.c[plan.partition_col].is_(None))
    if piece.not_null is not None:
        stmt = stmt.where(src.c[piece.not_null].is_not(None))
    if piece.limit is not None:
        if plan.physical:
            stmt = stmt.order_by(*[sa.literal_column(o) for o in plan.order])
        else:
            stmt = stmt.order_by(*[src.c[o] for o in plan.order])
        stmt = stmt.limit(piece.limit).offset(piece.offset or 0)
    return stmt


def read_rows(
    conn: Any, source: Source, plan: ReadPlan, piece: Piece, kwargs: dict[str, Any]
) -> pd.DataFrame:
    """The rows of one piece as pandas reads them, before the dtypes of the whole read."""
    frame = pd.read_sql_query(statement(source, plan, piece), conn, **kwargs)
    return source.harmonize(frame, kwargs.get("parse_dates"))
