"""``KFold`` against scikit-learn's: the same folds, shuffled or not, and the same
messages, for arrays, tensors and frames."""

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
from jupyter_mars.learn.model_selection import KFold
from jupyter_mars.learn.utils import fetch_all

DATA = np.arange(40, dtype=np.float64).reshape(20, 2)


def _same_folds(ours: Any, theirs: Any) -> None:
    ours, theirs = list(ours), list(theirs)
    assert len(ours) == len(theirs)
    for (train, test), (train_sk, test_sk) in zip(ours, theirs):
        np.testing.assert_array_equal(train, train_sk)
        np.testing.assert_array_equal(test, test_sk)


@settings(max_examples=15, deadline=None)
@given(
    n=st.integers(2, 40),
    n_splits=st.integers(2, 8),
    shuffle=st.booleans(),
    seed=st.integers(0, 1000),
)
def test_folds_are_scikit_learns(n: int, n_splits: int, shuffle: bool, seed: int) -> None:
    n_splits = min(n_splits, n)
    random_state = seed if shuffle else None
    x = mt.tensor(np.zeros((n, 1)), chunk_size=3)
    ours = KFold(n_splits, shuffle=shuffle, random_state=random_state).split(x)
    theirs = sk.KFold(n_splits, shuffle=shuffle, random_state=random_state).split(np.zeros(n))
    _same_folds(ours, theirs)


def test_every_form_of_input_gives_the_same_folds() -> None:
    frame = pd.DataFrame(DATA, columns=["a", "b"])
    filtered = md.DataFrame(frame, chunk_size=6)
    filtered = filtered[filtered["a"] >= 0]  # every row, but a length unknown until computed
    theirs = list(sk.KFold(4, shuffle=True, random_state=0).split(DATA))
    for form in (DATA, DATA.tolist(), frame, mt.tensor(DATA, chunk_size=7), filtered):
        _same_folds(KFold(4, shuffle=True, random_state=0).split(form), theirs)


def test_folds_index_tensors_and_frames() -> None:
    x = mt.tensor(DATA, chunk_size=(6, 1))
    frame = md.DataFrame(pd.DataFrame(DATA), chunk_size=6)
    for train, test in KFold(3).split(x):
        got_train, got_test, frame_test = fetch_all(x[train], x[test], frame.iloc[test])
        np.testing.assert_array_equal(got_train, DATA[train])
        np.testing.assert_array_equal(got_test, DATA[test])
        np.testing.assert_array_equal(frame_test.to_numpy(), DATA[test])


def test_parameters_and_repr_are_scikit_learns() -> None:
    folds = KFold(3, shuffle=True, random_state=2)
    assert folds.get_n_splits() == 3
    assert folds.get_n_splits(DATA) == 3
    assert repr(folds) == repr(sk.KFold(3, shuffle=True, random_state=2))
    assert KFold().n_splits == sk.KFold().n_splits


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"n_splits": 1}, ValueError),
        ({"n_splits": 2.0}, ValueError),
        ({"shuffle": 1}, TypeError),
        ({"random_state": 0}, ValueError),
    ],
)
def test_bad_arguments_raise_scikit_learns_messages(kwargs: dict[str, Any], error: type) -> None:
    with pytest.raises(error) as theirs:
        sk.KFold(**kwargs)
    with pytest.raises(error, match=re.escape(str(theirs.value))):
        KFold(**kwargs)


def test_more_folds_than_rows_is_an_error() -> None:
    with pytest.raises(
        ValueError, match="n_splits=5 greater than the number of samples: n_samples=3"
    ):
        next(KFold(5).split(mt.zeros((3, 2), chunk_size=2)))
