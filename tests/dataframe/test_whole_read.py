"""Readers of formats read whole (Stata, SAS, XML, HTML), and md.to_pickle, against
pandas on the same files over two chunkings."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md

FRAME = pd.DataFrame(
    {"a": np.arange(7, dtype="int32"), "b": np.linspace(0, 1, 7), "c": list("uvwxyzq")}
)


@pytest.mark.parametrize("chunk", [2, None])
def test_read_stata(tmp_path, chunk):
    path = tmp_path / "data.dta"
    FRAME.to_stata(path, write_index=False)
    got = md.read_stata(path, chunk_size=chunk)
    pd.testing.assert_frame_equal(got.to_pandas(), pd.read_stata(path))
    pd.testing.assert_frame_equal(
        md.read_stata(path, columns=["b"], chunk_size=chunk).to_pandas(),
        pd.read_stata(path, columns=["b"]),
    )


@pytest.mark.parametrize("chunk", [3, None])
def test_read_xml(tmp_path, chunk):
    path = tmp_path / "data.xml"
    FRAME.to_xml(path, index=False)
    pd.testing.assert_frame_equal(
        md.read_xml(path, chunk_size=chunk).to_pandas(), pd.read_xml(path)
    )


@pytest.mark.parametrize("chunk", [3, None])
def test_read_html_gives_a_lazy_frame_per_table(tmp_path, chunk):
    path = tmp_path / "page.html"
    path.write_text(FRAME.to_html(index=False) + FRAME.iloc[:2].to_html(index=False))
    got = md.read_html(str(path), chunk_size=chunk)
    want = pd.read_html(str(path))
    assert len(got) == len(want) == 2
    for lazy, table in zip(got, want, strict=True):
        pd.testing.assert_frame_equal(lazy.to_pandas(), table)


def test_read_sas_raises_pandas_errors(tmp_path):
    path = tmp_path / "missing.xpt"
    with pytest.raises(FileNotFoundError):
        pd.read_sas(path)
    with pytest.raises(FileNotFoundError):
        md.read_sas(path)


def test_to_pickle_writes_lazy_and_pandas_objects(tmp_path):
    lazy = md.DataFrame(FRAME, chunk_size=3)
    md.to_pickle(lazy, tmp_path / "lazy.pkl")
    pd.testing.assert_frame_equal(pd.read_pickle(tmp_path / "lazy.pkl"), FRAME)
    md.to_pickle(FRAME["b"], tmp_path / "plain.pkl")
    pd.testing.assert_series_equal(pd.read_pickle(tmp_path / "plain.pkl"), FRAME["b"])
    pd.testing.assert_frame_equal(md.read_pickle(tmp_path / "lazy.pkl").to_pandas(), FRAME)
