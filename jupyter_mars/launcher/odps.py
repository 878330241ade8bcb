"""``ODPS``: the entry object PyODPS users call ``o``, for its Mars calls.

PyODPS starts Mars clusters on MaxCompute and reads and writes MaxCompute tables; neither
is reachable here. The same calls start this project's clusters (local processes, an SSH
host list, or Kubernetes) and read and write the tables of a SQL database through the
project's SQL reader and writer (``md.read_sql_table``, ``DataFrame.to_sql``)::

    o = ODPS("sqlite:////data/warehouse.db")    # any SQLAlchemy URL; a file path: SQLite
    client = o.create_mars_cluster(5, 4, 16, min_worker_num=3)
    df = o.to_mars_dataframe("test_mars")
    o.persist_mars_dataframe(df + 1, "test_mars_persist")
    o.get_table("test_mars_persist").to_df().head(6).execute()
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import jupyter_mars.dataframe as md
from jupyter_mars.launcher.local import new_cluster
from jupyter_mars.launcher.reattach import attach

KINDS = ("local", "ssh", "kubernetes")
KUBERNETES_LAUNCHER = "jupyter_mars.launcher.kubernetes"
"""Where ``kind="kubernetes"`` finds its ``new_cluster``."""


def database_url(database: Any) -> str:
    """A SQLAlchemy URL for ``database``: a URL as given, a file path as a SQLite URL."""
    if isinstance(database, os.PathLike):
        database = os.fspath(database)
    if not isinstance(database, str) or not database.strip():
        raise TypeError(
            "database must be a SQLAlchemy URL (postgresql://..., sqlite:///...) or the path "
            f"of an SQLite file, got {database!r}"
        )
    if "://" in database:
        return database
    return f"sqlite:///{Path(database).expanduser().resolve()}"


class Table:
    """A table of the database, as PyODPS's ``o.get_table(name)``; ``to_df()`` is a lazy
    frame over it."""

    def __init__(self, name: str, url: str) -> None:
        self.name = name
        self._frame = md.read_sql_table(name, url)  # reflected now: a missing table fails here

    def to_df(self) -> Any:
        return self._frame

    def __repr__(self) -> str:
        return f"<Table {self.name}>"


class ODPS:
    """PyODPS's ``o`` over a SQL database (``database``: a SQLAlchemy URL, or an SQLite
    file's path) and this project's launchers."""

    def __init__(self, database: Any) -> None:
        self.url = database_url(database)

    def __repr__(self) -> str:
        return f"<ODPS {self.url}>"

    def create_mars_cluster(
        self,
        worker_num: int | None = None,
        worker_cpu: int | None = None,
        worker_mem: int | float | str | None = None,
        min_worker_num: int | None = None,
        instance_id: str | None = None,
        kind: str = "local",
        **launcher_kwargs: Any,
    ) -> Any:
        """Start a cluster of ``worker_num`` workers of ``worker_cpu`` cores and
        ``worker_mem`` memory (GiB without a unit), returning once ``min_worker_num``
        joined (default: all); with ``instance_id``, re-attach to that running cluster.
        ``kind``: ``local`` (this machine), ``ssh`` (give ``hosts=``, a host list) or
        ``kubernetes`` (``jupyter_mars.deploy.kubernetes.new_cluster``; give ``image=``
        and the rest it takes). Returns the handle: ``session``, ``endpoint``,
        ``get_logview_address()``, ``stop_server()``, ``instance_id``."""
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
        shape: dict[str, Any] = {
            "worker_num": worker_num,
            "worker_cpu": worker_cpu,
            "worker_mem": worker_mem,
            "min_worker_num": min_worker_num,
        }
        if kind == "kubernetes":
            launch = _kubernetes_launcher()
            if instance_id is not None:
                launcher_kwargs["instance_id"] = instance_id
            return launch(**{k: v for k, v in shape.items() if v is not None}, **launcher_kwargs)
        if instance_id is not None:
            given = [k for k, v in {**shape, **launcher_kwargs}.items() if v is not None]
            if given:
                raise TypeError(
                    f"instance_id re-attaches to a running cluster; {', '.join(given)} "
                    "cannot change it"
                )
            return attach(instance_id)
        if kind == "ssh":
            if "hosts" not in launcher_kwargs:
                raise TypeError("kind='ssh' needs hosts=: a host list (a YAML file or a list)")
            timeout = launcher_kwargs.pop("timeout", 60.0)
            # paramiko is imported only by those who use SSH
            from jupyter_mars.launcher.ssh_cluster import SSHCluster

            return SSHCluster(**launcher_kwargs, **shape).start(timeout=timeout)
        return new_cluster(**shape, **launcher_kwargs)

    def to_mars_dataframe(self, table: str, **kwargs: Any) -> Any:
        """A lazy frame over ``table`` (``md.read_sql_table``'s keywords: ``columns``,
        ``index_col``, ``chunk_size``...)."""
        return md.read_sql_table(_table_name(table), self.url, **kwargs)

    def persist_mars_dataframe(
        self, df: Any, table: str, overwrite: bool = True, **kwargs: Any
    ) -> int:
        """Write ``df`` to ``table`` (created when missing), replacing what it holds, or
        appended to it with ``overwrite=False``; without its index, as a MaxCompute table
        has none. Runs in the default session; returns the rows written."""
        if not isinstance(overwrite, bool):
            raise TypeError(f"overwrite must be True or False, got {overwrite!r}")
        kwargs.setdefault("index", False)
        if_exists = "replace" if overwrite else "append"
        return int(df.to_sql(_table_name(table), self.url, if_exists=if_exists, **kwargs))

    def get_table(self, name: str) -> Table:
        return Table(_table_name(name), self.url)


def _table_name(name: Any) -> str:
    if not isinstance(name, str) or not name:
        raise TypeError(f"table must be a table name, got {name!r}")
    return name


def _kubernetes_launcher() -> Any:
    """``new_cluster`` of the Kubernetes launcher, imported when first asked for (it
    needs the ``kubernetes`` client)."""
    try:
        from jupyter_mars.launcher.kubernetes import cluster

        return cluster.new_cluster
    except ImportError as exc:
        raise RuntimeError(
            f"kind='kubernetes' needs {KUBERNETES_LAUNCHER}.new_cluster, which this "
            f"installation lacks ({exc})"
        ) from None
