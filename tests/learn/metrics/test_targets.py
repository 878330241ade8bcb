"""The checks of classification targets against scikit-learn's ``_check_targets``, on
arrays, lists, pandas objects, tensors and frames over several chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics._classification import _check_targets
from sklearn.utils.multiclass import unique_labels

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.metrics.targets import check_targets


def test_every_form_of_labels_gives_the_same_type_and_labels() -> None:
    labels = ["x", "y", "x", "z", "y"]
    # the conversions of every form are checked with label_tensor's: these stand for them
    for form in (
        labels,
        pd.Series(labels, dtype=object),
        md.Series(pd.Series(labels), chunk_size=2),
    ):
        targets = check_targets(form, labels)
        assert targets.y_type == "multiclass"
        np.testing.assert_array_equal(targets.labels, unique_labels(labels))
        assert targets.rows == 5


def test_a_frame_of_indicators_is_a_multilabel_target() -> None:
    frame = pd.DataFrame({"a": [0, 1, 1], "b": [1, 1, 0]})
    targets = check_targets(md.DataFrame(frame, chunk_size=2), frame.to_numpy())
    assert targets.y_type == "multilabel-indicator"
    np.testing.assert_array_equal(targets.labels, [0, 1])


def test_nan_in_a_float_target_is_scikit_learns_error() -> None:
    with pytest.raises(ValueError, match="Input y_true contains NaN"):
        check_targets(mt.tensor([0.0, np.nan, 1.0], chunk_size=2), [0, 1, 1])


@pytest.mark.parametrize(
    ("y_true", "y_pred", "message"),
    [
        ([0, 1, 1], [0.5, 1.0, 0.2], "mix of binary and continuous"),
        ([[0, 1], [1, 0]], [0, 1], "mix of multilabel-indicator and binary"),
        ([[0, 1, 2], [1, 1, 0]], [[0, 1, 2], [1, 1, 0]], "multiclass-multioutput is not"),
        (["a", "b", "a"], [0, 1, 0], "Mix of label input types"),
        ([0, 1, 1], [0, 1], "inconsistent numbers of samples"),
        ([[0, 1], [1, 0]], [[0, 1, 1], [1, 0, 1]], "different numbers of labels"),
    ],
)
def test_bad_targets_raise_scikit_learns_errors(y_true: Any, y_pred: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        check_targets(y_true, y_pred)


def test_lengths_unknown_until_computed_are_compared_then() -> None:
    y = mt.tensor(np.array([0, 1, 1, 0, 1]), chunk_size=2)
    shorter = y[y > 0]  # its length is known once computed
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        check_targets(shorter, [0, 1, 1, 0, 1])


def test_empty_targets_are_refused() -> None:
    with pytest.raises(ValueError, match="Found empty input array"):
        check_targets([], [])


@pytest.mark.parametrize(
    ("weight", "message"),
    [
        (np.zeros(3), "at least one non-zero"),
        (np.ones((3, 1)), "Sample weights must be 1D"),
        (np.ones(4), "inconsistent numbers of samples"),
    ],
)
def test_bad_sample_weights_are_refused(weight: np.ndarray, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        check_targets([0, 1, 1], [1, 1, 0], weight)


@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_random_label_vectors_give_scikit_learns_type_and_labels(data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 12))
    classes = data.draw(st.integers(1, 4))
    y_true = np.array(data.draw(st.lists(st.integers(0, classes), min_size=n, max_size=n)))
    y_pred = np.array(data.draw(st.lists(st.integers(0, classes), min_size=n, max_size=n)))
    chunk = data.draw(st.integers(1, n))
    targets = check_targets(mt.tensor(y_true, chunk_size=chunk), y_pred)
    y_type, labels, *_ = _check_targets(y_true, y_pred)
    assert targets.y_type == y_type
    np.testing.assert_array_equal(targets.labels, labels)
