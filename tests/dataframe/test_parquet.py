"""read_parquet and to_parquet against pandas on the same files, over several chunkings."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
import jupyter_mars.dataframe.io  # noqa: F401 - attaches to_parquet
from jupyter_mars.dataframe.io import read_parquet, to_parquet
from jupyter_mars.dataframe.io.parquet_chunks import ReadParquetChunks
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.engine.node import TILE_RULES, TileContext

CHUNK_SIZES = [None, 1, 3, 10**9]
"""One chunk per row group, merged groups of at least 1 or 3 rows, everything in one."""


def _frame(n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "i": np.arange(n),
            "f": np.where(rng.random(n) < 0.2, np.nan, rng.random(n).round(3)),
            "s": [None if k % 5 == 0 else f"w{k % 7}" for k in range(n)],
            "b": rng.random(n) < 0.5,
            "t": pd.date_range("2024-01-01", periods=n, freq="h"),
            "z": pd.date_range("2024-01-01", periods=n, freq="D", tz="UTC"),
            "g": [f"g{k % 3}" for k in range(n)],
        }
    )


def _tasks(frame: Any) -> list[tuple[Any, ...]]:
    """The arguments of the reader's chunk tasks, in chunk order."""
    node = frame.node
    while not isinstance(node.op, ReadParquetChunks):
        (node,) = node.inputs
    ctx = TileContext()
    tiled = TILE_RULES[type(node.op)](node, [], ctx)
    return [ctx.graph[k].args for k in tiled.flat_keys()]


def _groups_read(frame: Any) -> list[tuple[str, int]]:
    return [
        (os.path.basename(path), g)
        for args in _tasks(frame)
        for path, _, groups in args[0]
        for g in groups
    ]


def _files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


@pytest.mark.parametrize("chunk_size", CHUNK_SIZES)
def test_single_file_row_groups(tmp_path: Path, chunk_size: int | None) -> None:
    path = str(tmp_path / "a.parquet")
    _frame(23).to_parquet(path, row_group_size=5)
    got = read_parquet(path, chunk_size=chunk_size)
    expected = pd.read_parquet(path)
    assert got.shape == (23, 7)  # row counts come from the metadata
    assert list(got.dtypes) == list(expected.dtypes)
    n_chunks = {None: 5, 1: 5, 3: 5, 10**9: 1}[chunk_size]
    assert len(_tasks(got)) == n_chunks
    pd.testing.assert_frame_equal(got.to_pandas(), expected)


@pytest.mark.parametrize("chunk_size", [None, 3])
def test_column_pruning(tmp_path: Path, chunk_size: int | None) -> None:
    path = str(tmp_path / "a.parquet")
    _frame(20).to_parquet(path, row_group_size=6)
    got = read_parquet(path, columns=["s", "i"], chunk_size=chunk_size)
    for args in _tasks(got):
        assert args[3] == ["s", "i"]  # the columns pyarrow is asked for
    pd.testing.assert_frame_equal(got.to_pandas(), pd.read_parquet(path, columns=["s", "i"]))
    # a stored index is read with the columns, as pandas does
    indexed = _frame(20).set_index("g")
    indexed.to_parquet(path, row_group_size=6)
    got = read_parquet(path, columns=["f"], chunk_size=chunk_size)
    for args in _tasks(got):
        assert args[3] == ["f", "g"]
    pd.testing.assert_frame_equal(got.to_pandas(), pd.read_parquet(path, columns=["f"]))


def test_row_group_pruning(tmp_path: Path) -> None:
    path = str(tmp_path / "a.parquet")
    _frame(100).to_parquet(path, row_group_size=10)
    filters = [("i", ">", 55), ("i", "<", 72)]
    got = read_parquet(path, filters=filters)
    assert _groups_read(got) == [("a.parquet", g) for g in (5, 6, 7)]
    assert np.isnan(got.shape[0])
    pd.testing.assert_frame_equal(got.to_pandas(), pd.read_parquet(path, filters=filters))
    either = [[("i", "<", 5)], [("i", ">=", 95), ("s", "!=", "w3")]]
    got = read_parquet(path, filters=either, chunk_size=3)
    assert sorted(g for _, g in _groups_read(got)) == [0, 9]
    pd.testing.assert_frame_equal(got.to_pandas(), pd.read_parquet(path, filters=either))


