"""Precision, recall and F-scores against scikit-learn's on the same data, over several
chunkings: the values, and the warnings scikit-learn gives for ratios dividing by zero."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as sk
from sklearn.exceptions import UndefinedMetricWarning

import jupyter_mars.tensor as mt
from jupyter_mars.learn import metrics
from jupyter_mars.tensor.core import Tensor

RNG = np.random.default_rng(2)
N = 19
Y_TRUE = RNG.integers(0, 4, N)
Y_PRED = np.where(Y_TRUE == 3, 0, RNG.integers(0, 3, N))  # class 3 is never predicted
WEIGHT = RNG.random(N)
ML_TRUE = RNG.integers(0, 2, (N, 3))
ML_PRED = RNG.integers(0, 2, (N, 3))
ML_PRED[:, 2] = 0
ML_PRED[:3] = 0  # samples without predicted labels


def recorded(func: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, list[str]]:
    """The result of ``func``, and the warnings it gave (their categories and texts)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = func(*args, **kwargs)
    return result, [f"{w.category.__name__}: {w.message}" for w in caught]


def data(x: Any) -> Any:
    return x.execute().fetch() if isinstance(x, Tensor) else x


def assert_same_scores(ours: tuple[Any, ...], theirs: tuple[Any, ...]) -> None:
    for got, expected in zip(ours, theirs, strict=True):
        if expected is None:
            assert got is None
            continue
        assert isinstance(got, Tensor)
        np.testing.assert_allclose(data(got), expected)
        assert np.shape(data(got)) == np.shape(expected)


KWARGS = [
    {},
    {"sample_weight": WEIGHT},
    {"beta": 2.0},
    {"beta": 0.0},
    {"beta": np.inf},
    {"zero_division": 1.0},
    {"zero_division": np.nan},
    {"labels": [3, 0]},
]


@pytest.mark.parametrize("average", [None, "micro", "macro", "weighted"])
@pytest.mark.parametrize("kwargs", KWARGS, ids=str)
def test_multiclass_scores_and_warnings_are_scikit_learns(
    average: Any, kwargs: dict[str, Any]
) -> None:
    expected, their_warnings = recorded(
        sk.precision_recall_fscore_support, Y_TRUE, Y_PRED, average=average, **kwargs
    )
    got, our_warnings = recorded(
        metrics.precision_recall_fscore_support,
        mt.tensor(Y_TRUE, chunk_size=4),
        mt.tensor(Y_PRED, chunk_size=7),
        average=average,
        **kwargs,
    )
    assert_same_scores(got, expected)
    assert our_warnings == their_warnings


@pytest.mark.parametrize("average", [None, "micro", "macro", "weighted", "samples"])
@pytest.mark.parametrize("kwargs", KWARGS[:2] + KWARGS[5:], ids=str)
def test_multilabel_scores_and_warnings_are_scikit_learns(
    average: Any, kwargs: dict[str, Any]
) -> None:
    kwargs = {k: ([2, 0] if k == "labels" else v) for k, v in kwargs.items()}
    expected, their_warnings = recorded(
        sk.precision_recall_fscore_support, ML_TRUE, ML_PRED, average=average, **kwargs
    )
    got, our_warnings = recorded(
        metrics.precision_recall_fscore_support,
        mt.tensor(ML_TRUE, chunk_size=(4, 2)),
        ML_PRED,
        average=average,
        **kwargs,
    )
    assert_same_scores(got, expected)
    assert our_warnings == their_warnings


