"""``LabelBinarizer`` and ``label_binarize`` against scikit-learn's: binary, multiclass and
multilabel targets, numbers and strings, arrays, tensors and frames."""

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
from jupyter_mars.learn.preprocessing import LabelBinarizer, label_binarize

TARGETS = {
    "binary": np.array([4, 9, 9, 4, 4, 9, 4]),
    "multiclass": np.array(["b", "c", "a", "c", "b", "b", "d"]),
    "one class": np.array([5, 5, 5]),
    "multilabel": np.array([[0, 1, 1], [1, 0, 0], [0, 0, 1], [1, 1, 0]]),
}
LABELS = [(0, 1), (-1, 1), (-2, 0), (3, 7)]


def _forms(y: np.ndarray, chunk: int) -> list[Any]:
    forms = [y, mt.tensor(y, chunk_size=chunk)]
    if y.ndim == 1:
        forms += [pd.Series(y), md.Series(pd.Series(y), chunk_size=chunk)]
    return forms


@pytest.mark.parametrize("kind", list(TARGETS))
@pytest.mark.parametrize("chunk", [1, 3, 100])
def test_fit_transform_and_inverse_match_scikit_learn(kind: str, chunk: int) -> None:
    y = TARGETS[kind]
    for neg, pos in LABELS:
        theirs = sk.LabelBinarizer(neg_label=neg, pos_label=pos).fit(y)
        expected = theirs.transform(y)
        for form in _forms(y, chunk):
            ours = LabelBinarizer(neg_label=neg, pos_label=pos).fit(form)
            assert ours.y_type_ == theirs.y_type_
            np.testing.assert_array_equal(ours.classes_, theirs.classes_)
            got = ours.transform(form)
            assert isinstance(got, mt.Tensor)
            values = got.execute().fetch()
            np.testing.assert_array_equal(values, expected)
            assert values.dtype == expected.dtype
            back = ours.inverse_transform(mt.tensor(expected, chunk_size=chunk))
            np.testing.assert_array_equal(
                back.execute().fetch(), theirs.inverse_transform(expected)
            )


def test_unseen_labels_follow_scikit_learn() -> None:
    binary = TARGETS["binary"]
    theirs = sk.LabelBinarizer(neg_label=-1, pos_label=0).fit(binary)
    ours = LabelBinarizer(neg_label=-1, pos_label=0).fit(mt.tensor(binary, chunk_size=2))
    # a third label makes the target multiclass: two columns, the unseen row all negative
    for y in ([9, 4, 6], mt.tensor(np.array([9, 4, 6]), chunk_size=2)):
        np.testing.assert_array_equal(
            ours.transform(y).execute().fetch(), theirs.transform([9, 4, 6])
        )


def test_multiclass_scores_are_inverted_by_argmax_and_binary_by_threshold() -> None:
    scores = np.array([[0.1, 0.7, 0.2, 0.0], [0.5, 0.1, 0.1, 0.3], [0.2, 0.2, 0.3, 0.3]])
    y = TARGETS["multiclass"]
    ours = LabelBinarizer().fit(y)
    theirs = sk.LabelBinarizer().fit(y)
    np.testing.assert_array_equal(
        ours.inverse_transform(scores).execute().fetch(), theirs.inverse_transform(scores)
    )
    binary_scores = np.array([[0.2], [0.6], [0.5]])
    ours_binary = LabelBinarizer().fit(TARGETS["binary"])
    theirs_binary = sk.LabelBinarizer().fit(TARGETS["binary"])
    for threshold in (None, 0.55, 0.1):
        np.testing.assert_array_equal(
            ours_binary.inverse_transform(binary_scores, threshold).execute().fetch(),
            theirs_binary.inverse_transform(binary_scores, threshold),
        )


@settings(max_examples=10, deadline=None)
@given(
    y=st.lists(st.integers(0, 6), min_size=1, max_size=20),
    classes=st.lists(st.integers(0, 8), min_size=2, max_size=5, unique=True),
    chunk=st.integers(1, 20),
)
def test_label_binarize_of_any_labels_and_classes(
    y: list[int], classes: list[int], chunk: int
) -> None:
    expected = sk.label_binarize(y, classes=classes)
    got = label_binarize(mt.tensor(np.array(y), chunk_size=chunk), classes=classes)
    np.testing.assert_array_equal(got.execute().fetch(), expected)


def test_estimator_protocol() -> None:
    binarizer = LabelBinarizer(neg_label=-1)
    assert binarizer.get_params() == sk.LabelBinarizer(neg_label=-1).get_params()
    assert clone(binarizer).get_params() == binarizer.get_params()
    with pytest.raises(NotFittedError):
        binarizer.transform([1, 2])
    got = LabelBinarizer().fit_transform(mt.tensor(TARGETS["multiclass"], chunk_size=2))
    np.testing.assert_array_equal(
        got.execute().fetch(), sk.LabelBinarizer().fit_transform(TARGETS["multiclass"])
    )


def test_bad_input_raises_errors_naming_it() -> None:
    with pytest.raises(ValueError, match="neg_label=1 must be strictly less than pos_label=1"):
        LabelBinarizer(neg_label=1).fit([0, 1])
    with pytest.raises(NotImplementedError, match="sparse_output=True"):
        LabelBinarizer(sparse_output=True).fit([0, 1])
    with pytest.raises(NotImplementedError, match="sparse_output=True"):
        label_binarize([0, 1], classes=[0, 1], sparse_output=True)
    with pytest.raises(ValueError, match="Multioutput target data is not supported"):
        LabelBinarizer().fit(mt.tensor(np.array([[1, 2], [3, 4]]), chunk_size=1))
    with pytest.raises(ValueError, match="Unknown label type: continuous"):
        LabelBinarizer().fit(mt.tensor(np.array([0.5, 1.5])))
    with pytest.raises(ValueError, match="y has 0 samples"):
        LabelBinarizer().fit(mt.tensor(np.array([], dtype=np.int64)))
    with pytest.raises(ValueError, match="not fitted with multilabel input"):
        LabelBinarizer().fit([0, 1]).transform(mt.tensor(TARGETS["multilabel"]))
    with pytest.raises(ValueError, match="mismatch with the labels"):
        label_binarize(TARGETS["multilabel"], classes=[0, 1])
