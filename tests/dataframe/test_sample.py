"""sample: the rows pandas picks for a seed, for any chunking."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from tests.dataframe.helpers import CHUNKS, labelled_frame, lazy_copy

CASES: list[dict[str, Any]] = [
    {"n": 3, "random_state": 0},
    {"frac": 0.5, "random_state": 7},
    {"n": 25, "replace": True, "random_state": 1},
    {"frac": 1.0, "random_state": 3, "ignore_index": True},
    {"n": 3, "weights": [0.0, 1, 2, 3, 1, 1, 2, 3, 1, 5], "random_state": 2},
    {"n": 4, "weights": "a", "random_state": 5},
    {"n": 0, "random_state": 0},
]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("kwargs", CASES)
def test_sample_picks_pandas_rows(chunk: int | None, kwargs: dict[str, Any]) -> None:
    pdf = labelled_frame()
    got = lazy_copy(pdf, chunk).sample(**kwargs).to_pandas()
    pd.testing.assert_frame_equal(got, pdf.sample(**kwargs))


@pytest.mark.parametrize("chunk", CHUNKS)
def test_sample_series_columns_and_generators(chunk: int | None) -> None:
    pdf = labelled_frame()
    df = lazy_copy(pdf, chunk)
    got = df.b.sample(5, random_state=np.random.RandomState(4)).to_pandas()
    pd.testing.assert_series_equal(got, pdf.b.sample(5, random_state=np.random.RandomState(4)))
    got = df.sample(2, axis=1, random_state=9).to_pandas()
    pd.testing.assert_frame_equal(got, pdf.sample(2, axis=1, random_state=9))
    filtered = df[df.a > 0].sample(3, random_state=0).to_pandas()  # length unknown
    pd.testing.assert_frame_equal(filtered, pdf[pdf.a > 0].sample(3, random_state=0))


def test_bad_arguments_raise_at_the_call() -> None:
    df = md.DataFrame(labelled_frame(), chunk_size=3)
    with pytest.raises(ValueError, match="replace"):
        df.sample(20)
    with pytest.raises(ValueError, match="frac"):
        df.sample(n=1, frac=0.5)
    with pytest.raises(ValueError, match="Weights and axis"):
        df.sample(2, weights=[1, 2])


@settings(max_examples=15)
@given(st.integers(1, 12), st.integers(1, 5), st.integers(0, 2**31), st.booleans())
def test_any_chunking_gives_pandas_rows(rows: int, chunk: int, seed: int, replace: bool) -> None:
    s = pd.Series(np.arange(rows) * 10)
    got = md.Series(s, chunk_size=chunk).sample(frac=0.6, replace=replace, random_state=seed)
    expected = s.sample(frac=0.6, replace=replace, random_state=seed)
    pd.testing.assert_series_equal(got.to_pandas(), expected)
