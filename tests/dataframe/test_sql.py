"""read_sql_* and to_sql against pandas on the same databases: SQLite and a real PostgreSQL.

The PostgreSQL server is started for this module on loopback (see ``pg_server``); every
test gets a fresh database (a new SQLite file, or a new PostgreSQL database).
"""

from __future__ import annotations

import datetime as dt
import os
import pickle
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
import sqlalchemy as sa
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from jupyter_mars.dataframe.io.sql_read import read_sql, read_sql_query, read_sql_table
from jupyter_mars.dataframe.io.sql_write import STAGE_PREFIX, to_sql
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from tests.dataframe.pg_server import Server, Unavailable, start_server

LAYOUTS: list[dict[str, Any]] = [
    {},
    {"chunk_size": 1},
    {"chunk_size": 3},
    {"num_partitions": 4},
    {"partition_col": "k", "num_partitions": 1},
    {"partition_col": "k", "num_partitions": 3},
    {"partition_col": "k", "num_partitions": 50},
    {"partition_col": "t", "num_partitions": 3},
    {"partition_col": "x", "chunk_size": 4},
]
"""One chunk, slices of 1 and 3 rows, 4 slices, ranges of an int column (one, three,
more than rows), of a datetime column with NULLs, of a float column with NULLs."""


@pytest.fixture(scope="module")
def pg_server() -> Iterator[Server]:
    try:
        server = start_server()
    except Unavailable as exc:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL tests need a server (CI is set): {exc}")
        pytest.skip(f"no PostgreSQL server: {exc}")
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A URL to an empty database: a new SQLite file, or a new PostgreSQL schema that is
    the connection's default (``search_path``)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.db'}"
        return
    server: Server = request.getfixturevalue("pg_server")
    name = f"test_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(server.url, isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {name}")
    yield f"{server.url}?options=-csearch_path%3D{name}"
    with admin.connect() as conn:
        conn.exec_driver_sql(f"DROP SCHEMA {name} CASCADE")
    admin.dispose()


