"""read_table, read_fwf, read_feather, read_orc, read_pickle, read_excel and read_hdf
against pandas on the same files, over several chunkings, and pandas' errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.feather as feather
import pyarrow.orc as orc
import pytest

from jupyter_mars.dataframe.io import (
    read_excel,
    read_feather,
    read_fwf,
    read_hdf,
    read_orc,
    read_pickle,
    read_table,
)
from jupyter_mars.dataframe.io.arrow_chunks import plan_pieces
from jupyter_mars.engine.node import TILE_RULES, TileContext


def _frame(n: int = 23) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    return pd.DataFrame(
        {
            "i": np.arange(n),
            "f": np.where(np.arange(n) % 5 == 0, np.nan, rng.random(n).round(3)),
            "s": [f"w{k}" for k in rng.integers(0, 100, n)],
            "t": pd.date_range("2024-01-01", periods=n, freq="h", tz="UTC"),
        }
    )


def _same(got: Any, want: Any) -> None:
    if isinstance(want, pd.Series):
        pd.testing.assert_series_equal(got.to_pandas(), want)
    else:
        pd.testing.assert_frame_equal(got.to_pandas(), want)


def _chunk_rows(frame: Any) -> tuple[float, ...]:
    """The rows of each chunk of a frame read straight from its source."""
    node = frame.node
    return TILE_RULES[type(node.op)](node, [], TileContext()).nsplits[0]


def _fwf_text(n: int) -> str:
    rows = "".join(f"{i:<5}{'n' + str(i):<7}{i * 1.5:>6}\n" for i in range(n))
    return "id   name     val\n" + rows + "\n    \ntot         999.0\n"


# read_table


@pytest.mark.parametrize("chunk_bytes", [1, 40, 10**9])
def test_read_table_matches_pandas(tmp_path: Path, chunk_bytes: int) -> None:
    path = str(tmp_path / "a.tsv")
    _frame().drop(columns="t").to_csv(path, sep="\t", index=False)
    cases: list[dict[str, Any]] = [{}, {"skiprows": [2, 5]}, {"usecols": ["s", "i"]}, {"sep": ","}]
    for kwargs in cases:
        _same(read_table(path, chunk_bytes=chunk_bytes, **kwargs), pd.read_table(path, **kwargs))


def test_read_table_errors_are_pandas(tmp_path: Path) -> None:
    path = str(tmp_path / "a.tsv")
    _frame().to_csv(path, sep="\t", index=False)
    with pytest.raises(ValueError, match="sep and a delimiter") as expected:
        pd.read_table(path, sep=",", delimiter=";")
    with pytest.raises(ValueError, match=str(expected.value)):
        read_table(path, sep=",", delimiter=";")


# read_fwf

FWF_CASES: list[dict[str, Any]] = [
    {},
    {"widths": [5, 7, 6]},
    {"colspecs": [(0, 4), (5, 11), (12, 18)]},
    {"skiprows": [2, 5]},
    {"skiprows": [2, 5], "skipfooter": 1},
    {"skipfooter": 2, "index_col": "id"},
    {"header": None},
    {"names": ["a", "b", "c"], "skiprows": [0, 3]},
    {"skiprows": 3, "header": None},
    {"nrows": 4},
    {"infer_nrows": 5},
    {"usecols": [0, 2], "dtype": {"val": "float32"}},
    {"skiprows": "1"},  # looked up as they are: no line number equals "1"
]


@pytest.mark.parametrize("chunk_bytes", [1, 50, 10**9])
def test_read_fwf_matches_pandas(tmp_path: Path, chunk_bytes: int) -> None:
    path = tmp_path / "a.txt"
    path.write_text(_fwf_text(20))
    for kwargs in FWF_CASES:
        want = pd.read_fwf(path, **kwargs)
        _same(read_fwf(str(path), chunk_bytes=chunk_bytes, **kwargs), want)


@pytest.mark.parametrize("chunk_bytes", [30, 10**9])
def test_read_fwf_over_files(tmp_path: Path, chunk_bytes: int) -> None:
    for k, n in enumerate((4, 9)):
        (tmp_path / f"p{k}.txt").write_text(_fwf_text(n))
    paths = [tmp_path / "p0.txt", tmp_path / "p1.txt"]
    kwargs = {"skiprows": [1], "skipfooter": 1}
    want = pd.concat([pd.read_fwf(p, **kwargs) for p in paths], ignore_index=True)
    _same(read_fwf(str(tmp_path / "p*.txt"), chunk_bytes=chunk_bytes, **kwargs), want)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"colspecs": None}, ValueError),
        ({"colspecs": [(0, 3)], "widths": [3]}, ValueError),
        ({"skiprows": lambda n: n == 1}, TypeError),
        ({"skipfooter": -1}, ValueError),
        ({"skipfooter": "1"}, ValueError),
    ],
)
def test_read_fwf_errors_are_pandas(tmp_path: Path, kwargs: Any, error: Any) -> None:
    path = tmp_path / "a.txt"
    path.write_text(_fwf_text(5))
    with pytest.raises(error) as expected:
        pd.read_fwf(path, **kwargs)
    with pytest.raises(error, match=str(expected.value)[:25]):
        read_fwf(str(path), **kwargs)


# read_feather


def _feather(tmp_path: Path, frame: pd.DataFrame, batch_rows: int = 7) -> str:
    path = str(tmp_path / "a.feather")
    feather.write_feather(frame, path, chunksize=batch_rows)
    return path


@pytest.mark.parametrize("chunk_size", [None, 3, 10, 1000])
def test_read_feather_matches_pandas(tmp_path: Path, chunk_size: int | None) -> None:
    ranged = _frame().set_axis(pd.RangeIndex(10, 56, 2, name="r"))
    stored = _frame().set_index("s")
    for frame in (_frame(), ranged, stored):
        path = _feather(tmp_path, frame)
        for kwargs in ({}, {"columns": ["t", "i"]}, {"dtype_backend": "pyarrow"}):
            got = read_feather(path, chunk_size=chunk_size, **kwargs)
            assert got.shape == (len(frame), len(kwargs.get("columns", frame.columns)))
            sizes = {None: 7, 3: 3, 10: 10, 1000: 23}[chunk_size]
            assert _chunk_rows(got)[0] == sizes
            _same(got, pd.read_feather(path, **kwargs))


def test_read_feather_errors(tmp_path: Path) -> None:
    path = _feather(tmp_path, _frame())
    with pytest.raises(pa.ArrowInvalid, match="nowhere"):
        pd.read_feather(path, columns=["nowhere"])
    with pytest.raises(pa.ArrowInvalid, match="nowhere"):
        read_feather(path, columns=["nowhere"])
    with pytest.raises(FileNotFoundError):
        read_feather(str(tmp_path / "missing.feather"))
    with pytest.raises(ValueError, match="chunk_size"):
        read_feather(path, chunk_size=0)
    with pytest.raises(ValueError, match="dtype_backend"):
        read_feather(path, dtype_backend="numpy")


def test_plan_pieces_cuts_and_joins_blocks() -> None:
    assert plan_pieces([2, 2, 5], 3) == [
        ((0, 0, 2), (1, 0, 1)),
        ((1, 1, 2), (2, 0, 2)),
        ((2, 2, 5),),
    ]
    assert plan_pieces([], None) == [()]


# read_orc


def _orc(tmp_path: Path, n: int = 3000) -> str:
    path = str(tmp_path / "a.orc")
    frame = _frame(n).drop(columns="t")
    orc.write_table(pa.Table.from_pandas(frame, preserve_index=False), path, stripe_size=4096)
    return path


@pytest.mark.parametrize("chunk_size", [None, 1000, 10**6])
def test_read_orc_matches_pandas(tmp_path: Path, chunk_size: int | None) -> None:
    path = _orc(tmp_path)
    assert orc.ORCFile(path).nstripes > 2
    for kwargs in ({}, {"columns": ["s", "i"]}, {"dtype_backend": "numpy_nullable"}):
        _same(read_orc(path, chunk_size=chunk_size, **kwargs), pd.read_orc(path, **kwargs))


def test_read_orc_errors(tmp_path: Path) -> None:
    path = _orc(tmp_path, 10)
    with pytest.raises(OSError, match="nowhere"):
        pd.read_orc(path, columns=["nowhere"])
    with pytest.raises(OSError, match="nowhere"):
        read_orc(path, columns=["nowhere"])
    with pytest.raises(FileNotFoundError):
        read_orc(str(tmp_path / "missing.orc"))
    with pytest.raises(TypeError, match="unexpected"):
        read_orc(path, stripes=[0])


# read_pickle


@pytest.mark.parametrize("chunk_size", [None, 4])
def test_read_pickle_matches_pandas(tmp_path: Path, chunk_size: int | None) -> None:
    frame = _frame()
    for data in (frame, frame["s"]):
        path = str(tmp_path / "a.pkl")
        data.to_pickle(path)
        got = read_pickle(path, chunk_size=chunk_size)
        if chunk_size is not None:
            assert _chunk_rows(got)[0] == chunk_size
        _same(got, pd.read_pickle(path))
    pd.to_pickle({"not": "a frame"}, path)
    assert read_pickle(path) == {"not": "a frame"}
    with pytest.raises(FileNotFoundError):
        read_pickle(str(tmp_path / "missing.pkl"))


# read_excel


@pytest.mark.parametrize("chunk_size", [None, 5])
def test_read_excel_matches_pandas(tmp_path: Path, chunk_size: int | None) -> None:
    path = str(tmp_path / "a.xlsx")
    frame = _frame().drop(columns="t")
    with pd.ExcelWriter(path) as writer:
        frame.to_excel(writer, sheet_name="one", index=False)
        frame.head(3).to_excel(writer, sheet_name="two")
    for kwargs in ({}, {"sheet_name": "two", "index_col": 0}, {"usecols": "A:B", "skiprows": [2]}):
        _same(read_excel(path, chunk_size=chunk_size, **kwargs), pd.read_excel(path, **kwargs))
    sheets = read_excel(path, sheet_name=None, chunk_size=chunk_size)
    for name, want in pd.read_excel(path, sheet_name=None).items():
        _same(sheets[name], want)
    with pytest.raises(ValueError, match="not found"):
        read_excel(path, sheet_name="nowhere")


# read_hdf


def _hdf(tmp_path: Path) -> str:
    path = str(tmp_path / "a.h5")
    frame = _frame().drop(columns="t").set_axis(pd.Index(np.arange(23) * 3, name="k"))
    frame.to_hdf(path, key="fixed", format="fixed")
    frame.to_hdf(path, key="table", format="table", data_columns=["i"])
    frame["f"].to_hdf(path, key="series", format="fixed")
    return path


@pytest.mark.parametrize("chunk_size", [None, 4])
def test_read_hdf_matches_pandas(tmp_path: Path, chunk_size: int | None) -> None:
    path = _hdf(tmp_path)
    cases: list[dict[str, Any]] = [
        {"key": "fixed"},
        {"key": "series"},
        {"key": "fixed", "start": 3, "stop": -4},
        {"key": "table", "where": "i > 6 & i < 19"},
        {"key": "table", "columns": ["s", "f"], "start": 5},
    ]
    for kwargs in cases:
        _same(read_hdf(path, chunk_size=chunk_size, **kwargs), pd.read_hdf(path, **kwargs))
    single = str(tmp_path / "one.h5")
    _frame(5).drop(columns="t").to_hdf(single, key="only")
    _same(read_hdf(single, chunk_size=chunk_size), pd.read_hdf(single))


def test_read_hdf_errors_are_pandas(tmp_path: Path) -> None:
    path = _hdf(tmp_path)
    cases: list[tuple[dict[str, Any], Any]] = [
        ({"key": "fixed", "columns": ["s"]}, TypeError),
        ({"key": "nowhere"}, KeyError),
        ({}, ValueError),
        ({"key": "table", "where": "nowhere > 3"}, ValueError),
    ]
    for kwargs, error in cases:
        with pytest.raises(error) as expected:
            pd.read_hdf(path, **kwargs)
        with pytest.raises(error, match=str(expected.value)[:25]):
            read_hdf(path, **kwargs)
    with pytest.raises(FileNotFoundError):
        read_hdf(str(tmp_path / "missing.h5"), key="fixed")
    with pytest.raises(NotImplementedError, match="chunk_size"):
        read_hdf(path, key="table", chunksize=3)
