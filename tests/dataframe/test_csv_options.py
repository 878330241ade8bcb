"""read_csv's index_col and Mars's keywords against pandas, over several byte chunkings."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md
from jupyter_mars.dataframe.io.csv_options import index_labels, parse_bytes

CHUNK_BYTES = [1, "100", "1k", "1G"]


def _path(tmp_path: Path) -> str:
    frame = pd.DataFrame(
        {"id": np.arange(40) * 3, "g": list("abcd") * 10, "v": np.linspace(0, 1, 40).round(3)}
    )
    path = str(tmp_path / "a.csv")
    frame.to_csv(path, index=False)
    return path


@pytest.mark.parametrize("chunk_bytes", CHUNK_BYTES)
@pytest.mark.parametrize("index_col", [0, "g", ["g", "id"], [-1], False])
def test_index_col_matches_pandas(tmp_path, chunk_bytes, index_col):
    path = _path(tmp_path)
    got = md.read_csv(path, chunk_bytes=chunk_bytes, index_col=index_col)
    want = pd.read_csv(path, index_col=index_col)
    assert list(got.columns) == list(want.columns)
    pd.testing.assert_frame_equal(got.to_pandas(), want)


def test_index_col_with_usecols_and_dtype(tmp_path):
    path = _path(tmp_path)
    kwargs = dict(usecols=["id", "v"], index_col="id", dtype={"v": "float32"})
    got = md.read_csv(path, chunk_bytes=50, **kwargs).to_pandas()
    pd.testing.assert_frame_equal(got, pd.read_csv(path, **kwargs))


@pytest.mark.parametrize("chunk_bytes", [60, "1G"])
def test_use_arrow_dtype_and_head_options(tmp_path, chunk_bytes):
    path = _path(tmp_path)
    got = md.read_csv(path, chunk_bytes=chunk_bytes, use_arrow_dtype=True, head_lines=5)
    pd.testing.assert_frame_equal(got.to_pandas(), pd.read_csv(path, dtype_backend="pyarrow"))
    small_head = md.read_csv(path, chunk_bytes=chunk_bytes, head_bytes="1k", memory_scale=2)
    pd.testing.assert_frame_equal(small_head.to_pandas(), pd.read_csv(path))


def test_incremental_index_false_keeps_each_chunks_labels(tmp_path):
    path = _path(tmp_path)
    got = md.read_csv(path, chunk_bytes=100, incremental_index=False).to_pandas()
    want = pd.read_csv(path)
    pd.testing.assert_frame_equal(got.reset_index(drop=True), want)
    assert (got.index == 0).sum() > 1  # every chunk starts at 0


def test_mars_keyword_errors_name_the_argument(tmp_path):
    path = _path(tmp_path)
    for bad in ("lots", "-5M", 0, True):
        with pytest.raises(ValueError, match="chunk_bytes"):
            md.read_csv(path, chunk_bytes=bad)
    with pytest.raises(ValueError, match="head_bytes"):
        md.read_csv(path, head_bytes="1x")
    with pytest.raises(ValueError, match="head_lines"):
        md.read_csv(path, head_lines=0)
    with pytest.raises(NotImplementedError, match="gpu"):
        md.read_csv(path, gpu=True)
    with pytest.raises(NotImplementedError, match="storage_options"):
        md.read_csv(path, storage_options={"anon": True})
    with pytest.raises(IndexError, match="index_col"):
        md.read_csv(path, index_col=5)
    with pytest.raises(ValueError, match="True"):
        md.read_csv(path, index_col=True)


def test_parse_bytes_and_index_labels():
    assert parse_bytes("64M", "x") == 64 * 2**20
    assert parse_bytes("2 KiB", "x") == 2048
    assert parse_bytes("0.5g", "x") == 2**29
    assert index_labels([1, "a"], ["a", "b"]) == ["b", "a"]
    assert index_labels(None, ["a"]) is None
