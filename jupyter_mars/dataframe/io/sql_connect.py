"""Database connections for ``read_sql`` and ``to_sql``: a URL in the graph, engines in tasks.

A graph is pickled to workers, and a SQLAlchemy ``Engine`` holds sockets and a pool, so
operators store the connection as a URL string and every task opens its own engine with
``NullPool`` (no connection outlives the task). ``open_engine`` is also what the build-time
probes use, so a bad URL or an unknown driver fails when the user calls the function.

SQLite runs DDL outside transactions under Python's ``sqlite3`` defaults; engines opened
with ``transactional_ddl=True`` start every transaction with an explicit ``BEGIN`` so a
``DROP``/``CREATE``/``ALTER`` commits or rolls back with the rest, as on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from jupyter_mars.dataframe.io.lazy_module import LazyModule

if TYPE_CHECKING:
    import sqlalchemy as sa
else:  # SQLAlchemy loads with the first SQL call, not with md
    sa = LazyModule("sqlalchemy")


SQLITE_BUSY_SECONDS = 60
"""How long a SQLite connection waits for another writer's lock before failing."""


def connection_url(con: Any) -> str:
    """The URL string of ``con`` (a URL string, ``sqlalchemy.URL`` or ``Engine``).

    A string that is not a URL raises SQLAlchemy's ``ArgumentError`` naming it.
    """
    if isinstance(con, sa.engine.Engine):
        url = con.url
    elif isinstance(con, (str, sa.engine.URL)):
        url = sa.engine.make_url(con)
    else:
        raise TypeError(
            f"con must be a SQLAlchemy URL string or an Engine, got {type(con).__name__}"
        )
    return url.render_as_string(hide_password=False)


def _begin_explicitly(engine: sa.engine.Engine) -> None:
    @sa.event.listens_for(engine, "connect")
    def _no_implicit_transactions(dbapi_connection: Any, record: Any) -> None:
        dbapi_connection.isolation_level = None

    @sa.event.listens_for(engine, "begin")
    def _begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN")


def new_engine(url: str, transactional_ddl: bool = False) -> sa.engine.Engine:
    """An engine without a pool; unknown dialects raise SQLAlchemy's ``NoSuchModuleError``."""
    parsed = sa.engine.make_url(url)
    sqlite = parsed.get_backend_name() == "sqlite"
    connect_args = {"timeout": SQLITE_BUSY_SECONDS} if sqlite else {}
    engine = sa.create_engine(parsed, poolclass=sa.pool.NullPool, connect_args=connect_args)
    if sqlite and transactional_ddl:
        _begin_explicitly(engine)
    return engine


@contextmanager
def open_engine(url: str, transactional_ddl: bool = False) -> Iterator[sa.engine.Engine]:
    """``new_engine`` for the length of a ``with`` block, disposed after."""
    engine = new_engine(url, transactional_ddl)
    try:
        yield engine
    finally:
        engine.dispose()
