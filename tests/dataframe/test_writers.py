"""Every writer serves both habits: pandas' (the call writes) and Mars's (``.execute()``
on what the call returned gives it back without writing again)."""

from __future__ import annotations

import io
import os
import pickle
import sqlite3
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import jupyter_mars.dataframe as md
from tests.dataframe.helpers import CHUNKS, lazy_copy

FRAME = pd.DataFrame({"a": [1, 2, 3, 4, 5], "b": [0.5, 1.5, None, 3.5, 4.5], "c": list("vwxyz")})

WRITERS: list[tuple[str, str, dict[str, Any], Any]] = [
    ("to_csv", "f.csv", {}, lambda p: pd.read_csv(p, index_col=0)),
    ("to_parquet", "f.parquet", {}, pd.read_parquet),
    ("to_json", "f.json", {}, pd.read_json),
    ("to_json", "f.jsonl", {"orient": "records", "lines": True}, None),
    ("to_pickle", "f.pkl", {}, pd.read_pickle),
    ("to_excel", "f.xlsx", {}, lambda p: pd.read_excel(p, index_col=0)),
    ("to_feather", "f.feather", {}, pd.read_feather),
    ("to_orc", "f.orc", {}, pd.read_orc),
    ("to_xml", "f.xml", {}, None),
    ("to_stata", "f.dta", {"write_index": False}, None),
    ("to_hdf", "f.h5", {"key": "k"}, lambda p: pd.read_hdf(p, "k")),
    ("to_string", "f.txt", {}, None),
    ("to_html", "f.html", {}, None),
    ("to_markdown", "f.md", {}, None),
    ("to_latex", "f.tex", {}, None),
]


def _expected(tmp_path: Path, method: str, name: str, kwargs: dict[str, Any]) -> Path:
    """The file pandas writes from the same data."""
    path = tmp_path / f"expected-{name}"
    getattr(FRAME, method)(path, **kwargs)
    return path


@pytest.mark.parametrize(("method", "name", "kwargs", "reader"), WRITERS)
@pytest.mark.parametrize("chunk", [2, None])
def test_writer_writes_at_the_call_and_execute_does_not_write_again(
    tmp_path: Path, method: str, name: str, kwargs: dict[str, Any], reader: Any, chunk: int | None
) -> None:
    path = tmp_path / name
    out = getattr(lazy_copy(FRAME, chunk), method)(str(path), **kwargs)
    expected = _expected(tmp_path, method, name, kwargs)
    if reader is not None:
        pd.testing.assert_frame_equal(reader(path), reader(expected))
    elif method == "to_stata":  # the file's header holds the time it was written
        pd.testing.assert_frame_equal(pd.read_stata(path), pd.read_stata(expected))
    else:
        assert path.read_bytes() == expected.read_bytes()
    os.remove(path)
    # Mars's habit: the result is already executed; executing it writes nothing again
    assert out.execute() is out
    assert not path.exists()
    assert out.fetch().empty


@pytest.mark.parametrize("chunk", CHUNKS)
def test_writers_without_a_target_return_the_text(chunk: int | None) -> None:
    df = lazy_copy(FRAME, chunk)
    assert df.to_csv() == FRAME.to_csv()
    assert df.to_csv(index=False, sep=";") == FRAME.to_csv(index=False, sep=";")
    assert df.to_json() == FRAME.to_json()
    assert df.to_json(orient="records", lines=True) == FRAME.to_json(orient="records", lines=True)
    assert df.to_string() == FRAME.to_string()
    assert df.to_html() == FRAME.to_html()
    assert df.to_markdown() == FRAME.to_markdown()
    assert df.to_latex() == FRAME.to_latex()
    assert df.to_xml() == FRAME.to_xml()
    pd.testing.assert_frame_equal(pd.read_parquet(io.BytesIO(df.to_parquet())), FRAME)
    pd.testing.assert_frame_equal(pd.read_orc(io.BytesIO(df.to_orc())), FRAME)
    s = df["c"]
    assert s.to_csv() == FRAME["c"].to_csv()
    assert s.to_string() == FRAME["c"].to_string()
    assert s.to_markdown() == FRAME["c"].to_markdown()


def test_writers_into_a_buffer() -> None:
    df = lazy_copy(FRAME, 2)
    buf = io.StringIO()
    out = df.to_csv(buf)
    assert buf.getvalue() == FRAME.to_csv()
    assert out.execute() is out
    assert buf.getvalue() == FRAME.to_csv()
    raw = io.BytesIO()
    df.to_pickle(raw)
    pd.testing.assert_frame_equal(pickle.loads(raw.getvalue()), FRAME)


def test_series_writers(tmp_path: Path) -> None:
    s = lazy_copy(FRAME["b"], 2)
    out = s.to_pickle(str(tmp_path / "s.pkl"))
    pd.testing.assert_series_equal(pd.read_pickle(tmp_path / "s.pkl"), FRAME["b"])
    os.remove(tmp_path / "s.pkl")
    out.execute()
    assert not (tmp_path / "s.pkl").exists()
    assert not hasattr(md.Series, "to_html")


def test_to_sql_returns_the_rows_and_execute_does_not_write_again(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    rows = lazy_copy(FRAME, 2).to_sql("t", url, index=False)
    assert rows == len(FRAME)
    assert isinstance(rows, int)
    assert rows.execute() == len(FRAME)
    assert rows.fetch() == len(FRAME)
    with sqlite3.connect(tmp_path / "db.sqlite") as con:
        assert con.execute("select count(*) from t").fetchone() == (len(FRAME),)


def test_pandas_errors_at_the_call(tmp_path: Path) -> None:
    df = lazy_copy(FRAME, 2)
    with pytest.raises(ValueError, match="orient"):
        df.to_json(str(tmp_path / "x.json"), orient="nope")
    with pytest.raises(TypeError, match="twice"):
        df.to_csv(str(tmp_path / "x.csv"), path_or_buf=str(tmp_path / "y.csv"))
    assert os.listdir(tmp_path) == []
