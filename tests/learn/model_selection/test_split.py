"""``train_test_split`` against scikit-learn's: the same sizes, the same rows in the same
order, and the same messages, on arrays, tensors and frames over several chunkings."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import model_selection as sk

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.model_selection import train_test_split
from jupyter_mars.learn.utils import fetch_all

DATA = np.arange(60, dtype=np.float64).reshape(20, 3)
LABELS = np.arange(20) % 3
FRAME = pd.DataFrame(DATA, columns=list("abc"), index=np.arange(200, 220))


@settings(max_examples=12, deadline=None)
@given(
    n=st.integers(2, 30),
    chunk=st.integers(1, 30),
    size=st.one_of(st.floats(0.05, 0.95), st.integers(1, 29), st.none()),
    seed=st.integers(0, 1000),
)
def test_subsets_hold_scikit_learns_rows(n: int, chunk: int, size: Any, seed: int) -> None:
    data = np.arange(n, dtype=np.int64)
    if isinstance(size, int) and size >= n or isinstance(size, float) and size * n > n - 1:
        size = None
    x = mt.tensor(data, chunk_size=min(chunk, n))
    got = fetch_all(*train_test_split(x, test_size=size, random_state=seed))
    expected = sk.train_test_split(data, test_size=size, random_state=seed)
    for ours, theirs in zip(got, expected):
        np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("chunks", [1, 6, (7, 2), 20])
@pytest.mark.parametrize(
    "sizes",
    [
        {},
        {"test_size": 0.3},
        {"test_size": 4},
        {"train_size": 0.5},
        {"train_size": 5, "test_size": 3},
    ],
)
def test_every_form_of_input_is_split_as_scikit_learn(chunks: Any, sizes: dict[str, Any]) -> None:
    rows = chunks[0] if isinstance(chunks, tuple) else chunks
    inputs = [
        mt.tensor(DATA, chunk_size=chunks),
        md.DataFrame(FRAME, chunk_size=rows),
        md.Series(FRAME["b"], chunk_size=rows),
        LABELS,
    ]
    got = fetch_all(*train_test_split(*inputs, random_state=5, **sizes))
    expected = sk.train_test_split(DATA, FRAME, FRAME["b"], LABELS, random_state=5, **sizes)
    np.testing.assert_array_equal(got[0], expected[0])
    np.testing.assert_array_equal(got[1], expected[1])
    pd.testing.assert_frame_equal(got[2], expected[2])
    pd.testing.assert_frame_equal(got[3], expected[3])
    pd.testing.assert_series_equal(got[4], expected[4])
    pd.testing.assert_series_equal(got[5], expected[5])
    np.testing.assert_array_equal(got[6], expected[6])
    np.testing.assert_array_equal(got[7], expected[7])


def test_results_are_lazy_and_keep_their_kind() -> None:
    parts = train_test_split(DATA, FRAME, FRAME["a"], mt.tensor(LABELS), random_state=0)
    kinds = [mt.Tensor, mt.Tensor, md.DataFrame, md.DataFrame, md.Series, md.Series]
    for part, kind in zip(parts, kinds + [mt.Tensor, mt.Tensor]):
        assert isinstance(part, kind)
    assert [p.shape[0] for p in parts[:2]] == [15, 5]


def test_without_shuffle_the_subsets_are_slices() -> None:
    x = mt.tensor(DATA, chunk_size=6)
    frame = md.DataFrame(FRAME, chunk_size=6)
    got = fetch_all(*train_test_split(x, frame, test_size=0.35, shuffle=False))
    expected = sk.train_test_split(DATA, FRAME, test_size=0.35, shuffle=False)
    np.testing.assert_array_equal(got[0], expected[0])
    np.testing.assert_array_equal(got[1], expected[1])
    pd.testing.assert_frame_equal(got[2], expected[2])
    pd.testing.assert_frame_equal(got[3], expected[3])


def test_stratified_split_matches_scikit_learns() -> None:
    labels = np.array(["a", "b"] * 10)
    for stratify in (labels, mt.tensor(labels, chunk_size=7), md.Series(pd.Series(labels))):
        got = fetch_all(
            *train_test_split(
                mt.tensor(DATA, chunk_size=6), test_size=0.3, random_state=1, stratify=stratify
            )
        )
        expected = sk.train_test_split(DATA, test_size=0.3, random_state=1, stratify=labels)
        np.testing.assert_array_equal(got[0], expected[0])
        np.testing.assert_array_equal(got[1], expected[1])


def test_unknown_lengths_are_computed_first() -> None:
    frame = md.DataFrame(FRAME, chunk_size=6)
    kept = frame[frame["a"] > 10]
    got = fetch_all(*train_test_split(kept, random_state=4))
    expected = sk.train_test_split(FRAME[FRAME["a"] > 10], random_state=4)
    pd.testing.assert_frame_equal(got[0], expected[0])
    pd.testing.assert_frame_equal(got[1], expected[1])


@pytest.mark.parametrize(
    "kwargs",
    [
        {"test_size": -0.1},
        {"test_size": 1.5},
        {"test_size": 0},
        {"test_size": 1.0},
        {"test_size": "a"},
        {"test_size": 20},
        {"train_size": 21},
        {"test_size": True},
        {"test_size": 0.6, "train_size": 0.6},
        {"test_size": 10, "train_size": 11},
        {"test_size": 0.99},
        {"train_size": 0.01},
        {"shuffle": 1},
        {"shuffle": False, "stratify": LABELS},
    ],
)
def test_bad_sizes_raise_scikit_learns_messages(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError) as theirs:  # noqa: PT011 - the message is compared below
        sk.train_test_split(DATA, **kwargs)
    with pytest.raises(ValueError, match=re.escape(str(theirs.value))):
        train_test_split(mt.tensor(DATA, chunk_size=6), **kwargs)


def test_bad_arrays_raise_value_errors() -> None:
    with pytest.raises(ValueError, match="At least one array required"):
        train_test_split()
    with pytest.raises(ValueError, match=r"inconsistent numbers of samples: \[20, 19\]"):
        train_test_split(DATA, LABELS[:19])