@pytest.mark.parametrize("chunk_size", [None, 1, 7])
def test_filters_equal_pandas(tmp_path: Path, chunk_size: int | None) -> None:
    path = str(tmp_path / "a.parquet")
    _frame(40).to_parquet(path, row_group_size=7)
    cases: list[Any] = [
        [("f", ">", 0.5)],
        [("s", "in", ["w1", "w2"])],
        [("g", "==", "g1"), ("b", "==", True)],
        [("i", ">", 1000)],  # no row group can match: an empty result
        [("f", "<", 2.0), ("i", "<", 0)],
    ]
    for filters in cases:
        expected = pd.read_parquet(path, filters=filters)
        got = read_parquet(path, filters=filters, chunk_size=chunk_size)
        pd.testing.assert_frame_equal(got.to_pandas(), expected, obj=str(filters))
        cols = read_parquet(path, columns=["g", "f"], filters=filters, chunk_size=chunk_size)
        expected = pd.read_parquet(path, columns=["g", "f"], filters=filters)
        pd.testing.assert_frame_equal(cols.to_pandas(), expected, obj=str(filters))


@pytest.mark.parametrize("chunk_size", [None, 4])
def test_dataset_folder_with_partitions(tmp_path: Path, chunk_size: int | None) -> None:
    folder = str(tmp_path / "data")
    frame = _frame(30).assign(year=[2020 + k % 3 for k in range(30)])
    frame.to_parquet(folder, partition_cols=["year", "g"])
    expected = pd.read_parquet(folder)
    got = read_parquet(folder, chunk_size=chunk_size)
    assert list(got.dtypes) == list(expected.dtypes)
    pd.testing.assert_frame_equal(got.to_pandas(), expected)
    for kwargs in (
        {"columns": ["i", "g"]},
        {"filters": [("year", "=", 2021)]},
        {"filters": [("g", "in", ["g0", "g2"]), ("f", ">", 0.3)], "columns": ["f", "year"]},
    ):
        got = read_parquet(folder, chunk_size=chunk_size, **kwargs)
        expected = pd.read_parquet(folder, **kwargs)  # type: ignore[arg-type]
        pd.testing.assert_frame_equal(got.to_pandas(), expected, obj=str(kwargs))
    # partitions that cannot match are never read
    got = read_parquet(folder, filters=[("year", "=", 2021)])
    paths = {p for args in _tasks(got) for p, _, _ in args[0]}
    assert paths
    assert all("year=2021" in p for p in paths)


def test_glob_list_and_files_of_uneven_groups(tmp_path: Path) -> None:
    parts = [_frame(n, seed=n) for n in (5, 0, 12, 1)]
    for k, part in enumerate(parts):
        part.to_parquet(tmp_path / f"p{k}.parquet", row_group_size=4, index=False)
    files = [str(tmp_path / f"p{k}.parquet") for k in range(4)]
    expected = pd.read_parquet(files)
    for chunk_size in CHUNK_SIZES:
        got = read_parquet(str(tmp_path / "p*.parquet"), chunk_size=chunk_size)
        assert got.shape == (18, 7)
        pd.testing.assert_frame_equal(got.to_pandas(), expected)
    got = read_parquet([files[2], files[0]], chunk_size=5)
    pd.testing.assert_frame_equal(got.to_pandas(), pd.read_parquet([files[2], files[0]]))


