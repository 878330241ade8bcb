"""``ParallelPostFit`` against the scikit-learn estimator it wraps."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone, is_classifier, is_regressor
from sklearn.decomposition import PCA
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.metrics import get_scorer
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.utils import fetch_all
from jupyter_mars.learn.wrappers import ParallelPostFit
from jupyter_mars.tensor.core import Tensor

RNG = np.random.default_rng(0)
X = RNG.normal(size=(60, 4))
Y_CLASS = (X[:, 0] + X[:, 1] > 0).astype(int) + (X[:, 2] > 1).astype(int)
Y_VALUE = X @ np.array([1.0, -2.0, 0.5, 0.0]) + RNG.normal(scale=0.1, size=60)
CHUNKS = [(7, 3), 13, (60, 4)]


def values(t: Any) -> Any:
    assert isinstance(t, Tensor)
    return fetch_all(t)[0]


@pytest.mark.parametrize("chunks", CHUNKS)
def test_classifier_methods_equal_scikit_learns_block_by_block(chunks: Any) -> None:
    ours = ParallelPostFit(LogisticRegression()).fit(X[:30], Y_CLASS[:30])
    theirs = LogisticRegression().fit(X[:30], Y_CLASS[:30])
    x = mt.tensor(X, chunk_size=chunks)
    np.testing.assert_array_equal(values(ours.predict(x)), theirs.predict(X))
    for method in ("predict_proba", "predict_log_proba", "decision_function"):
        got = values(getattr(ours, method)(x))
        np.testing.assert_allclose(got, getattr(theirs, method)(X), rtol=1e-10)
    assert ours.score(x, Y_CLASS) == theirs.score(X, Y_CLASS)
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)  # copied on the wrapper
    np.testing.assert_allclose(ours.estimator_.coef_, theirs.coef_)


@pytest.mark.parametrize("chunks", CHUNKS)
def test_regressor_and_transformer_equal_scikit_learns(chunks: Any) -> None:
    x = mt.tensor(X, chunk_size=chunks)
    ours = ParallelPostFit(LinearRegression()).fit(x, Y_VALUE)  # fetched for the fit
    theirs = LinearRegression().fit(X, Y_VALUE)
    np.testing.assert_allclose(values(ours.predict(x)), theirs.predict(X))
    assert ours.score(x, Y_VALUE) == pytest.approx(theirs.score(X, Y_VALUE), rel=1e-12)
    pipeline = make_pipeline(StandardScaler(), PCA(2))
    wrapped = ParallelPostFit(pipeline).fit(X)
    expected = clone(pipeline).fit(X).transform(X)
    got = values(wrapped.transform(x))
    assert got.shape == (60, 2)
    np.testing.assert_allclose(np.abs(got), np.abs(expected), rtol=1e-8)


def test_frames_keep_their_feature_names() -> None:
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    ours = ParallelPostFit(LogisticRegression()).fit(frame, Y_CLASS)
    theirs = LogisticRegression().fit(frame, Y_CLASS)
    distributed = md.DataFrame(frame, chunk_size=9)
    # the blocks reach the estimator as frames with its names (a warning would fail here)
    np.testing.assert_array_equal(values(ours.predict(distributed)), theirs.predict(frame))
    fitted_on_frame = ParallelPostFit(LogisticRegression()).fit(distributed, Y_CLASS)
    np.testing.assert_array_equal(fitted_on_frame.feature_names_in_, ["a", "b", "c", "d"])
    np.testing.assert_allclose(fitted_on_frame.estimator_.coef_, theirs.coef_)


def test_scoring_chunk_wise_or_by_scikit_learns_scorer() -> None:
    x = mt.tensor(X, chunk_size=11)
    theirs = LinearRegression().fit(X, Y_VALUE)
    mse = ParallelPostFit(LinearRegression(), scoring="neg_mean_squared_error").fit(X, Y_VALUE)
    expected = get_scorer("neg_mean_squared_error")(theirs, X, Y_VALUE)
    assert mse.score(x, Y_VALUE) == pytest.approx(expected, rel=1e-10)
    clf = LogisticRegression().fit(X, Y_CLASS > 0)
    auc = ParallelPostFit(LogisticRegression(), scoring="roc_auc").fit(X, Y_CLASS > 0)
    assert auc.score(x, Y_CLASS > 0) == get_scorer("roc_auc")(clf, X, Y_CLASS > 0)
    custom = ParallelPostFit(LogisticRegression(), scoring=lambda est, a, b: len(a) + 0.5)
    assert custom.fit(X, Y_CLASS).score(x, Y_CLASS) == 60.5


def test_bad_arguments_and_unfitted_use() -> None:
    with pytest.raises(ValueError, match="scoring"):
        ParallelPostFit(LinearRegression(), scoring="no-such-score").fit(X, Y_VALUE)
    with pytest.raises(ValueError, match="estimator"):
        ParallelPostFit(None).fit(X, Y_VALUE)
    wrapped = ParallelPostFit(LogisticRegression())
    with pytest.raises(NotFittedError):
        wrapped.predict(X)
    wrapped.fit(X, Y_CLASS)
    with pytest.raises(ValueError, match="X has 3 features"):
        wrapped.predict(X[:, :3])
    assert not hasattr(ParallelPostFit(LinearRegression()), "predict_proba")
    assert not hasattr(ParallelPostFit(LinearRegression()).fit(X, Y_VALUE), "transform")


def test_a_scikit_learn_estimator_to_clone_and_tell_apart() -> None:
    wrapped = ParallelPostFit(LogisticRegression(C=2.0), scoring="accuracy")
    params = wrapped.get_params()
    assert params["estimator__C"] == 2.0
    assert params["scoring"] == "accuracy"
    copy = clone(wrapped)
    assert copy.estimator is not wrapped.estimator
    assert copy.get_params()["estimator__C"] == 2.0
    assert is_classifier(wrapped)
    assert is_regressor(ParallelPostFit(LinearRegression()))
