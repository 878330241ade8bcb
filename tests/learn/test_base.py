"""The mixins' ``score``: scikit-learn's accuracy and R² of ``predict``, computed on the
session given, for any estimator with a ``predict`` that returns a tensor."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from sklearn.base import BaseEstimator, is_classifier, is_regressor
from sklearn.metrics import accuracy_score, r2_score

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.learn.base import ClassifierMixin, RegressorMixin

RNG = np.random.default_rng(0)
X = RNG.normal(size=(40, 3))
WEIGHTS = RNG.random(40)


class SignClassifier(ClassifierMixin, BaseEstimator):  # type: ignore[misc]
    """Predicts whether the first feature is positive."""

    def predict(self, X: Any) -> Any:  # noqa: N803
        return mt.tensor(np.asarray(X), chunk_size=7)[:, 0] > 0


class SumRegressor(RegressorMixin, BaseEstimator):  # type: ignore[misc]
    """Predicts the sum of the features."""

    def predict(self, X: Any) -> Any:  # noqa: N803
        return mt.tensor(np.asarray(X), chunk_size=9).sum(axis=1)


@pytest.mark.parametrize("weights", [None, WEIGHTS])
def test_scores_are_scikit_learns_on_the_session_given(weights: Any, session: mars.Session) -> None:
    truth = RNG.random(40) > 0.4
    classifier = SignClassifier()
    expected = accuracy_score(truth, X[:, 0] > 0, sample_weight=weights)
    got = classifier.score(X, truth, sample_weight=weights, session=session)
    assert isinstance(got, float)
    assert got == pytest.approx(expected, rel=1e-12)
    target = X.sum(axis=1) + RNG.normal(scale=0.5, size=40)
    expected = r2_score(target, X.sum(axis=1), sample_weight=weights)
    assert SumRegressor().score(X, target, weights, session) == pytest.approx(expected, rel=1e-12)
    assert is_classifier(classifier)
    assert is_regressor(SumRegressor())