@pytest.mark.parametrize(
    "index",
    [
        pd.RangeIndex(5, 5 + 3 * 17, 3, name="r"),
        pd.Index(np.arange(17)[::-1] * 2, name="k"),
        pd.Index([f"x{k}" for k in range(17)]),
        pd.MultiIndex.from_arrays([np.arange(17) % 3, np.arange(17)], names=["u", "v"]),
    ],
)
def test_index_is_restored(tmp_path: Path, index: pd.Index) -> None:
    path = str(tmp_path / "a.parquet")
    _frame(17).set_axis(index).to_parquet(path, row_group_size=4)
    for chunk_size in (None, 6):
        got = read_parquet(path, chunk_size=chunk_size).to_pandas()
        pd.testing.assert_frame_equal(got, pd.read_parquet(path))
    got = read_parquet(path, filters=[("i", ">", 3)]).to_pandas()
    expected = pd.read_parquet(path, filters=[("i", ">", 3)])
    pd.testing.assert_frame_equal(got, expected)


def test_nulls_in_integer_columns(tmp_path: Path) -> None:
    path = str(tmp_path / "a.parquet")
    table = pa.table({"n": pa.array([1, 2, None, 4, 5, 6], pa.int64()), "m": [1, 2, 3, 4, 5, 6]})
    pq.write_table(table, path, row_group_size=2)
    got = read_parquet(path)
    assert got.dtypes["n"] == np.float64
    assert got.dtypes["m"] == np.int64
    pd.testing.assert_frame_equal(got.to_pandas(), pd.read_parquet(path))


def test_errors_at_build_time(tmp_path: Path) -> None:
    path = str(tmp_path / "a.parquet")
    _frame(5).to_parquet(path)
    with pytest.raises(FileNotFoundError, match="nope.parquet"):
        read_parquet(str(tmp_path / "nope.parquet"))
    with pytest.raises(FileNotFoundError, match="missing"):
        read_parquet(str(tmp_path / "missing"))
    with pytest.raises(FileNotFoundError, match="q"):
        read_parquet(str(tmp_path / "q*.parquet"))
    with pytest.raises(ValueError, match="'zz'"):
        read_parquet(path, columns=["i", "zz"])
    with pytest.raises(ValueError, match="'yy'"):
        read_parquet(path, filters=[("yy", ">", 1)])
    with pytest.raises(ValueError, match="chunk_size"):
        read_parquet(path, chunk_size=0)
    with pytest.raises(pa.ArrowNotImplementedError):  # compares a string with an int
        read_parquet(path, filters=[("s", ">", 1)])


