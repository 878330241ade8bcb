"""``multilabel_confusion_matrix`` against scikit-learn's on the same data, over several
chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as sk

import jupyter_mars.tensor as mt
from jupyter_mars.learn.metrics import multilabel_confusion_matrix
from jupyter_mars.tensor.core import Tensor

RNG = np.random.default_rng(1)
N = 21
Y_TRUE = RNG.integers(0, 4, N)
Y_PRED = RNG.integers(0, 4, N)
WEIGHT = RNG.random(N)
ML_TRUE = RNG.integers(0, 2, (N, 4))
ML_PRED = RNG.integers(0, 2, (N, 4))


def assert_same(got: Tensor, expected: np.ndarray) -> None:
    assert isinstance(got, Tensor)
    data = got.execute().fetch()
    assert data.dtype == expected.dtype
    # weighted sums differ from scikit-learn's in the order of their additions: by a few
    # units in the last place
    np.testing.assert_allclose(data, expected, atol=1e-12)


@pytest.mark.parametrize("chunks", [4, N])
@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"sample_weight": WEIGHT},
        {"labels": [3, 1]},
        {"labels": [2, 7, 0]},
        {"labels": [3, 1], "sample_weight": WEIGHT},
    ],
    ids=["plain", "weighted", "some-labels", "absent-label", "some-labels-weighted"],
)
def test_multiclass_matrices_are_scikit_learns(chunks: int, kwargs: dict[str, Any]) -> None:
    got = multilabel_confusion_matrix(
        mt.tensor(Y_TRUE, chunk_size=chunks), mt.tensor(Y_PRED, chunk_size=chunks), **kwargs
    )
    assert_same(got, sk.multilabel_confusion_matrix(Y_TRUE, Y_PRED, **kwargs))


def test_string_labels_are_counted_in_order() -> None:
    names = np.array(["ant", "bee", "cat", "dog"])
    y_true, y_pred = names[Y_TRUE], names[Y_PRED]
    for labels in (None, ["dog", "ant"]):
        got = multilabel_confusion_matrix(
            list(y_true), mt.tensor(y_pred, chunk_size=5), labels=labels
        )
        assert_same(got, sk.multilabel_confusion_matrix(y_true, y_pred, labels=labels))


@pytest.mark.parametrize("chunks", [(4, 3), (N, 4)])
@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"sample_weight": WEIGHT},
        {"labels": [3, 1]},
        {"samplewise": True},
        {"samplewise": True, "sample_weight": WEIGHT},
        {"samplewise": True, "labels": [0, 2]},
    ],
    ids=[
        "plain",
        "weighted",
        "some-labels",
        "samplewise",
        "samplewise-weighted",
        "samplewise-some",
    ],
)
def test_multilabel_matrices_are_scikit_learns(chunks: Any, kwargs: dict[str, Any]) -> None:
    got = multilabel_confusion_matrix(
        mt.tensor(ML_TRUE, chunk_size=chunks), mt.tensor(ML_PRED, chunk_size=chunks), **kwargs
    )
    assert_same(got, sk.multilabel_confusion_matrix(ML_TRUE, ML_PRED, **kwargs))


@pytest.mark.parametrize(
    ("y_true", "y_pred", "kwargs", "message"),
    [
        (Y_TRUE, Y_PRED, {"samplewise": True}, "Samplewise metrics are not available"),
        (ML_TRUE, ML_PRED, {"labels": [5]}, "All labels must be in"),
        (ML_TRUE, ML_PRED, {"labels": [-1, 0]}, "All labels must be in"),
        (Y_TRUE, Y_PRED[:4], {}, "inconsistent numbers of samples"),
    ],
)
def test_bad_arguments_raise_scikit_learns_errors(
    y_true: Any, y_pred: Any, kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        sk.multilabel_confusion_matrix(y_true, y_pred, **kwargs)
    with pytest.raises(ValueError, match=message):
        multilabel_confusion_matrix(y_true, y_pred, **kwargs)


@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_random_label_vectors(data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 15))
    labels = st.lists(st.integers(-1, 3), min_size=n, max_size=n)
    y_true, y_pred = np.array(data.draw(labels)), np.array(data.draw(labels))
    weight = np.array(data.draw(st.lists(st.floats(0.5, 2), min_size=n, max_size=n)))
    chunk = data.draw(st.integers(1, n))
    got = multilabel_confusion_matrix(
        mt.tensor(y_true, chunk_size=chunk), y_pred, sample_weight=weight
    )
    assert_same(got, sk.multilabel_confusion_matrix(y_true, y_pred, sample_weight=weight))
