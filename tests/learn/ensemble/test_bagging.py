"""Bagging against scikit-learn's: the same members where every member sees every row,
the same quality where they see samples."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from sklearn import ensemble as sk
from sklearn.base import clone
from sklearn.datasets import make_classification, make_regression
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.ensemble import BaggingClassifier, BaggingRegressor
from jupyter_mars.learn.utils import fetch_all

X, Y = make_classification(
    400, 6, n_informative=4, n_redundant=0, n_classes=3, random_state=0, class_sep=1.5
)
X_TRAIN, Y_TRAIN, X_TEST, Y_TEST = X[:300], Y[:300], X[300:], Y[300:]
XR, YR = make_regression(300, 5, noise=5.0, random_state=0)
CHUNKS = [(47, 4), (300, 6)]


def values(t: Any) -> Any:
    return fetch_all(t)[0]


@pytest.mark.parametrize("chunks", CHUNKS)
def test_members_that_see_every_row_are_scikit_learns(chunks: Any) -> None:
    params = {"n_estimators": 4, "bootstrap": False, "max_features": 0.5, "random_state": 3}
    ours = BaggingClassifier(LogisticRegression(), **params)
    ours.fit(mt.tensor(X_TRAIN, chunk_size=chunks), Y_TRAIN)
    theirs = sk.BaggingClassifier(LogisticRegression(), **params).fit(X_TRAIN, Y_TRAIN)
    for a, b in zip(ours.estimators_features_, theirs.estimators_features_, strict=True):
        np.testing.assert_array_equal(a, b)
    x = mt.tensor(X_TEST, chunk_size=chunks)
    proba = values(ours.predict_proba(x))
    np.testing.assert_allclose(proba, theirs.predict_proba(X_TEST), atol=1e-4)
    np.testing.assert_allclose(values(ours.predict_log_proba(x)), np.log(proba))
    np.testing.assert_allclose(
        values(ours.decision_function(x)), theirs.decision_function(X_TEST), atol=1e-3
    )
    np.testing.assert_array_equal(values(ours.predict(x)), ours.classes_[proba.argmax(axis=1)])
    assert ours.score(x, Y_TEST) == pytest.approx(theirs.score(X_TEST, Y_TEST), abs=0.02)


@pytest.mark.parametrize("chunks", CHUNKS)
def test_regressor_members_that_see_every_row_are_scikit_learns(chunks: Any) -> None:
    params = {"n_estimators": 3, "bootstrap": False, "max_features": 3, "random_state": 1}
    ours = BaggingRegressor(LinearRegression(), **params)
    ours.fit(mt.tensor(XR, chunk_size=chunks), YR)
    theirs = sk.BaggingRegressor(LinearRegression(), **params).fit(XR, YR)
    x = mt.tensor(XR, chunk_size=chunks)
    np.testing.assert_allclose(values(ours.predict(x)), theirs.predict(XR), rtol=1e-8)
    assert ours.score(x, YR) == pytest.approx(theirs.score(XR, YR), rel=1e-10)
    two = np.column_stack([YR, -YR])
    both = BaggingRegressor(LinearRegression(), **params).fit(XR, two)
    expected = np.column_stack([theirs.predict(XR), -theirs.predict(XR)])
    np.testing.assert_allclose(values(both.predict(XR)), expected, rtol=1e-8)


@pytest.mark.parametrize("chunks", CHUNKS)
@pytest.mark.parametrize(
    "params",
    [
        {},
        {"max_samples": 0.5, "bootstrap": False, "max_features": 0.7},
        {"max_samples": 120, "bootstrap_features": True},
    ],
)
def test_sampled_members_predict_as_well_as_scikit_learns(chunks: Any, params: Any) -> None:
    ours = BaggingClassifier(n_estimators=10, random_state=0, **params)
    ours.fit(mt.tensor(X_TRAIN, chunk_size=chunks), Y_TRAIN)
    theirs = sk.BaggingClassifier(n_estimators=10, random_state=0, **params)
    theirs.fit(X_TRAIN, Y_TRAIN)
    assert len(ours.estimators_) == 10
    assert all(isinstance(e, DecisionTreeClassifier) for e in ours.estimators_)
    assert ours.score(X_TEST, Y_TEST) > theirs.score(X_TEST, Y_TEST) - 0.08
    proba = values(ours.predict_proba(mt.tensor(X_TEST, chunk_size=chunks)))
    assert proba.shape == (100, 3)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    regressor = BaggingRegressor(n_estimators=10, random_state=0, **params)
    regressor.fit(mt.tensor(XR[:200], chunk_size=chunks), YR[:200])
    reference = sk.BaggingRegressor(n_estimators=10, random_state=0, **params)
    reference.fit(XR[:200], YR[:200])
    assert all(isinstance(e, DecisionTreeRegressor) for e in regressor.estimators_)
    assert regressor.score(XR[200:], YR[200:]) > reference.score(XR[200:], YR[200:]) - 0.1


def test_labels_and_frames_as_inputs() -> None:
    names = np.array(["cat", "dog", "eel"])
    frame = pd.DataFrame(X_TRAIN, columns=list("abcdef"))
    test = pd.DataFrame(X_TEST, columns=frame.columns)  # the names seen at fit
    labels = pd.Series(names[Y_TRAIN])
    ours = BaggingClassifier(n_estimators=5, random_state=0)
    ours.fit(md.DataFrame(frame, chunk_size=70), md.Series(labels, chunk_size=70))
    np.testing.assert_array_equal(ours.classes_, names)
    predicted = values(ours.predict(md.DataFrame(test, chunk_size=30)))
    assert set(predicted) <= set(names)
    assert ours.score(test, names[Y_TEST]) > 0.7
    in_memory = BaggingClassifier(n_estimators=5, random_state=0).fit(frame, labels)
    assert in_memory.score(test, pd.Series(names[Y_TEST])) > 0.7


def test_warm_start_adds_members() -> None:
    ours = BaggingClassifier(n_estimators=3, warm_start=True, random_state=5, max_features=0.5)
    ours.fit(X_TRAIN, Y_TRAIN)
    first = list(ours.estimators_)
    ours.set_params(n_estimators=5).fit(X_TRAIN, Y_TRAIN)
    assert ours.estimators_[:3] == first
    assert len(ours.estimators_) == 5
    theirs = sk.BaggingClassifier(n_estimators=3, warm_start=True, random_state=5, max_features=0.5)
    theirs.fit(X_TRAIN, Y_TRAIN).set_params(n_estimators=5).fit(X_TRAIN, Y_TRAIN)
    for a, b in zip(ours.estimators_features_, theirs.estimators_features_, strict=True):
        np.testing.assert_array_equal(a, b)
    with pytest.warns(UserWarning, match="does not fit new trees"):
        ours.fit(X_TRAIN, Y_TRAIN)
    with pytest.raises(ValueError, match="n_estimators=2 must be larger or equal"):
        ours.set_params(n_estimators=2).fit(X_TRAIN, Y_TRAIN)


@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"n_estimators": 0}, "n_estimators"),
        ({"max_samples": 1000, "bootstrap": False}, "max_samples"),
        ({"max_features": 9}, "max_features"),
        ({"max_samples": 1.5}, "max_samples"),
        ({"estimator": "tree"}, "estimator"),
    ],
)
def test_bad_parameters_raise_at_fit(params: dict[str, Any], match: str) -> None:
    model = BaggingClassifier(**params)  # stored as given
    assert model.get_params()[next(iter(params))] == next(iter(params.values()))
    with pytest.raises(ValueError, match=match):
        model.fit(X_TRAIN, Y_TRAIN)


def test_unfitted_bad_inputs_and_cloning() -> None:
    model = BaggingClassifier(DecisionTreeClassifier(max_depth=2), n_estimators=2)
    with pytest.raises(NotFittedError):
        model.predict(X_TEST)
    with pytest.raises(ValueError, match="Unknown label type"):
        model.fit(X_TRAIN, np.linspace(0, 1, 300))
    model.fit(X_TRAIN, Y_TRAIN)
    with pytest.raises(ValueError, match="X has 5 features"):
        model.predict(X_TEST[:, :5])
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        model.fit(X_TRAIN, Y_TRAIN[:10])
    assert not hasattr(model, "decision_function")
    copy = clone(model)
    assert copy.get_params()["estimator__max_depth"] == 2
    assert not hasattr(copy, "estimators_")
