"""``LogisticRegression`` against scikit-learn's on the same data, over several chunkings:
binomial and multinomial, penalties, sample and class weights, labels of every kind,
and scikit-learn's errors and warnings."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import linear_model as sk
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.pipeline import make_pipeline

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn import glm, linear_model
from jupyter_mars.learn.decomposition import PCA
from jupyter_mars.learn.glm import LogisticRegression
from jupyter_mars.learn.utils import fetch_all
from jupyter_mars.tensor.core import Tensor

X2, Y2 = make_classification(240, 5, n_informative=3, random_state=0)
X3, Y3 = make_classification(240, 5, n_informative=3, n_redundant=1, n_classes=3, random_state=1)
WEIGHTS = np.random.default_rng(3).random(240) * 2
CHUNKS = [(41, 5), (240, 5)]
"""Uneven row chunks, and one chunk."""


def assert_close_fit(ours: Any, theirs: Any, data: Any, labels: Any, atol: float = 1e-6) -> None:
    """Coefficients as close as the optimiser's tolerance allows, the same classes and
    iterations, accuracy within 1%."""
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    assert ours.coef_.shape == theirs.coef_.shape
    assert ours.intercept_.shape == theirs.intercept_.shape
    assert ours.coef_.dtype == theirs.coef_.dtype
    assert ours.n_iter_.shape == theirs.n_iter_.shape == (1,)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=atol)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, atol=atol)
    assert abs(ours.score(data, labels) - theirs.score(data, labels)) <= 0.01


@pytest.mark.parametrize("chunks", CHUNKS)
@pytest.mark.parametrize(
    ("kwargs", "weights"),
    [
        ({}, None),
        ({"C": 0.05, "class_weight": "balanced"}, WEIGHTS),
        ({"C": np.inf, "fit_intercept": False, "class_weight": {0: 3.0}}, None),
    ],
)
@pytest.mark.parametrize(("data", "labels"), [(X2, Y2), (X3, Y3)], ids=["binomial", "multinomial"])
def test_fits_and_predicts_as_scikit_learn(
    data: np.ndarray, labels: np.ndarray, kwargs: dict[str, Any], weights: Any, chunks: Any
) -> None:
    x = mt.tensor(data, chunk_size=chunks)
    ours = LogisticRegression(**kwargs).fit(x, labels, sample_weight=weights)
    theirs = sk.LogisticRegression(**kwargs).fit(data, labels, sample_weight=weights)
    assert_close_fit(ours, theirs, data, labels)
    outputs = [ours.decision_function(x), ours.predict_proba(x), ours.predict_log_proba(x)]
    predicted = ours.predict(x)
    assert all(isinstance(t, Tensor) for t in [*outputs, predicted])
    got = fetch_all(*outputs, predicted)
    np.testing.assert_allclose(got[0], theirs.decision_function(data), atol=1e-5)
    np.testing.assert_allclose(got[1], theirs.predict_proba(data), atol=1e-6)
    np.testing.assert_allclose(got[2], theirs.predict_log_proba(data), atol=1e-5)
    assert np.mean(got[3] == theirs.predict(data)) >= 0.99
    weighted = ours.score(x, labels, sample_weight=weights)
    assert isinstance(weighted, float)
    assert weighted == pytest.approx(theirs.score(data, labels, sample_weight=weights), abs=0.01)


@given(
    rows=st.integers(12, 60),
    cols=st.integers(1, 4),
    chunk=st.integers(3, 60),
    n_classes=st.integers(2, 4),
    seed=st.integers(0, 2**16),
)
@settings(max_examples=4, deadline=None)
def test_matches_on_any_shape_and_chunking(
    rows: int, cols: int, chunk: int, n_classes: int, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    data = rng.normal(size=(rows, cols))
    labels = np.arange(rows) % n_classes  # every class present
    rng.shuffle(labels)
    x = mt.tensor(data, chunk_size=(chunk, cols))
    ours = LogisticRegression(C=0.5).fit(x, labels)
    theirs = sk.LogisticRegression(C=0.5).fit(data, labels)
    assert_close_fit(ours, theirs, data, labels, atol=1e-5)


def test_labels_of_every_kind() -> None:
    names = np.array(["cat", "dog"])[Y2]
    theirs = sk.LogisticRegression().fit(X2, names)
    frame = pd.DataFrame(X2)
    for data, labels in [
        (X2, names.tolist()),
        (X2, pd.Series(names)),  # object strings, as pandas holds them
        (mt.tensor(X2, chunk_size=50), mt.tensor(names, chunk_size=60)),
        (md.DataFrame(frame, chunk_size=50), md.Series(pd.Series(names), chunk_size=50)),
        (frame, names.reshape(-1, 1)),
    ]:
        ours = LogisticRegression().fit(data, labels)
        assert_close_fit(ours, theirs, X2, names)
        (predicted,) = fetch_all(ours.predict(X2))
        np.testing.assert_array_equal(predicted, theirs.predict(X2))
    # three classes, the second of them (in sorted order) numbered -2
    numbers = np.array([5, -2, 9])[Y3]
    ours = LogisticRegression().fit(X3, numbers)
    assert_close_fit(ours, sk.LogisticRegression().fit(X3, numbers), X3, numbers)
    (predicted,) = fetch_all(ours.predict(X3))
    np.testing.assert_array_equal(predicted, sk.LogisticRegression().fit(X3, numbers).predict(X3))


def test_rows_known_only_after_computing_are_computed_first() -> None:
    frame = pd.DataFrame(X3).assign(y=Y3)
    lazy = md.DataFrame(frame, chunk_size=60)
    cut = frame[0].median()
    lazy, kept = lazy[lazy[0] > cut], frame[frame[0] > cut]
    columns = list(range(5))
    ours = LogisticRegression().fit(lazy[columns], lazy["y"])
    theirs = sk.LogisticRegression().fit(kept[columns].to_numpy(), kept.y)
    assert_close_fit(ours, theirs, kept[columns].to_numpy(), kept.y.to_numpy())


def test_float32_stays_float32() -> None:
    single = X2.astype(np.float32)
    ours = LogisticRegression().fit(single, Y2)
    theirs = sk.LogisticRegression().fit(single, Y2)
    assert ours.coef_.dtype == ours.intercept_.dtype == np.float32
    assert_close_fit(ours, theirs, single, Y2, atol=1e-4)


def test_too_few_iterations_warn_as_scikit_learn() -> None:
    with pytest.warns(ConvergenceWarning, match="lbfgs failed to converge"):
        theirs = sk.LogisticRegression(max_iter=2).fit(X3, Y3)
    with pytest.warns(ConvergenceWarning, match="lbfgs failed to converge"):
        ours = LogisticRegression(max_iter=2).fit(X3, Y3)
    assert ours.n_iter_[0] == theirs.n_iter_[0] == 2
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-8)


def test_warm_start_goes_on_from_the_last_fit() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = LogisticRegression(max_iter=3, warm_start=True).fit(X3, Y3)
        first = model.coef_.copy()
        model.fit(X3, Y3)
    full = sk.LogisticRegression().fit(X3, Y3)
    assert np.abs(model.coef_ - full.coef_).max() < np.abs(first - full.coef_).max()


def test_the_deprecated_penalty_argument_still_works() -> None:
    with pytest.warns(FutureWarning, match="'penalty' is deprecated"):
        ours = LogisticRegression(penalty=None).fit(X2, Y2)
    assert_close_fit(ours, sk.LogisticRegression(C=np.inf).fit(X2, Y2), X2, Y2)
    with pytest.warns(FutureWarning, match="'penalty' is deprecated"):
        ours = LogisticRegression(penalty="l2", C=0.1).fit(X2, Y2)
    assert_close_fit(ours, sk.LogisticRegression(C=0.1).fit(X2, Y2), X2, Y2)
    with pytest.warns(FutureWarning, match="'n_jobs' has no effect"):
        LogisticRegression(n_jobs=2).fit(X2, Y2)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"C": -1.0}, ValueError, "'C' parameter"),
        ({"tol": -1.0}, ValueError, "'tol' parameter"),
        ({"max_iter": -1}, ValueError, "'max_iter' parameter"),
        ({"solver": "newton"}, ValueError, "'solver' parameter"),
        ({"class_weight": "even"}, ValueError, "'class_weight' parameter"),
        ({"l1_ratio": 1.0}, ValueError, "Solver lbfgs supports only 'l2' or None penalties"),
        ({"dual": True}, ValueError, "Solver lbfgs supports only dual=False"),
        ({"solver": "saga"}, NotImplementedError, "solver='saga' is not available here"),
    ],
)
def test_bad_arguments_raise(kwargs: dict[str, Any], error: type, match: str) -> None:
    model = LogisticRegression(**kwargs)
    assert model.get_params()["solver"] == kwargs.get("solver", "lbfgs")  # checked by fit
    with pytest.raises(error, match=match):
        model.fit(X2, Y2)


def test_bad_targets_and_unfitted_use_raise() -> None:
    with pytest.raises(ValueError, match="Unknown label type: continuous"):
        LogisticRegression().fit(X2, X2[:, 0])
    with pytest.raises(ValueError, match="only one class: np.int64\\(1\\)|only one class: 1"):
        LogisticRegression().fit(X2, np.ones(240, dtype=int))
    with pytest.raises(ValueError, match="y should be a 1d array"):
        LogisticRegression().fit(X2, np.c_[Y2, Y2])
    with pytest.raises(ValueError, match=r"inconsistent numbers of samples: \[240, 200\]"):
        LogisticRegression().fit(X2, Y2[:200])
    with pytest.raises(ValueError, match=r"The classes, \[0, 1\], are not in class_weight"):
        sk.LogisticRegression(class_weight={7: 1.0}).fit(X2, Y2)
    with pytest.raises(ValueError, match=r"The classes, \[0, 1\], are not in class_weight"):
        LogisticRegression(class_weight={7: 1.0}).fit(X2, Y2)
    with pytest.raises(ValueError, match="at least one non-zero number"):
        LogisticRegression().fit(X2, Y2, sample_weight=mt.zeros(240, chunk_size=100))
    with pytest.raises(NotFittedError):
        LogisticRegression().predict(X2)
    fitted = LogisticRegression().fit(X2, Y2)
    with pytest.raises(ValueError, match="X has 4 features, but LogisticRegression is expecting 5"):
        fitted.predict_proba(X2[:, :4])


def test_one_class_in_two_packages_and_a_scikit_learn_estimator() -> None:
    assert linear_model.LogisticRegression is glm.LogisticRegression is LogisticRegression
    model = LogisticRegression(C=0.3, class_weight="balanced", max_iter=50)
    assert clone(model).get_params() == model.get_params()
    pipeline = make_pipeline(PCA(3), LogisticRegression()).fit(X3, Y3)
    (predicted,) = fetch_all(pipeline.predict(X3))
    assert np.mean(predicted == Y3) == pytest.approx(pipeline.score(X3, Y3))
