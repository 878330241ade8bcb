"""``LabelEncoder`` against scikit-learn's, for numbers and strings held as arrays,
lists, pandas objects, tensors and frames."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import preprocessing as sk
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.preprocessing import LabelEncoder

NUMBERS = np.array([7, 3, 3, 9, -1, 7, 3, 0, 9, 9, 12])
STRINGS = np.array(["pear", "fig", "apple", "fig", "kiwi", "pear", "apple"])


def _forms(labels: np.ndarray, chunk: int) -> list[Any]:
    return [
        labels,
        labels.tolist(),
        pd.Series(labels),
        mt.tensor(labels, chunk_size=chunk),
        md.Series(pd.Series(labels), chunk_size=chunk),
        labels.reshape(-1, 1),
    ]


@pytest.mark.parametrize("labels", [NUMBERS, STRINGS, NUMBERS * 0.5])
@pytest.mark.parametrize("chunk", [2, 100])
def test_codes_and_classes_match_scikit_learn(labels: np.ndarray, chunk: int) -> None:
    theirs = sk.LabelEncoder().fit(labels)
    codes = theirs.transform(labels)
    for form in _forms(labels, chunk):
        ours = LabelEncoder().fit(form)
        np.testing.assert_array_equal(ours.classes_, theirs.classes_)
        encoded = ours.transform(form)
        assert isinstance(encoded, mt.Tensor)
        got = encoded.execute().fetch()
        np.testing.assert_array_equal(got, codes)
        assert got.dtype == codes.dtype
        decoded = ours.inverse_transform(mt.tensor(codes, chunk_size=chunk)).execute().fetch()
        np.testing.assert_array_equal(decoded, labels)
        fitted = LabelEncoder().fit_transform(form).execute().fetch()
        np.testing.assert_array_equal(fitted, codes)


@settings(max_examples=10, deadline=None)
@given(
    labels=st.lists(st.integers(-5, 5) | st.text("abc", min_size=1, max_size=2), min_size=1),
    chunk=st.integers(1, 8),
)
def test_any_labels_of_one_kind(labels: list[Any], chunk: int) -> None:
    same_kind = [v for v in labels if isinstance(v, type(labels[0]))]
    array = np.asarray(same_kind)
    ours = LabelEncoder().fit(mt.tensor(array, chunk_size=chunk))
    theirs = sk.LabelEncoder().fit(array)
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    got = ours.transform(mt.tensor(array, chunk_size=chunk)).execute().fetch()
    np.testing.assert_array_equal(got, theirs.transform(array))


def test_unseen_labels_raise_value_errors_naming_them() -> None:
    encoder = LabelEncoder().fit(STRINGS)
    with pytest.raises(ValueError, match=r"previously unseen labels: \['lime', 'plum'\]"):
        encoder.transform(["fig", "plum", "lime"])
    lazy = encoder.transform(mt.tensor(np.array(["fig", "plum"]), chunk_size=1))
    with pytest.raises(ValueError, match=r"previously unseen labels: \['plum'\]"):
        lazy.execute()
    numbers = LabelEncoder().fit(NUMBERS)
    with pytest.raises(ValueError, match=r"previously unseen labels: \[5\]"):
        numbers.transform([3, 5])
    with pytest.raises(ValueError, match=r"previously unseen labels: \[8\]"):
        numbers.inverse_transform([0, 8])
    with pytest.raises(ValueError, match=r"previously unseen labels: \[-1\]"):
        numbers.inverse_transform(mt.tensor([0, -1], chunk_size=1)).execute()


def test_empty_labels_and_the_estimator_protocol() -> None:
    encoder = LabelEncoder()
    with pytest.raises(NotFittedError):
        encoder.transform(NUMBERS)
    assert clone(encoder).get_params() == sk.LabelEncoder().get_params() == {}
    np.testing.assert_array_equal(
        LabelEncoder().fit([]).classes_, sk.LabelEncoder().fit([]).classes_
    )
    fitted = LabelEncoder().fit(NUMBERS)
    assert fitted.transform([]).execute().fetch().shape == (0,)


def test_bad_labels_raise_scikit_learns_errors() -> None:
    with pytest.raises(TypeError, match=r"uniformly strings or numbers. Got \['int', 'str'\]"):
        LabelEncoder().fit(np.array(["a", 1], dtype=object))
    with pytest.raises(ValueError, match="y should be a 1d array"):
        LabelEncoder().fit(np.zeros((3, 2)))
