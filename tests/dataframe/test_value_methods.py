"""between, case_when, repeat, to_frame, to_series, set_flags, attrs, autocorr and
from_arrow against pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import jupyter_mars.dataframe as md
from tests.dataframe.helpers import CHUNKS, lazy_copy

DATA = pd.Series([3.0, np.nan, 9.0, 1.0, 9.0, 4.0], index=list("abcdef"), name="x")


@pytest.mark.parametrize("chunk", CHUNKS)
def test_between_and_case_when(chunk: int | None) -> None:
    s = lazy_copy(DATA, chunk)
    for inclusive in ("both", "neither", "left", "right"):
        got = s.between(2, 9, inclusive=inclusive)
        pd.testing.assert_series_equal(got.to_pandas(), DATA.between(2, 9, inclusive=inclusive))
    pd.testing.assert_series_equal(s.between(s - 1, 9).to_pandas(), DATA.between(DATA - 1, 9))
    got = s.case_when([(s > 5, 0), (lambda v: v < 2, s * 10)])
    expected = DATA.case_when([(DATA > 5, 0), (lambda v: v < 2, DATA * 10)])
    pd.testing.assert_series_equal(got.to_pandas(), expected)
    mask = np.array([True, False] * 3)
    got = s.case_when([(mask, -1.0)])
    pd.testing.assert_series_equal(got.to_pandas(), DATA.case_when([(mask, -1.0)]))


@pytest.mark.parametrize("chunk", CHUNKS)
def test_repeat_to_frame_and_flags(chunk: int | None) -> None:
    s = lazy_copy(DATA, chunk)
    pd.testing.assert_series_equal(s.repeat(2).to_pandas(), DATA.repeat(2))
    counts = [1, 0, 2, 1, 1, 3]
    pd.testing.assert_series_equal(s.repeat(counts).to_pandas(), DATA.repeat(counts))
    pd.testing.assert_frame_equal(s.to_frame().to_pandas(), DATA.to_frame())
    pd.testing.assert_frame_equal(s.to_frame("z").to_pandas(), DATA.to_frame("z"))
    index = pd.Index([3, 1, 2], name="k")
    lazy_index = md.Index(index, chunk_size=chunk or 3)
    pd.testing.assert_frame_equal(lazy_index.to_frame().to_pandas(), index.to_frame())
    pd.testing.assert_frame_equal(
        lazy_index.to_frame(index=False, name="n").to_pandas(),
        index.to_frame(index=False, name="n"),
    )
    pd.testing.assert_series_equal(lazy_index.to_series().to_pandas(), index.to_series())
    pd.testing.assert_index_equal(lazy_index.repeat(2).to_pandas(), index.repeat(2))
    flagged = s.set_flags(allows_duplicate_labels=False)
    assert flagged.flags.allows_duplicate_labels is False
    assert s.flags.allows_duplicate_labels is True
    expected = DATA.set_flags(allows_duplicate_labels=False)
    pd.testing.assert_series_equal(flagged.to_pandas(), expected)


def test_autocorr_and_attrs() -> None:
    s = md.Series(DATA, chunk_size=2)
    for lag in (1, 2, -1):
        assert s.autocorr(lag).execute().fetch() == pytest.approx(DATA.autocorr(lag))
    df = md.DataFrame({"a": [1, 2]})
    assert df.attrs == {}
    df.attrs = {"source": "test"}
    assert df.attrs == {"source": "test"}


def test_from_arrow() -> None:
    table = pa.table({"a": [1, 2, 3], "b": ["x", "y", "z"]})
    got = md.DataFrame.from_arrow(table, chunk_size=2)
    pd.testing.assert_frame_equal(got.to_pandas(), pd.DataFrame.from_arrow(table))
    array = pa.chunked_array([[1.5, 2.5]])
    pd.testing.assert_series_equal(
        md.Series.from_arrow(array).to_pandas(), pd.Series.from_arrow(array)
    )


def test_bad_arguments_raise_at_the_call() -> None:
    s = md.Series(DATA, chunk_size=2)
    with pytest.raises(ValueError, match="Inclusive"):
        s.between(1, 2, inclusive="bad")
    with pytest.raises(TypeError, match="caselist"):
        s.case_when((s > 1, 0))
    with pytest.raises(TypeError, match="repeats"):
        s.repeat(1.5)
    with pytest.raises(ValueError, match="No axis named 1"):
        s.repeat(2, axis=1)
    with pytest.raises(TypeError, match="lag"):
        s.autocorr("1")