def _frame(n: int, seed: int = 0) -> pd.DataFrame:
    """Mixed columns: ``k``, and ``x`` and ``t`` with NULLs last, ascending (so reading by
    ranges of them keeps pandas' order); NULLs amid ``m`` and ``s``."""
    rng = np.random.default_rng(seed)
    t = pd.Series(pd.date_range("2024-01-01", periods=n, freq="37min"))
    t[n - n // 4 :] = pd.NaT
    x = np.sort(rng.random(n).round(3))
    x[n - n // 5 :] = np.nan
    return pd.DataFrame(
        {
            "k": np.arange(n) * 3 - 7,
            "x": x,
            "m": pd.Series([None if i % 4 == 1 else int(i) for i in range(n)], dtype=object),
            "s": [None if i % 6 == 2 else f"w{rng.integers(0, 9)}" for i in range(n)],
            "b": rng.random(n) > 0.5,
            "t": t,
        }
    )


def _tables(url: str) -> list[str]:
    engine = sa.create_engine(url, poolclass=sa.NullPool)
    try:
        return sorted(sa.inspect(engine).get_table_names())
    finally:
        engine.dispose()


def _write(url: str, frame: pd.DataFrame, name: str = "t", **kwargs: Any) -> None:
    engine = sa.create_engine(url, poolclass=sa.NullPool)
    try:
        frame.to_sql(name, engine, **kwargs)
    finally:
        engine.dispose()


def _pandas(func: Any, sql: str, url: str, **kwargs: Any) -> pd.DataFrame:
    engine = sa.create_engine(url, poolclass=sa.NullPool)
    try:
        return func(sql, engine, **kwargs)  # type: ignore[no-any-return]
    finally:
        engine.dispose()


@pytest.mark.parametrize("layout", LAYOUTS)
def test_reads_match_pandas(url: str, layout: dict[str, Any]) -> None:
    _write(url, _frame(11), index=False)
    got = read_sql_table("t", url, **layout)
    expected = _pandas(pd.read_sql_table, "t", url)
    assert got.dtypes.to_dict() == expected.dtypes.to_dict()
    pd.testing.assert_frame_equal(got.to_pandas(), expected)
    sql = "SELECT k, x, m, s, t FROM t WHERE k <> 2"
    got = read_sql_query(sql, url, **layout)
    expected = _pandas(pd.read_sql_query, sql, url)
    assert got.dtypes.to_dict() == expected.dtypes.to_dict()
    pd.testing.assert_frame_equal(got.to_pandas(), expected)


@pytest.mark.parametrize("layout", [{}, {"chunk_size": 2}, {"partition_col": "k"}])
def test_index_col_and_columns(url: str, layout: dict[str, Any]) -> None:
    _write(url, _frame(9), index=True)
    kwargs: dict[str, Any] = {"index_col": "k", "columns": ["s", "t"]}
    got = read_sql_table("t", url, **kwargs, **layout)
    expected = _pandas(pd.read_sql_table, "t", url, **kwargs)
    assert list(got.columns) == ["s", "t"]
    pd.testing.assert_frame_equal(got.to_pandas(), expected)
    multi = ["b", "index"]
    got = read_sql_table("t", url, index_col=multi, **layout)
    expected = _pandas(pd.read_sql_table, "t", url, index_col=multi)
    pd.testing.assert_frame_equal(got.to_pandas(), expected)
    # a query is sliced in index_col order
    sql = "SELECT * FROM t ORDER BY b, k"
    got = read_sql_query(sql, url, index_col=multi, **layout)
    expected = _pandas(pd.read_sql_query, sql, url, index_col=multi)
    pd.testing.assert_frame_equal(got.to_pandas(), expected)


def test_columns_are_pruned_in_the_sql(url: str) -> None:
    _write(url, _frame(5), index=False)
    got = read_sql_table("t", url, columns=["x", "k"], chunk_size=2)
    assert got.op.source.columns == ("x", "k")
    pd.testing.assert_frame_equal(
        got.to_pandas(), _pandas(pd.read_sql_table, "t", url, columns=["x", "k"])
    )


def test_slices_know_their_lengths_and_ranges_do_not(url: str) -> None:
    _write(url, _frame(10), index=False)
    sliced = read_sql_table("t", url, chunk_size=4)
    assert sliced.shape == (10, 6)
    assert sliced.op.lengths == (4.0, 4.0, 2.0)
    ranged = read_sql_table("t", url, partition_col="k", num_partitions=3)
    assert np.isnan(ranged.shape[0])
    assert ranged.op.label() == "renumber"
    # three ranges and one piece for the NULLs of t
    by_time = read_sql_table("t", url, partition_col="t", num_partitions=3)
    assert len(by_time.node.inputs[0].op.pieces) == 4
    assert len(by_time.to_pandas()) == 10


def test_unsorted_partition_column_reads_every_row_once(url: str) -> None:
    frame = _frame(20, seed=3).sample(frac=1, random_state=1).reset_index(drop=True)
    _write(url, frame, index=False)
    for n in (1, 3, 7):
        got = read_sql_table("t", url, partition_col="k", num_partitions=n).to_pandas()
        expected = _pandas(pd.read_sql_table, "t", url)
        key = got.sort_values("k").reset_index(drop=True)
        pd.testing.assert_frame_equal(key, expected.sort_values("k").reset_index(drop=True))


def test_datetimes_nulls_and_strings_round_trip(url: str) -> None:
    frame = pd.DataFrame(
        {
            "t": pd.to_datetime(
                ["2024-01-01 10:00:00", None, "2023-12-31 23:59:59.5"], format="ISO8601"
            ),
            "tz": pd.to_datetime(["2024-01-01", "2024-06-01", None]).tz_localize("UTC"),
            "d": pd.Series([dt.date(2020, 1, 2), None, dt.date(2021, 3, 4)], dtype=object),
            "s": ["é", None, "a 'quoted' \"text\""],
            "n": [None, None, None],
            "f": [np.nan, 1.5, np.inf],
        }
    )
    for chunk_size in (1, 2, None):
        md.DataFrame(frame, chunk_size=chunk_size).to_sql("t", url, if_exists="replace")
        _write(url, frame, name="p", if_exists="replace")
        for layout in ({}, {"chunk_size": 1}):
            got = read_sql_table("t", url, index_col="index", **layout).to_pandas()
            expected = _pandas(pd.read_sql_table, "p", url, index_col="index")
            pd.testing.assert_frame_equal(got, expected)
            got = read_sql_query("SELECT * FROM t", url, **layout).to_pandas()
            pd.testing.assert_frame_equal(got, _pandas(pd.read_sql_query, "SELECT * FROM p", url))


@pytest.mark.parametrize("chunk_size", [1, 3, None])
def test_to_sql_writes_what_pandas_writes(url: str, chunk_size: Any) -> None:
    frame = _frame(10, seed=1)
    frame.index = pd.Index(np.arange(10) * 2, name="row")
    written = md.DataFrame(frame, chunk_size=chunk_size).to_sql("t", url)
    _write(url, frame, name="p")
    assert written == 10
    got = _pandas(pd.read_sql_table, "t", url)
    pd.testing.assert_frame_equal(got, _pandas(pd.read_sql_table, "p", url))
    assert _tables(url) == ["p", "t"]
    engine = sa.create_engine(url, poolclass=sa.NullPool)
    insp = sa.inspect(engine)
    types = [str(c["type"]) for c in insp.get_columns("t")]
    assert types == [str(c["type"]) for c in insp.get_columns("p")]
    assert [i["name"] for i in insp.get_indexes("t")] == ["ix_t_row"]
    engine.dispose()
    again = read_sql_table("t", url, index_col="row", chunk_size=chunk_size).to_pandas()
    pd.testing.assert_frame_equal(again, _pandas(pd.read_sql_table, "p", url, index_col="row"))


def test_to_sql_index_label_dtype_and_no_index(url: str) -> None:
    frame = _frame(6)
    mframe = md.DataFrame(frame, chunk_size=4)
    to_sql(mframe, "a", url, index_label="i", dtype={"k": sa.Integer()})
    _write(url, frame, name="pa", index_label="i", dtype={"k": sa.Integer()})
    mframe.to_sql("b", url, index=False)
    _write(url, frame, name="pb", index=False)
    for ours, theirs in (("a", "pa"), ("b", "pb")):
        got = _pandas(pd.read_sql_table, ours, url)
        pd.testing.assert_frame_equal(got, _pandas(pd.read_sql_table, theirs, url))


def test_if_exists(url: str) -> None:
    first, second = _frame(5, seed=1), _frame(4, seed=2)
    md.DataFrame(first, chunk_size=2).to_sql("t", url, index=False)
    with pytest.raises(ValueError, match="Table 't' already exists"):
        md.DataFrame(second, chunk_size=2).to_sql("t", url)
    md.DataFrame(second, chunk_size=3).to_sql("t", url, if_exists="append", index=False)
    expected = pd.concat([first, second], ignore_index=True)
    _write(url, expected, name="p", index=False)
    pd.testing.assert_frame_equal(read_sql_table("t", url).to_pandas(), _read(url, "p"))
    md.DataFrame(second, chunk_size=1).to_sql("t", url, if_exists="replace")
    _write(url, second, name="p", if_exists="replace")
    pd.testing.assert_frame_equal(_read(url, "t"), _read(url, "p"))
    with pytest.raises(ValueError, match="'upsert' is not valid for if_exists"):
        md.DataFrame(second).to_sql("t", url, if_exists="upsert")


def _read(url: str, name: str) -> pd.DataFrame:
    return _pandas(pd.read_sql_table, name, url)


def fail_on_sentinel(chunk: pd.DataFrame) -> pd.DataFrame:
    """Raise on the chunk holding ``k == 5``; chunks without it pass unchanged."""
    if (chunk["k"] == 5).any():
        raise ZeroDivisionError("chunk with k == 5")
    return chunk


def _failing(n: int, chunk_size: int) -> Any:
    frame = md.DataFrame(
        pd.DataFrame({"k": np.arange(n), "v": np.arange(n) * 0.5}), chunk_size=chunk_size
    )
    return map_chunks(fail_on_sentinel, [frame], (Slot(0),), frame.meta)


@pytest.mark.parametrize("if_exists", ["fail", "replace", "append"])
def test_failed_chunk_leaves_target_as_it_was(url: str, if_exists: str) -> None:
    before = pd.DataFrame({"k": [100, 101], "v": [1.0, 2.0]})
    if if_exists != "fail":
        _write(url, before)
    with pytest.raises(ZeroDivisionError, match="k == 5"):
        _failing(12, 3).to_sql("t", url, if_exists=if_exists)
    if if_exists == "fail":
        assert _tables(url) == []
    else:
        assert _tables(url) == ["t"]
        pd.testing.assert_frame_equal(_read(url, "t"), _read_expected(url, before))


def _read_expected(url: str, frame: pd.DataFrame) -> pd.DataFrame:
    _write(url, frame, name="expected")
    out = _read(url, "expected")
    engine = sa.create_engine(url, poolclass=sa.NullPool)
    with engine.begin() as conn:
        conn.exec_driver_sql("DROP TABLE expected")
    engine.dispose()
    return out


def test_failed_commit_leaves_target_unchanged(url: str) -> None:
    before = pd.DataFrame({"k": [1, 2]})
    _write(url, before, index=False)
    extra = md.DataFrame(pd.DataFrame({"k": [3, 4, 5], "other": [1, 2, 3]}), chunk_size=1)
    with pytest.raises(sa.exc.DBAPIError, match="other"):
        extra.to_sql("t", url, if_exists="append", index=False)
    assert _tables(url) == ["t"]
    pd.testing.assert_frame_equal(_read(url, "t"), before)


def test_row_violating_a_type_on_postgresql(url: str) -> None:
    if not url.startswith("postgresql"):
        pytest.skip("SQLite stores any value in any column")
    frame = pd.DataFrame({"k": pd.Series([1, 2, 3, "not a number", 5], dtype=object)})
    with pytest.raises(pd.errors.DatabaseError, match="not a number"):
        md.DataFrame(frame, chunk_size=2).to_sql("t", url, dtype={"k": sa.Integer()})
    assert _tables(url) == []


def test_no_staging_table_is_left(url: str) -> None:
    md.DataFrame(_frame(7), chunk_size=2).to_sql("t", url)
    with pytest.raises(ZeroDivisionError):
        _failing(8, 2).to_sql("u", url)
    assert not [t for t in _tables(url) if t.startswith(STAGE_PREFIX)]
    assert _tables(url) == ["t"]


def test_empty_table(url: str) -> None:
    empty = _frame(0)
    md.DataFrame(empty).to_sql("t", url, index=False)
    _write(url, empty, name="p", index=False)
    pd.testing.assert_frame_equal(_read(url, "t"), _read(url, "p"))
    for layout in ({}, {"chunk_size": 2}, {"partition_col": "k", "num_partitions": 3}):
        got = read_sql_table("t", url, **layout)
        pd.testing.assert_frame_equal(got.to_pandas(), _read(url, "t"))
        got = read_sql_query("SELECT * FROM t", url, **layout)
        pd.testing.assert_frame_equal(
            got.to_pandas(), _pandas(pd.read_sql_query, "SELECT * FROM t", url)
        )


def test_read_sql_dispatches_like_pandas(url: str) -> None:
    _write(url, _frame(6), index=False)
    got = read_sql("t", url, columns=["k", "s"], chunk_size=4).to_pandas()
    pd.testing.assert_frame_equal(got, _pandas(pd.read_sql, "t", url, columns=["k", "s"]))
    sql = "SELECT k, s FROM t ORDER BY k DESC"
    got = read_sql(sql, url, chunk_size=4).to_pandas()
    pd.testing.assert_frame_equal(got, _pandas(pd.read_sql, sql, url))


def test_query_params_and_dtype(url: str) -> None:
    _write(url, _frame(8), index=False)
    sql = "SELECT k, x FROM t WHERE k > :low"
    got = read_sql_query(sql, url, params={"low": 0}, dtype={"k": "float32"}, chunk_size=2)
    expected = _pandas(pd.read_sql_query, sql.replace(":low", "0"), url, dtype={"k": "float32"})
    pd.testing.assert_frame_equal(got.to_pandas(), expected)


def test_engine_is_accepted_and_only_its_url_kept(url: str) -> None:
    _write(url, _frame(4), index=False)
    engine = sa.create_engine(url)
    got = read_sql_table("t", engine, chunk_size=3)
    engine.dispose()
    assert isinstance(got.op.url, str)
    pickle.loads(pickle.dumps(got.op))  # the graph goes to workers
    pd.testing.assert_frame_equal(got.to_pandas(), _read(url, "t"))


def test_errors_at_build_time(url: str) -> None:
    _write(url, _frame(4), index=False)
    with pytest.raises(sa.exc.ArgumentError, match="Could not parse SQLAlchemy URL"):
        read_sql_table("t", "not a url")
    with pytest.raises(sa.exc.NoSuchModuleError, match="nosuchdb"):
        read_sql_table("t", "nosuchdb://localhost/x")
    with pytest.raises(ValueError, match="Table missing not found"):
        read_sql_table("missing", url)
    with pytest.raises(KeyError, match="'nope'"):
        read_sql_table("t", url, columns=["k", "nope"])
    with pytest.raises(KeyError, match="'nope'"):
        read_sql_table("t", url, index_col="nope")
    with pytest.raises(KeyError, match="'nope'"):
        read_sql_query("SELECT k FROM t", url, partition_col="nope")
    with pytest.raises(sa.exc.DBAPIError, match="nope"):
        read_sql_query("SELECT nope FROM t", url)
    with pytest.raises(TypeError, match="partition_col 's' must be a numeric or datetime"):
        read_sql_table("t", url, partition_col="s")
    with pytest.raises(ValueError, match="num_partitions or chunk_size"):
        read_sql_table("t", url, num_partitions=2, chunk_size=3)
    with pytest.raises(ValueError, match="Complex datatypes not supported"):
        md.DataFrame(pd.DataFrame({"c": [1j]})).to_sql("c", url)
    with pytest.raises(TypeError, match="con must be"):
        read_sql_table("t", 42)
    assert _tables(url) == ["t"]


@given(
    values=st.lists(st.one_of(st.none(), st.integers(-50, 50)), min_size=0, max_size=12),
    chunk=st.integers(1, 5),
    partitions=st.integers(1, 6),
)
def test_random_frames_round_trip_on_sqlite(
    tmp_path: Path, values: list[int | None], chunk: int, partitions: int
) -> None:
    url = f"sqlite:///{tmp_path / f'h{uuid.uuid4().hex}.db'}"
    frame = pd.DataFrame(
        {
            "a": pd.Series(values, dtype=object),
            "f": pd.Series([np.nan if v is None else v / 4 for v in values], dtype=float),
            "s": [None if v is None else str(v) for v in values],
        }
    )
    md.DataFrame(frame, chunk_size=chunk).to_sql("t", url, index=False)
    _write(url, frame, name="p", index=False)
    pd.testing.assert_frame_equal(_read(url, "t"), _read(url, "p"))
    expected = _pandas(pd.read_sql_query, "SELECT * FROM p", url)
    got = read_sql_query("SELECT * FROM t", url, chunk_size=chunk)
    pd.testing.assert_frame_equal(got.to_pandas(), expected)
    got = read_sql_table("t", url, partition_col="f", num_partitions=partitions).to_pandas()
    key = ["f", "a"]
    pd.testing.assert_frame_equal(
        got.sort_values(key, ignore_index=True), _read(url, "p").sort_values(key, ignore_index=True)
    )


def test_postgres_server_starts_quickly(pg_server: Server) -> None:
    assert pg_server.start_seconds < 15, f"server took {pg_server.start_seconds:.1f} s"
    engine = sa.create_engine(pg_server.url, poolclass=sa.NullPool)
    with engine.connect() as conn:
        assert conn.exec_driver_sql("SHOW listen_addresses").scalar() == "127.0.0.1"
    engine.dispose()


@pytest.mark.parametrize("name", ["v", None])
def test_a_series_writes_what_pandas_writes(url: str, name: Any) -> None:
    series = pd.Series([1.5, 2.5, 3.5, 4.5], name=name, index=pd.Index([10, 11, 12, 13], name="i"))
    written = md.Series(series, chunk_size=3).to_sql("t", url)
    engine = sa.create_engine(url, poolclass=sa.NullPool)
    try:
        series.to_sql("p", engine)  # pandas' count of rows is -1 on PostgreSQL
    finally:
        engine.dispose()
    assert written == 4
    assert written.execute() == 4  # Mars's spelling: written already, not again
    got = _pandas(pd.read_sql_table, "t", url)
    pd.testing.assert_frame_equal(got, _pandas(pd.read_sql_table, "p", url))


def test_a_series_has_pandas_dtypes() -> None:
    series = pd.Series([1, 2], dtype="int32")
    assert md.Series(series).dtypes == series.dtypes
