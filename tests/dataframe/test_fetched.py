"""Methods that return data to Python fetch and give pandas' values."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md
from tests.dataframe.helpers import CHUNKS, labelled_frame, lazy_copy

FRAME = labelled_frame(7)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_frame_to_python(chunk: int | None) -> None:
    df = lazy_copy(FRAME, chunk)
    for orient in ("dict", "list", "series", "split", "tight", "records", "index"):
        got, expected = df.to_dict(orient), FRAME.to_dict(orient)
        if orient == "series":
            for key in expected:
                pd.testing.assert_series_equal(got[key], expected[key])
        else:  # as text: NaN is not equal to itself
            assert repr(got) == repr(expected)
    assert repr(list(df.itertuples())) == repr(list(FRAME.itertuples()))
    assert repr(list(df.itertuples(False, None))) == repr(list(FRAME.itertuples(False, None)))
    for (k1, r1), (k2, r2) in zip(df.iterrows(), FRAME.iterrows(), strict=True):
        assert k1 == k2
        pd.testing.assert_series_equal(r1, r2)
    for (c1, s1), (c2, s2) in zip(df.items(), FRAME.items(), strict=True):
        assert c1 == c2
        pd.testing.assert_series_equal(s1, s2)
    assert repr(df.to_records()) == repr(FRAME.to_records())
    assert df.equals(lazy_copy(FRAME, 2))
    assert df.equals(FRAME)
    assert not df.equals(lazy_copy(FRAME.astype({"a": "float64"}), 2))
    assert not df.equals(lazy_copy(FRAME.iloc[::-1], chunk))
    assert not df.equals(df["a"])


@pytest.mark.parametrize("chunk", CHUNKS)
def test_series_and_index_to_python(chunk: int | None) -> None:
    data = FRAME["b"]
    s = lazy_copy(data, chunk)
    assert repr(s.to_list()) == repr(data.to_list())
    assert repr(s.tolist()) == repr(data.tolist())
    assert repr(s.to_dict()) == repr(data.to_dict())
    assert repr(list(s.items())) == repr(list(data.items()))
    pd.testing.assert_extension_array_equal(s.array, data.array)
    codes, uniques = lazy_copy(FRAME["a"], chunk).factorize()
    expected_codes, expected_uniques = FRAME["a"].factorize()
    np.testing.assert_array_equal(codes, expected_codes)
    pd.testing.assert_index_equal(uniques, expected_uniques)
    assert md.Series([5], chunk_size=1).item() == 5
    assert md.Index(pd.Index([1, 2]), chunk_size=1).to_list() == [1, 2]
    assert s.equals(data)
    assert s.equals(lazy_copy(data, 2))
    assert not s.equals(lazy_copy(data.astype("float32"), 2))


def test_errors_are_pandas_and_come_before_running() -> None:
    df = md.DataFrame(FRAME, chunk_size=3)
    with pytest.raises(ValueError, match="orient"):
        df.to_dict("nope")
    with pytest.raises(ValueError, match="can only convert an array of size 1"):
        df["a"].item()
    with pytest.raises(TypeError, match="item"):
        df["a"].item(0)


def test_to_xarray_and_style() -> None:
    df = md.DataFrame(FRAME, chunk_size=3)
    assert df.to_xarray().equals(FRAME.to_xarray())
    assert df.style.set_uuid("u").to_html() == FRAME.style.set_uuid("u").to_html()


@pytest.mark.parametrize("batch_size", [1, 2, 1000])
def test_iteration_fetches_in_batches(batch_size: int) -> None:
    df = md.DataFrame(FRAME, chunk_size=3)
    kept = df[df["a"] > 0]
    expected = FRAME[FRAME["a"] > 0]
    rows = list(kept.iterrows(batch_size=batch_size))
    assert [k for k, _ in rows] == list(expected.index)
    pd.testing.assert_series_equal(rows[-1][1], list(expected.iterrows())[-1][1])
    got = list(kept.itertuples(index=False, name=None, batch_size=batch_size))
    assert repr(got) == repr(list(expected.itertuples(index=False, name=None)))
    values = list(kept["c"].items(batch_size=batch_size))
    assert values == list(expected["c"].items())
    assert list(df[df["a"] > 100].iterrows()) == []
    with pytest.raises(ValueError, match="batch_size"):
        next(df.iterrows(batch_size=0))
