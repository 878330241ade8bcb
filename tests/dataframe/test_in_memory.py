"""``md.json_normalize``, ``md.array`` and ``md.infer_freq`` against pandas."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt

RECORDS: list[dict[str, Any]] = [
    {"id": 1, "name": {"first": "Coleen", "last": "Volk"}, "tags": [{"t": "a"}, {"t": "b"}]},
    {"id": 2, "name": {"given": "Mark", "family": "Regner"}, "tags": [{"t": "c"}]},
    {"id": 3, "name": {"first": "Faye"}, "tags": []},
]


@pytest.mark.parametrize("chunk", [1, 2, None])
@pytest.mark.parametrize(
    "kwargs",
    [{}, {"max_level": 0}, {"record_path": "tags", "meta": ["id"], "record_prefix": "tag."}],
)
def test_json_normalize_gives_pandas_table_in_chunks(
    chunk: int | None, kwargs: dict[str, Any]
) -> None:
    got = md.json_normalize(RECORDS, **kwargs, chunk_size=chunk)
    expected = pd.json_normalize(RECORDS, **kwargs)
    assert isinstance(got, md.DataFrame)
    pd.testing.assert_frame_equal(got.to_pandas(), expected)
    with pytest.raises(KeyError):
        md.json_normalize(RECORDS, record_path="missing")


def test_array_passes_through_and_fetches_lazy_values() -> None:
    expected = pd.array([1, None, 3], dtype="Int64")
    pd.testing.assert_extension_array_equal(md.array([1, None, 3], dtype="Int64"), expected)
    lazy = md.Series(pd.Series([1.0, np.nan, 3.0]), chunk_size=2)
    pd.testing.assert_extension_array_equal(md.array(lazy, dtype="Int64"), expected)
    values = md.array(mt.tensor(np.arange(4), chunk_size=3))
    pd.testing.assert_extension_array_equal(values, pd.array(np.arange(4)))


@pytest.mark.parametrize(
    "index",
    [
        pd.date_range("2024-01-01", periods=10, freq="h"),
        pd.date_range("2024-01-31", periods=6, freq="ME"),
        pd.DatetimeIndex(["2024-01-01", "2024-01-02", "2024-01-05"]),
        pd.timedelta_range("1 day", periods=5, freq="15min"),
    ],
)
@pytest.mark.parametrize("offsets", [True, False])
def test_infer_freq_of_lazy_index_and_series(index: pd.Index, offsets: bool) -> None:
    # pandas' option (set through md) picks whether a frequency is an offset or a string
    with md.option_context("future.infer_freq_returns_offset", offsets):
        expected = pd.infer_freq(index)
        assert md.infer_freq(index) == expected
        assert md.infer_freq(md.Index(index, chunk_size=2)) == expected
        assert md.infer_freq(md.Series(index.to_series(), chunk_size=3)) == expected


def test_infer_freq_checks_the_dtype_before_running() -> None:
    for values in (pd.Series([1, 2, 3]), pd.Index([1, 2, 3])):
        with pytest.raises(TypeError) as expected:
            pd.infer_freq(values)
        lazy = (
            md.Series(values, chunk_size=2) if isinstance(values, pd.Series) else md.Index(values)
        )
        with pytest.raises(expected.type):
            md.infer_freq(lazy)
    with pytest.raises(TypeError):
        md.infer_freq(md.DataFrame(pd.DataFrame({"a": [1]})))