@pytest.mark.parametrize("chunk_size", [1, 3, None])
@pytest.mark.parametrize("index", [None, True, False])
def test_round_trip_file_pattern_folder(
    tmp_path: Path, chunk_size: int | None, index: bool | None
) -> None:
    frame = _frame(11).set_axis(pd.RangeIndex(4, 26, 2, name="r"))
    reference = str(tmp_path / "ref.parquet")
    frame.to_parquet(reference, index=index)
    expected = pd.read_parquet(reference)
    df = md.DataFrame(frame, chunk_size=chunk_size)
    df.to_parquet(str(tmp_path / "one.parquet"), index=index)
    to_parquet(df, str(tmp_path / "dir") + "/", index=index)
    df.to_parquet(str(tmp_path / "p-*.parquet"), index=index)
    n = 1 if chunk_size is None else -(-11 // chunk_size)
    width = len(str(n - 1))
    parts = [f"p-{k:0{width}d}.parquet" for k in range(n)]
    dir_parts = [f"dir/part.{k:0{width}d}.parquet" for k in range(n)]
    assert _files(tmp_path) == sorted([*dir_parts, "one.parquet", *parts, "ref.parquet"])
    for target in (
        str(tmp_path / "one.parquet"),
        str(tmp_path / "dir"),
        [str(tmp_path / p) for p in parts],
    ):
        pd.testing.assert_frame_equal(pd.read_parquet(target), expected, obj=str(target))
        got = read_parquet(target, chunk_size=chunk_size).to_pandas()
        pd.testing.assert_frame_equal(got, expected, obj=str(target))


@pytest.mark.parametrize("chunk_size", [1, 4])
def test_round_trip_partition_cols(tmp_path: Path, chunk_size: int) -> None:
    frame = _frame(13)
    folder = tmp_path / "out"
    md.DataFrame(frame, chunk_size=chunk_size).to_parquet(
        str(folder), partition_cols=["g"], index=False
    )
    assert {p.split("/")[0] for p in _files(folder)} == {"g=g0", "g=g1", "g=g2"}
    frame.to_parquet(tmp_path / "ref", partition_cols=["g"], index=False)
    expected = pd.read_parquet(tmp_path / "ref")
    got = read_parquet(str(folder)).to_pandas()
    # the rows come back grouped by partition; within one, in the frame's order
    pd.testing.assert_frame_equal(got, expected)
    pd.testing.assert_frame_equal(pd.read_parquet(folder), expected)


@given(
    st.lists(
        st.tuples(
            st.integers(-5, 5),
            st.one_of(st.none(), st.floats(-10, 10)),
            st.one_of(st.none(), st.sampled_from(["a", "bb", ""])),
        ),
        max_size=12,
    ),
    st.sampled_from([1, 2, 5]),
)
def test_round_trip_hypothesis(tmp_path: Path, rows: list[Any], chunk_size: int) -> None:
    frame = pd.DataFrame(rows, columns=["i", "f", "s"]).astype({"i": "int64", "f": "float64"})
    path = str(tmp_path / "h.parquet")
    md.DataFrame(frame, chunk_size=chunk_size).to_parquet(path)
    frame.to_parquet(tmp_path / "ref.parquet")
    expected = pd.read_parquet(tmp_path / "ref.parquet")
    pd.testing.assert_frame_equal(pd.read_parquet(path), expected)
    got = read_parquet(path, chunk_size=chunk_size, filters=[("i", ">=", 0)]).to_pandas()
    pd.testing.assert_frame_equal(got, pd.read_parquet(path, filters=[("i", ">=", 0)]))


def _fail_on_third(chunk: pd.DataFrame) -> pd.DataFrame:
    if len(chunk) and chunk["i"].iloc[0] >= 6:
        raise RuntimeError("chunk failed")
    return chunk


@pytest.mark.parametrize("target", ["out.parquet", "p-*.parquet", "dir/", "existing"])
def test_failed_write_leaves_nothing(tmp_path: Path, target: str) -> None:
    (tmp_path / "existing").mkdir()
    (tmp_path / "existing" / "keep.txt").write_text("x")
    before = _files(tmp_path)
    frame = _frame(10)
    df = md.DataFrame(frame, chunk_size=3)
    failing = map_chunks(_fail_on_third, [df], (Slot(0),), df.meta)
    with pytest.raises(RuntimeError, match="chunk failed"):
        failing.to_parquet(str(tmp_path / target))
    assert _files(tmp_path) == before
    assert sorted(os.listdir(tmp_path)) == ["existing"]
    # an unsupported dtype fails in pyarrow: nothing is written either
    bad = md.DataFrame(frame.assign(o=[{"a": 1}, 2.5] * 5), chunk_size=3)
    with pytest.raises((pa.ArrowInvalid, pa.ArrowTypeError)):
        bad.to_parquet(str(tmp_path / target))
    assert _files(tmp_path) == before
    assert sorted(os.listdir(tmp_path)) == ["existing"]


def test_write_into_existing_folder_and_errors(tmp_path: Path) -> None:
    folder = tmp_path / "existing"
    folder.mkdir()
    frame = _frame(6)
    md.DataFrame(frame, chunk_size=4).to_parquet(str(folder), index=False)
    assert _files(folder) == ["part.0.parquet", "part.1.parquet"]
    pd.testing.assert_frame_equal(pd.read_parquet(folder), frame)
    with pytest.raises(KeyError, match="nope"):
        md.DataFrame(frame).to_parquet(str(tmp_path / "x"), partition_cols=["nope"])
    with pytest.raises(FileNotFoundError):
        md.DataFrame(frame).to_parquet(str(tmp_path / "no" / "x.parquet"))
    with pytest.raises(TypeError, match="index"):
        md.DataFrame(frame).to_parquet(str(tmp_path / "x.parquet"), index="yes")
