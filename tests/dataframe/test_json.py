"""read_json, to_json (JSON Lines) and Series.to_csv against pandas, over byte chunkings."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
import jupyter_mars.dataframe.io  # noqa: F401 - attaches to_json, Series.to_csv
from jupyter_mars.dataframe.io import read_csv, read_json
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks

CHUNK_BYTES = [1, 37, 100, 10**9]
"""Every line its own chunk (and many empty ones), uneven chunks, one chunk per file."""


def _frame(n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "i": np.arange(n),
            "f": np.where(rng.random(n) < 0.2, np.nan, rng.random(n).round(3)),
            "s": [None if k % 5 == 0 else f"w{k % 7}" for k in range(n)],
            "b": rng.random(n) < 0.5,
        }
    )


def _read(path: Path) -> str:
    with open(path) as f:
        return f.read()


@pytest.mark.parametrize("chunk_bytes", CHUNK_BYTES)
def test_read_lines(tmp_path: Path, chunk_bytes: int) -> None:
    path = tmp_path / "a.jsonl"
    _frame(30).to_json(path, orient="records", lines=True)
    got = read_json(str(path), lines=True, chunk_bytes=chunk_bytes)
    expected = pd.read_json(path, lines=True)
    assert list(got.dtypes) == list(expected.dtypes)
    pd.testing.assert_frame_equal(got.to_pandas(), expected)
    assert got.shape == (30, 4)


@pytest.mark.parametrize("blocksize", [1, 50, 10**9])
def test_glob_dtype_and_dates(tmp_path: Path, blocksize: int) -> None:
    parts = [_frame(n, seed=n) for n in (4, 0, 9)]
    for k, part in enumerate(parts):
        part.assign(created_at=pd.date_range("2024", periods=len(part), freq="D")).to_json(
            tmp_path / f"p{k}.jsonl", orient="records", lines=True, date_format="iso"
        )
    files = [tmp_path / f"p{k}.jsonl" for k in range(3)]
    kwargs: dict[str, Any] = {"dtype": {"i": "float64"}}
    expected = pd.concat(
        [pd.read_json(f, lines=True, **kwargs) for f in files if os.path.getsize(f) > 1],
        ignore_index=True,
    )
    got = read_json(str(tmp_path / "p*.jsonl"), lines=True, blocksize=blocksize, **kwargs)
    pd.testing.assert_frame_equal(got.to_pandas(), expected)


def test_blank_lines_and_missing_keys(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_text('{"a":1,"b":"x"}\n\n{"a":2}\n{"a":3,"b":"z"}\n\n')
    for chunk_bytes in CHUNK_BYTES:
        got = read_json(str(path), lines=True, chunk_bytes=chunk_bytes).to_pandas()
        pd.testing.assert_frame_equal(got, pd.read_json(path, lines=True))


def test_not_lines_reads_whole_document(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    _frame(12).to_json(path, orient="split")
    got = read_json(str(path), orient="split", chunk_size=5)
    pd.testing.assert_frame_equal(got.to_pandas(), pd.read_json(path, orient="split"))


def test_errors_at_build_time(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="nope.jsonl"):
        read_json(str(tmp_path / "nope.jsonl"), lines=True)
    path = tmp_path / "a.jsonl"
    _frame(3).to_json(path, orient="records", lines=True)
    with pytest.raises(ValueError, match="chunk_bytes"):
        read_json(str(path), lines=True, chunk_bytes=0)
    with pytest.raises(NotImplementedError, match="chunksize"):
        read_json(str(path), lines=True, chunksize=2)


# A failed job interrupts its other running chunk tasks; one interrupted just as its
# open() returns (CPython raises the interrupt before the with statement takes the file)
# leaves that file to the collector, which warns. The error raised is what is checked.
@pytest.mark.filterwarnings("ignore::ResourceWarning")
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_keys_appearing_late_need_to_fit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from jupyter_mars.dataframe.io import json_read

    path = tmp_path / "a.jsonl"
    path.write_text('{"x":1}\n' * 40 + '{"x":"oops"}\n')
    monkeypatch.setattr(json_read, "SAMPLE_BYTES", 30)
    with pytest.raises(ValueError, match="pass dtype="):
        read_json(str(path), lines=True, chunk_bytes=64).to_pandas()
    got = read_json(str(path), lines=True, chunk_bytes=64, dtype={"x": object}).to_pandas()
    pd.testing.assert_frame_equal(got, pd.read_json(path, lines=True, dtype={"x": object}))


@pytest.mark.parametrize("chunk_size", [1, 3, None])
def test_to_json_lines(tmp_path: Path, chunk_size: int | None) -> None:
    frame = _frame(10).assign(t=pd.date_range("2024", periods=10, freq="h"))
    path = tmp_path / "out.jsonl"
    md.DataFrame(frame, chunk_size=chunk_size).to_json(
        str(path), orient="records", lines=True, date_format="iso"
    )
    assert os.listdir(tmp_path) == ["out.jsonl"]
    assert _read(path) == frame.to_json(orient="records", lines=True, date_format="iso")
    got = read_json(str(path), lines=True, chunk_bytes=40).to_pandas()
    pd.testing.assert_frame_equal(got, pd.read_json(path, lines=True))
    md.DataFrame(frame.iloc[:0], chunk_size=chunk_size).to_json(
        str(path), orient="records", lines=True, date_format="iso"
    )
    assert _read(path) == frame.iloc[:0].to_json(orient="records", lines=True, date_format="iso")
    series = frame["f"]
    md.Series(series, chunk_size=chunk_size).to_json(str(path), orient="records", lines=True)
    assert _read(path) == series.to_json(orient="records", lines=True)


def _fail_on_second(chunk: pd.DataFrame) -> pd.DataFrame:
    if len(chunk) and chunk["i"].iloc[0] >= 3:
        raise RuntimeError("chunk failed")
    return chunk


def test_to_json_failure_leaves_nothing(tmp_path: Path) -> None:
    df = md.DataFrame(_frame(8), chunk_size=3)
    failing = map_chunks(_fail_on_second, [df], (Slot(0),), df.meta)
    with pytest.raises(RuntimeError, match="chunk failed"):
        failing.to_json(str(tmp_path / "out.jsonl"), orient="records", lines=True)
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("chunk_size", [1, 3, None])
def test_series_to_csv(tmp_path: Path, chunk_size: int | None) -> None:
    series = pd.Series(np.arange(7) * 1.5, name="v", index=pd.Index(list("abcdefg"), name="k"))
    path = tmp_path / "s.csv"
    md.Series(series, chunk_size=chunk_size).to_csv(str(path))
    assert _read(path) == series.to_csv()
    unnamed = pd.Series([1, None, 3.5])
    md.Series(unnamed, chunk_size=chunk_size).to_csv(str(path), index=False, header=False)
    assert _read(path) == unnamed.to_csv(index=False, header=False)
    # DataFrame.to_csv still writes the same as pandas
    frame = _frame(7)
    md.DataFrame(frame, chunk_size=chunk_size).to_csv(str(path), index=False)
    assert _read(path) == frame.to_csv(index=False)
    pd.testing.assert_frame_equal(read_csv(str(path), chunk_bytes=30).to_pandas(), frame)


@given(
    st.lists(
        st.tuples(
            st.integers(-5, 5),
            st.one_of(st.none(), st.floats(-10, 10, allow_subnormal=False)),
            st.sampled_from(["a", "bb", "c d"]),
        ),
        min_size=1,
        max_size=12,
    ),
    st.sampled_from([1, 20, 10**6]),
)
def test_round_trip_hypothesis(tmp_path: Path, rows: list[Any], chunk_bytes: int) -> None:
    frame = pd.DataFrame(rows, columns=["i", "f", "s"]).astype({"i": "int64", "f": "float64"})
    path = tmp_path / "h.jsonl"
    md.DataFrame(frame, chunk_size=3).to_json(str(path), orient="records", lines=True)
    assert _read(path) == frame.to_json(orient="records", lines=True)
    got = read_json(str(path), lines=True, chunk_bytes=chunk_bytes, dtype={"f": "float64"})
    pd.testing.assert_frame_equal(
        got.to_pandas(), pd.read_json(path, lines=True, dtype={"f": "float64"})
    )
