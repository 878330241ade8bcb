"""Block-wise voting against copies of the scikit-learn estimator fitted on each block."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.svm import LinearSVC

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.ensemble import BlockwiseVotingClassifier, BlockwiseVotingRegressor
from jupyter_mars.learn.utils import fetch_all

X, Y = make_classification(300, 5, n_informative=3, n_classes=3, random_state=1)
LABELS = np.array(["x", "y", "z"])[Y]
Y_VALUE = X @ np.arange(1.0, 6.0) + np.random.default_rng(0).normal(size=300)
ROW_CHUNKS = [70, 300]


def values(t: Any) -> Any:
    return fetch_all(t)[0]


def block_copies(estimator: Any, rows: int, y: np.ndarray) -> list[Any]:
    return [clone(estimator).fit(X[i : i + rows], y[i : i + rows]) for i in range(0, 300, rows)]


@pytest.mark.parametrize("rows", ROW_CHUNKS)
def test_votes_are_those_of_a_copy_per_block(rows: int) -> None:
    x = mt.tensor(X, chunk_size=(rows, 2))
    y = mt.tensor(LABELS, chunk_size=41)  # chunked apart from X
    copies = block_copies(LogisticRegression(), rows, LABELS)
    classes = np.array(["x", "y", "z"])

    hard = BlockwiseVotingClassifier(LogisticRegression()).fit(x, y)
    assert len(hard.estimators_) == len(copies)
    for ours, theirs in zip(hard.estimators_, copies, strict=True):
        np.testing.assert_allclose(ours.coef_, theirs.coef_)
    votes = np.zeros((300, 3), dtype=int)
    for copy in copies:
        votes[np.arange(300), np.searchsorted(classes, copy.predict(X))] += 1
    np.testing.assert_array_equal(values(hard.predict(x)), classes[votes.argmax(axis=1)])
    assert not hasattr(hard, "predict_proba")

    soft = BlockwiseVotingClassifier(LogisticRegression(), voting="soft").fit(x, y)
    proba = np.mean([copy.predict_proba(X) for copy in copies], axis=0)
    np.testing.assert_allclose(values(soft.predict_proba(x)), proba)
    np.testing.assert_array_equal(values(soft.predict(x)), classes[proba.argmax(axis=1)])
    accuracy = np.mean(classes[proba.argmax(axis=1)] == LABELS)
    assert soft.score(x, LABELS) == pytest.approx(accuracy)


@pytest.mark.parametrize("rows", ROW_CHUNKS)
def test_regressor_averages_a_copy_per_block(rows: int) -> None:
    x = mt.tensor(X, chunk_size=rows)
    copies = block_copies(LinearRegression(), rows, Y_VALUE)
    ours = BlockwiseVotingRegressor(LinearRegression()).fit(x, Y_VALUE)
    expected = np.mean([copy.predict(X) for copy in copies], axis=0)
    np.testing.assert_allclose(values(ours.predict(x)), expected, rtol=1e-10)
    residual = ((Y_VALUE - expected) ** 2).sum() / ((Y_VALUE - Y_VALUE.mean()) ** 2).sum()
    assert ours.score(X, Y_VALUE) == pytest.approx(1 - residual, rel=1e-10)


def test_given_classes_and_frames() -> None:
    frame = md.DataFrame(pd.DataFrame(X), chunk_size=100)
    model = BlockwiseVotingClassifier(LogisticRegression(), voting="soft", classes=[3, 0, 1, 2])
    model.fit(frame, md.Series(pd.Series(Y), chunk_size=100))
    np.testing.assert_array_equal(model.classes_, [0, 1, 2, 3])
    proba = values(model.predict_proba(frame))
    assert proba.shape == (300, 4)
    np.testing.assert_allclose(proba[:, 3], 0.0)
    assert model.score(X, Y) > 0.6


def test_bad_parameters_unfitted_use_and_cloning() -> None:
    with pytest.raises(ValueError, match="voting"):
        BlockwiseVotingClassifier(LogisticRegression(), voting="most").fit(X, Y)
    with pytest.raises(ValueError, match="voting='soft'"):
        BlockwiseVotingClassifier(LinearSVC(), voting="soft").fit(X, Y)
    with pytest.raises(ValueError, match="estimator"):
        BlockwiseVotingRegressor("linear").fit(X, Y_VALUE)
    model = BlockwiseVotingClassifier(LogisticRegression(C=0.5), classes=[0, 1, 2])
    with pytest.raises(NotFittedError):
        model.predict(X)
    model.fit(X, Y)
    with pytest.raises(ValueError, match="X has 4 features"):
        model.predict(X[:, :4])
    copy = clone(model)
    assert copy.get_params()["estimator__C"] == 0.5
    assert copy.get_params()["classes"] == [0, 1, 2]
    assert not hasattr(copy, "estimators_")
