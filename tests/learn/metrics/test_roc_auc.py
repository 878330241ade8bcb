"""``roc_auc_score`` against scikit-learn's on the same data: binary, multilabel and
multiclass targets, their averages, and the warnings."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from sklearn import metrics as sk

import jupyter_mars.tensor as mt
from jupyter_mars.learn.metrics import roc_auc_score
from jupyter_mars.tensor.core import Tensor

RNG = np.random.default_rng(5)
N = 24
Y_BINARY = RNG.integers(0, 2, N)
SCORES = np.round(RNG.random(N) + 0.3 * Y_BINARY, 1)
WEIGHT = RNG.random(N)
Y_CLASSES = RNG.integers(0, 3, N)
PROBA = RNG.random((N, 3)) + np.eye(3)[Y_CLASSES]
PROBA /= PROBA.sum(axis=1, keepdims=True)
Y_LABELS = RNG.integers(0, 2, (N, 3))
LABEL_SCORES = RNG.random((N, 3))
TWO_COLUMNS = np.column_stack([PROBA[:, 0], 1 - PROBA[:, 0]])


def recorded(func: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = func(*args, **kwargs)
    return result, [f"{w.category.__name__}: {w.message}" for w in caught]


def assert_same(got: Tensor, expected: Any) -> None:
    assert isinstance(got, Tensor)
    data = got.execute().fetch()
    assert np.shape(data) == np.shape(expected)
    np.testing.assert_allclose(data, expected)


@pytest.mark.parametrize("chunks", [7, N])
@pytest.mark.parametrize(
    "kwargs",
    [{}, {"sample_weight": WEIGHT}, {"max_fpr": 0.3}, {"max_fpr": 0.5, "sample_weight": WEIGHT}],
    ids=["plain", "weighted", "partial", "partial-weighted"],
)
def test_binary_area_is_scikit_learns(chunks: int, kwargs: dict[str, Any]) -> None:
    got = roc_auc_score(
        mt.tensor(Y_BINARY, chunk_size=chunks), mt.tensor(SCORES, chunk_size=chunks), **kwargs
    )
    assert_same(got, sk.roc_auc_score(Y_BINARY, SCORES, **kwargs))


def test_the_greater_string_label_is_positive() -> None:
    y_true = np.array(["cat", "dog"])[Y_BINARY]
    assert_same(roc_auc_score(list(y_true), SCORES), sk.roc_auc_score(y_true, SCORES))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"multi_class": "ovr"},
        {"multi_class": "ovr", "average": "weighted"},
        {"multi_class": "ovr", "average": None},
        {"multi_class": "ovr", "average": "micro"},
        {"multi_class": "ovr", "average": "weighted", "sample_weight": WEIGHT},
        {"multi_class": "ovo"},
        {"multi_class": "ovo", "average": "weighted"},
        {"multi_class": "ovr", "labels": [0, 1, 2]},
    ],
    ids=str,
)
def test_multiclass_area_is_scikit_learns(kwargs: dict[str, Any]) -> None:
    got = roc_auc_score(
        mt.tensor(Y_CLASSES, chunk_size=7), mt.tensor(PROBA, chunk_size=(7, 2)), **kwargs
    )
    assert_same(got, sk.roc_auc_score(Y_CLASSES, PROBA, **kwargs))


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"average": "weighted"}, {"average": None}, {"average": "micro", "sample_weight": WEIGHT}],
    ids=str,
)
def test_multilabel_area_is_scikit_learns(kwargs: dict[str, Any]) -> None:
    got = roc_auc_score(
        mt.tensor(Y_LABELS, chunk_size=(7, 2)), mt.tensor(LABEL_SCORES, chunk_size=7), **kwargs
    )
    assert_same(got, sk.roc_auc_score(Y_LABELS, LABEL_SCORES, **kwargs))


@pytest.mark.parametrize(
    ("y_true", "y_score", "kwargs"),
    [
        (np.ones(N, dtype=int), SCORES, {}),
        (np.where(Y_CLASSES == 2, 0, Y_CLASSES), PROBA, {"multi_class": "ovr", "average": None}),
        (np.column_stack([Y_LABELS[:, :2], np.zeros(N, dtype=int)]), LABEL_SCORES, {}),
    ],
    ids=["binary", "multiclass-absent-class", "multilabel-empty-column"],
)
def test_a_target_of_one_class_warns_and_scores_nan(
    y_true: np.ndarray, y_score: np.ndarray, kwargs: dict[str, Any]
) -> None:
    if "multi_class" in kwargs:
        kwargs = {**kwargs, "labels": [0, 1, 2]}
    expected, their_warnings = recorded(sk.roc_auc_score, y_true, y_score, **kwargs)
    got, our_warnings = recorded(roc_auc_score, mt.tensor(y_true, chunk_size=7), y_score, **kwargs)
    assert our_warnings == their_warnings
    assert our_warnings
    assert_same(got, expected)


@pytest.mark.parametrize(
    ("y_true", "y_score", "kwargs", "message"),
    [
        (Y_CLASSES, PROBA, {}, "multi_class must be in"),
        (Y_CLASSES, PROBA * 2, {"multi_class": "ovr"}, "need to be probabilities"),
        (Y_CLASSES, PROBA, {"multi_class": "ovr", "max_fpr": 0.5}, "Partial AUC computation"),
        (Y_CLASSES, PROBA, {"multi_class": "ovr", "average": "samples"}, "average must be"),
        (Y_CLASSES, TWO_COLUMNS, {"multi_class": "ovr"}, "Number of classes in y_true"),
        (Y_CLASSES, PROBA, {"multi_class": "ovr", "labels": [0, 2, 1]}, "must be ordered"),
        (Y_CLASSES, PROBA, {"multi_class": "ovo", "sample_weight": WEIGHT}, "sample_weight"),
        (Y_BINARY, SCORES, {"max_fpr": 1.5}, "max_fpr"),
        (Y_BINARY, SCORES, {"average": "mean"}, "average"),
        (Y_BINARY, SCORES[:5], {}, "inconsistent numbers of samples"),
    ],
)
def test_bad_input_raises_value_errors(
    y_true: Any, y_score: Any, kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        sk.roc_auc_score(y_true, y_score, **kwargs)
    with pytest.raises(ValueError, match=message):
        roc_auc_score(y_true, y_score, **kwargs)