@pytest.mark.parametrize("chunks", [5, N])
def test_binary_scores_of_the_positive_label(chunks: int) -> None:
    names = np.array(["spam", "ham"])
    y_true, y_pred = names[Y_TRUE % 2], names[Y_PRED % 2]
    true, pred = mt.tensor(y_true, chunk_size=chunks), mt.tensor(y_pred, chunk_size=chunks)
    for name in ("precision_score", "recall_score", "f1_score"):
        ours, theirs = getattr(metrics, name), getattr(sk, name)
        got = ours(true, pred, pos_label="spam", sample_weight=WEIGHT)
        assert got.ndim == 0
        expected = theirs(y_true, y_pred, pos_label="spam", sample_weight=WEIGHT)
        np.testing.assert_allclose(float(got.execute().fetch()), expected)
    got = metrics.fbeta_score(true, pred, beta=0.5, pos_label="ham")
    expected = sk.fbeta_score(y_true, y_pred, beta=0.5, pos_label="ham")
    np.testing.assert_allclose(float(got.execute().fetch()), expected)


@pytest.mark.parametrize(
    ("name", "kwargs"),
    [
        ("precision_score", {"average": "macro"}),
        ("recall_score", {"average": None}),
        ("f1_score", {"average": "weighted"}),
        ("fbeta_score", {"average": "micro", "beta": 3.0}),
    ],
)
def test_each_score_warns_of_itself_only(name: str, kwargs: dict[str, Any]) -> None:
    y_pred = Y_PRED.copy()
    y_pred[Y_PRED == 1] = 0  # class 1 is never predicted either
    expected, their_warnings = recorded(getattr(sk, name), Y_TRUE, y_pred, **kwargs)
    got, our_warnings = recorded(getattr(metrics, name), Y_TRUE, y_pred, **kwargs)
    np.testing.assert_allclose(data(got), expected)
    assert our_warnings == their_warnings


def test_scores_with_zero_division_set_do_not_warn() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", UndefinedMetricWarning)
        got = metrics.precision_score(Y_TRUE, Y_PRED, average="macro", zero_division=0)
    assert float(got.execute().fetch()) == sk.precision_score(
        Y_TRUE, Y_PRED, average="macro", zero_division=0
    )


def test_pos_label_is_ignored_with_a_warning_unless_binary() -> None:
    with pytest.warns(UserWarning, match="pos_label"):
        metrics.f1_score(Y_TRUE, Y_TRUE, average="macro", pos_label=2)


@pytest.mark.parametrize(
    ("y_true", "y_pred", "kwargs", "message"),
    [
        (Y_TRUE, Y_PRED, {"average": "binary"}, "Target is multiclass but average='binary'"),
        (Y_TRUE % 2, Y_PRED % 2, {"pos_label": 2}, "pos_label=2 is not a valid label"),
        (Y_TRUE, Y_PRED, {"average": "samples"}, "Samplewise metrics are not available"),
        (Y_TRUE, Y_PRED, {"average": "mean"}, "average"),
        (Y_TRUE, Y_PRED, {"average": "macro", "beta": -1.0}, "beta"),
        (Y_TRUE, Y_PRED, {"average": "macro", "zero_division": 2}, "zero_division"),
        (["a", "b"], [0, 1], {}, "Mix of label input types"),
    ],
)
def test_bad_arguments_raise_value_errors(
    y_true: Any, y_pred: Any, kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        sk.fbeta_score(y_true, y_pred, **{"beta": 1.0, **kwargs})
    with pytest.raises(ValueError, match=message):
        metrics.fbeta_score(y_true, y_pred, **{"beta": 1.0, **kwargs})


@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_random_label_vectors(data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 15))
    labels = st.lists(st.integers(0, 3), min_size=n, max_size=n)
    y_true, y_pred = np.array(data.draw(labels)), np.array(data.draw(labels))
    average = data.draw(st.sampled_from([None, "micro", "macro", "weighted"]))
    chunk = data.draw(st.integers(1, n))
    expected, their_warnings = recorded(
        sk.precision_recall_fscore_support, y_true, y_pred, average=average
    )
    got, our_warnings = recorded(
        metrics.precision_recall_fscore_support,
        mt.tensor(y_true, chunk_size=chunk),
        y_pred,
        average=average,
    )
    assert_same_scores(got, expected)
    assert our_warnings == their_warnings
