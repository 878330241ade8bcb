"""``shuffle`` and ``take_rows`` against scikit-learn's ``shuffle`` and NumPy indexing, on
arrays, tensors and frames over several chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import utils as sk

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.utils import fetch_all, shuffle
from jupyter_mars.learn.utils.shuffle import take_rows
from jupyter_mars.learn.utils.validation import check_random_state

DATA = np.arange(60, dtype=np.float64).reshape(20, 3)
FRAME = pd.DataFrame(DATA, columns=list("abc"), index=np.arange(100, 120))


@settings(max_examples=10, deadline=None)
@given(
    n=st.integers(1, 25),
    chunk=st.integers(1, 25),
    seed=st.integers(0, 2**32 - 1),
)
def test_rows_come_in_scikit_learns_order_for_any_chunking(n: int, chunk: int, seed: int) -> None:
    data = np.arange(n * 2, dtype=np.int64).reshape(n, 2)
    got = shuffle(mt.tensor(data, chunk_size=min(chunk, n)), random_state=seed)
    np.testing.assert_array_equal(got.execute().fetch(), sk.shuffle(data, random_state=seed))


@pytest.mark.parametrize("chunks", [1, 7, (6, 2), 20])
def test_tensors_and_frames_are_permuted_together(chunks: Any) -> None:
    rows = chunks[0] if isinstance(chunks, tuple) else chunks
    x = mt.tensor(DATA, chunk_size=chunks)
    frame = md.DataFrame(FRAME, chunk_size=rows)
    series = md.Series(FRAME["a"], chunk_size=4)
    got = fetch_all(*shuffle(x, frame, series, DATA[:, 1], random_state=3))
    expected = sk.shuffle(DATA, FRAME, FRAME["a"], DATA[:, 1], random_state=3)
    np.testing.assert_array_equal(got[0], expected[0])
    pd.testing.assert_frame_equal(got[1], expected[1])
    pd.testing.assert_series_equal(got[2], expected[2])
    np.testing.assert_array_equal(got[3], expected[3])


def test_pandas_inputs_become_frames_and_lists_tensors() -> None:
    frame, listed = shuffle(FRAME, DATA.tolist(), random_state=0)
    assert isinstance(frame, md.DataFrame)
    assert isinstance(listed, mt.Tensor)
    expected_frame, expected_list = sk.shuffle(FRAME, DATA, random_state=0)
    pd.testing.assert_frame_equal(frame.execute().fetch(), expected_frame)
    np.testing.assert_array_equal(listed.execute().fetch(), expected_list)


def test_n_samples_keeps_the_first_rows_of_the_permutation() -> None:
    x = mt.tensor(DATA, chunk_size=6)
    got = shuffle(x, random_state=1, n_samples=7)
    assert got.shape == (7, 3)
    np.testing.assert_array_equal(
        got.execute().fetch(), sk.shuffle(DATA, random_state=1, n_samples=7)
    )


def test_random_states_of_every_kind_are_reproducible() -> None:
    x = mt.tensor(DATA, chunk_size=5)
    for make in (
        lambda: 7,
        lambda: np.random.RandomState(7),
        lambda: mt.random.RandomState(7),
    ):
        first, second = (shuffle(x, random_state=make()).execute().fetch() for _ in range(2))
        np.testing.assert_array_equal(first, second)
        assert sorted(first[:, 0]) == sorted(DATA[:, 0])
    assert isinstance(check_random_state(None), np.random.RandomState)


def test_unknown_lengths_are_computed_first() -> None:
    frame = md.DataFrame(FRAME, chunk_size=6)
    kept = frame[frame["a"] > 20]  # rows unknown until computed
    got = shuffle(kept, random_state=2).execute().fetch()
    expected = sk.shuffle(FRAME[FRAME["a"] > 20], random_state=2)
    pd.testing.assert_frame_equal(got, expected)


def test_take_rows_follows_numpy_indexing() -> None:
    positions = np.array([5, -1, 0, 5, 19, 3])
    for chunks in (1, 4, (7, 2)):
        got = take_rows(mt.tensor(DATA, chunk_size=chunks), positions)
        assert got.shape == (6, 3)
        np.testing.assert_array_equal(got.execute().fetch(), DATA[positions])
    frame = md.DataFrame(FRAME, chunk_size=6)
    filtered = frame[frame["a"] > 20]
    got_frame = take_rows(filtered, [2, 0, 1]).execute().fetch()
    pd.testing.assert_frame_equal(got_frame, FRAME[FRAME["a"] > 20].iloc[[2, 0, 1]])
    empty = take_rows(mt.tensor(DATA, chunk_size=4), [])
    assert empty.execute().fetch().shape == (0, 3)


def test_bad_input_raises_scikit_learns_errors() -> None:
    x = mt.tensor(DATA, chunk_size=5)
    with pytest.raises(ValueError, match="Cannot sample 21 out of arrays with dim 20"):
        shuffle(x, n_samples=21)
    with pytest.raises(ValueError, match="n_samples"):
        shuffle(x, n_samples=0)
    with pytest.raises(ValueError, match=r"inconsistent numbers of samples: \[20, 19\]"):
        shuffle(x, DATA[:19])
    with pytest.raises(ValueError, match="cannot be used to seed"):
        shuffle(x, random_state="seed")
    with pytest.raises(IndexError, match="out of range"):
        take_rows(x, [20])
    assert shuffle() is None
