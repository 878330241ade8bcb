"""``accuracy_score`` and ``log_loss`` against scikit-learn's on the same data, over
several chunkings and forms of input."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as sk

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.metrics import accuracy_score, log_loss
from jupyter_mars.tensor.core import Tensor

RNG = np.random.default_rng(0)
N = 23
Y_TRUE = RNG.integers(0, 4, N)
Y_PRED = np.where(RNG.random(N) < 0.6, Y_TRUE, RNG.integers(0, 4, N))
WEIGHT = RNG.random(N)
PROBA = RNG.random((N, 4))
PROBA /= PROBA.sum(axis=1, keepdims=True)
CHUNKS = [5, N]


def value(score: Tensor) -> float:
    assert isinstance(score, Tensor)
    assert score.ndim == 0
    return float(score.execute().fetch())


@pytest.mark.parametrize("chunks", CHUNKS)
@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"normalize": False},
        {"sample_weight": WEIGHT},
        {"normalize": False, "sample_weight": WEIGHT},
    ],
    ids=["mean", "count", "weighted", "weighted-sum"],
)
def test_accuracy_is_scikit_learns(chunks: int, kwargs: dict[str, Any]) -> None:
    y_true = mt.tensor(Y_TRUE, chunk_size=chunks)
    y_pred = mt.tensor(Y_PRED, chunk_size=chunks)
    expected = sk.accuracy_score(Y_TRUE, Y_PRED, **kwargs)
    np.testing.assert_allclose(value(accuracy_score(y_true, y_pred, **kwargs)), expected)


def test_accuracy_of_labels_in_every_form() -> None:
    names = np.array(["ant", "bee", "cat", "dog"])
    y_true, y_pred = names[Y_TRUE], names[Y_PRED]
    expected = sk.accuracy_score(y_true, y_pred)
    forms = [
        (list(y_true), list(y_pred)),
        (pd.Series(y_true), pd.Series(y_pred, dtype=object)),
        (mt.tensor(y_true, chunk_size=5), y_pred),
        (md.Series(pd.Series(y_true), chunk_size=5), md.Series(pd.Series(y_pred), chunk_size=7)),
    ]
    for true, pred in forms:
        np.testing.assert_allclose(value(accuracy_score(true, pred)), expected)


@pytest.mark.parametrize("chunks", [(5, 2), (N, 3)])
def test_multilabel_accuracy_is_subset_accuracy(chunks: Any) -> None:
    y_true = RNG.integers(0, 2, (N, 3))
    y_pred = y_true.copy()
    y_pred[::4, 1] = 1 - y_pred[::4, 1]
    frame = md.DataFrame(pd.DataFrame(y_pred), chunk_size=chunks[0])
    for pred in (mt.tensor(y_pred, chunk_size=chunks), frame):
        got = accuracy_score(mt.tensor(y_true, chunk_size=chunks), pred, sample_weight=WEIGHT)
        np.testing.assert_allclose(
            value(got), sk.accuracy_score(y_true, y_pred, sample_weight=WEIGHT)
        )


def test_accuracy_runs_on_the_session_given(session: Any) -> None:
    score = accuracy_score(Y_TRUE, Y_PRED, session=session, run_kwargs={"show_progress": False})
    assert float(score.execute(session=session).fetch(session=session)) == sk.accuracy_score(
        Y_TRUE, Y_PRED
    )


@pytest.mark.parametrize(
    ("y_true", "y_pred", "message"),
    [
        ([0, 1, 2], [0.5, 1.0, 0.2], "mix of multiclass and continuous"),
        (["a", "b"], [0, 1], "Mix of label input types"),
        ([0, 1, 2], [0, 1], "inconsistent numbers of samples"),
    ],
)
def test_accuracy_refuses_what_scikit_learn_refuses(y_true: Any, y_pred: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        sk.accuracy_score(y_true, y_pred)
    with pytest.raises(ValueError, match=message):
        accuracy_score(y_true, y_pred)


@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_accuracy_of_random_label_vectors(data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 15))
    labels = st.lists(st.sampled_from(["x", "y", "z"]), min_size=n, max_size=n)
    y_true, y_pred = data.draw(labels), data.draw(labels)
    chunk = data.draw(st.integers(1, n))
    got = accuracy_score(mt.tensor(np.array(y_true), chunk_size=chunk), y_pred, normalize=False)
    assert value(got) == sk.accuracy_score(y_true, y_pred, normalize=False)


# ---- log_loss ------------------------------------------------------------------------------------


@pytest.mark.parametrize("chunks", CHUNKS)
@pytest.mark.parametrize(
    "kwargs",
    [{}, {"normalize": False}, {"sample_weight": WEIGHT}, {"labels": [0, 1, 2, 3]}],
    ids=["mean", "sum", "weighted", "labels"],
)
def test_log_loss_is_scikit_learns(chunks: int, kwargs: dict[str, Any]) -> None:
    y_true = mt.tensor(Y_TRUE, chunk_size=chunks)
    proba = mt.tensor(PROBA, chunk_size=(chunks, 2))
    expected = sk.log_loss(Y_TRUE, PROBA, **kwargs)
    np.testing.assert_allclose(value(log_loss(y_true, proba, **kwargs)), expected)


def test_log_loss_of_binary_probabilities_and_string_labels() -> None:
    y_true = np.array(["no", "yes"])[Y_TRUE % 2]
    positive = PROBA[:, 0]
    frame = md.DataFrame(pd.DataFrame({"no": 1 - positive, "yes": positive}), chunk_size=6)
    expected = sk.log_loss(y_true, positive)
    np.testing.assert_allclose(value(log_loss(pd.Series(y_true), positive)), expected)
    np.testing.assert_allclose(value(log_loss(md.Series(pd.Series(y_true)), frame)), expected)


def test_log_loss_clips_certain_probabilities_as_scikit_learn_does() -> None:
    y_true = np.array([0, 1, 1, 0])
    certain = np.array([1.0, 0.0, 1.0, 0.0])
    for dtype in (np.float64, np.float32):
        proba = certain.astype(dtype)
        got = value(log_loss(mt.tensor(y_true, chunk_size=3), mt.tensor(proba, chunk_size=3)))
        np.testing.assert_allclose(got, sk.log_loss(y_true, proba), rtol=1e-6)


def test_log_loss_of_multilabel_targets() -> None:
    y_true = RNG.integers(0, 2, (N, 3))
    proba = RNG.random((N, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # rows not summing to one, both
        expected = sk.log_loss(y_true, proba)
        got = log_loss(mt.tensor(y_true, chunk_size=5), mt.tensor(proba, chunk_size=5))
    np.testing.assert_allclose(value(got), expected)


def test_log_loss_warns_where_probabilities_do_not_sum_to_one() -> None:
    with pytest.warns(UserWarning, match="do not sum to one"):
        sk.log_loss(Y_TRUE, PROBA * 1.1)
    with pytest.warns(UserWarning, match="do not sum to one"):
        loss = log_loss(Y_TRUE, mt.tensor(PROBA * 1.1, chunk_size=5))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        np.testing.assert_allclose(value(loss), sk.log_loss(Y_TRUE, PROBA * 1.1))


def test_log_loss_warns_of_labels_not_in_order() -> None:
    with pytest.warns(UserWarning, match="ordered lexicographically"):
        loss = log_loss(Y_TRUE, PROBA, labels=[3, 2, 1, 0])
    with pytest.warns(UserWarning, match="ordered lexicographically"):
        expected = sk.log_loss(Y_TRUE, PROBA, labels=[3, 2, 1, 0])
    np.testing.assert_allclose(value(loss), expected)


def test_log_loss_keyword_y_pred_is_deprecated() -> None:
    with pytest.warns(FutureWarning, match="renamed to `y_proba`"):
        loss = log_loss(Y_TRUE, y_pred=PROBA)
    np.testing.assert_allclose(value(loss), sk.log_loss(Y_TRUE, PROBA))


@pytest.mark.parametrize(
    ("y_true", "proba", "kwargs", "message"),
    [
        (Y_TRUE, PROBA * 2, {}, "y_prob contains values greater than 1"),
        (Y_TRUE, PROBA - 1, {}, "y_prob contains values lower than 0"),
        (np.zeros(N), PROBA, {}, "y_true contains only one label"),
        (np.ones(N), PROBA, {"labels": [1]}, "needs to contain at least two labels"),
        (Y_TRUE, PROBA[:, :3], {}, "different number of classes"),
        (Y_TRUE, PROBA, {"labels": [0, 1, 2]}, "y_true contains values"),
        (Y_TRUE, PROBA[:5], {}, "inconsistent numbers of samples"),
        (Y_TRUE, PROBA, {"sample_weight": np.zeros(N)}, "at least one non-zero"),
    ],
)
def test_log_loss_refuses_what_scikit_learn_refuses(
    y_true: Any, proba: Any, kwargs: dict[str, Any], message: str
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        with pytest.raises(ValueError, match=message):
            sk.log_loss(y_true, proba, **kwargs)
        with pytest.raises(ValueError, match=message):
            log_loss(mt.tensor(y_true, chunk_size=5), proba, **kwargs)
