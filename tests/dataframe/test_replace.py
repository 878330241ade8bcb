"""replace against pandas over several row chunkings, in every form pandas takes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from tests.dataframe.helpers import CHUNKS, lazy_copy


def _frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "a": [1, 2, 3, 1, 5, 1, 7],
            "b": [1.5, np.nan, 3.0, 1.0, 2.0, 1.0, 0.0],
            "c": list("xyzxyab"),
        },
        index=pd.Index(list("pqrstuv"), name="k"),
    )


CASES: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((1, 10), {}),
    ((1, 2.5), {}),
    (([1, 2], 0), {}),
    (([1, 2], [20, 30]), {}),
    (({1: 100, "x": "X"},), {}),
    (({"a": {1: -1}, "c": {"y": "Y"}},), {}),
    (({"a": 1, "b": 1.0}, 99), {}),
    ((1, {"a": 5, "b": 6}), {}),
    ((r"^[xy]$", "Q"), {"regex": True}),
    ((), {"regex": {"x": "w"}}),
    (("x", 1), {}),
    ((1, None), {}),
    ((np.nan, 0), {}),
]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize(("args", "kwargs"), CASES)
def test_replace_frame_matches_pandas(chunk: int | None, args: Any, kwargs: Any) -> None:
    pdf = _frame()
    got = lazy_copy(pdf, chunk).replace(*args, **kwargs)
    expected = pdf.replace(*args, **kwargs)
    pd.testing.assert_series_equal(got.dtypes, expected.dtypes)
    pd.testing.assert_frame_equal(got.to_pandas(), expected)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_replace_series_matches_pandas(chunk: int | None) -> None:
    s = _frame()["c"]
    for args in [("x", "X"), ({"x": "1", "y": "2"},), (["a", "b"], "ab")]:
        got = lazy_copy(s, chunk).replace(*args)
        pd.testing.assert_series_equal(got.to_pandas(), s.replace(*args))
    got = lazy_copy(s, chunk).replace(r"[a-x]", "_", regex=True)
    pd.testing.assert_series_equal(got.to_pandas(), s.replace(r"[a-x]", "_", regex=True))


def test_replace_upcasts_every_chunk_alike() -> None:
    """A match in one chunk only still gives one dtype: the one pandas gives on a match."""
    s = pd.Series([1, 2, 3, 4])
    got = md.Series(s, chunk_size=2).replace(1, 0.5)
    assert got.dtype == np.float64
    pd.testing.assert_series_equal(got.to_pandas(), s.replace(1, 0.5))


def test_replace_bad_arguments_raise_at_the_call() -> None:
    df = md.DataFrame(_frame(), chunk_size=3)
    with pytest.raises(ValueError, match="length"):
        df.replace([1, 2], [1, 2, 3])
    with pytest.raises(TypeError):
        df.replace(1, 2, method="pad")


@given(
    st.lists(st.integers(0, 4), min_size=1, max_size=12),
    st.integers(1, 5),
    st.lists(st.integers(0, 4), min_size=1, max_size=3),
)
def test_replace_any_chunking(values: list[int], chunk: int, olds: list[int]) -> None:
    s = pd.Series(values, dtype=np.int64)
    got = md.Series(s, chunk_size=chunk).replace(olds, -1).to_pandas()
    pd.testing.assert_series_equal(got, s.replace(olds, -1))
