"""``IsolationForest`` against scikit-learn's: the same scores from the same trees, and
anomaly detection as good from trees fitted on samples drawn block by block."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from sklearn import ensemble as sk
from sklearn.base import clone
from sklearn.ensemble._iforest import _average_path_length  # the reference, private
from sklearn.exceptions import NotFittedError
from sklearn.metrics import roc_auc_score

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.ensemble import IsolationForest
from jupyter_mars.learn.ensemble.isolation_forest import (
    average_path_length,
    forest_scores,
    node_depths,
)
from jupyter_mars.learn.utils import fetch_all

RNG = np.random.RandomState(0)
X = np.vstack([RNG.randn(540, 4), RNG.uniform(-6, 6, (60, 4))])
OUTLIER = np.r_[np.zeros(540), np.ones(60)]
CHUNKS = [(130, 3), (600, 4)]


def values(t: Any) -> Any:
    return fetch_all(t)[0]


def test_scores_of_scikit_learns_trees_are_scikit_learns() -> None:
    np.testing.assert_allclose(
        average_path_length([0, 1, 2, 3, 256, 1000]),
        _average_path_length(np.array([0, 1, 2, 3, 256, 1000])),
    )
    for max_features in (1.0, 0.5):
        theirs = sk.IsolationForest(n_estimators=20, max_features=max_features, random_state=0)
        theirs.fit(X)
        lengths = [
            node_depths(t) + average_path_length(t.tree_.n_node_samples) - 1.0
            for t in theirs.estimators_
        ]
        features = theirs.estimators_features_ if max_features < 1 else [None] * 20
        got = forest_scores(
            theirs.estimators_, features, lengths, theirs.max_samples_, X.astype(np.float32)
        )
        np.testing.assert_allclose(got, theirs.score_samples(X), rtol=1e-12)


@pytest.mark.parametrize("chunks", CHUNKS)
@pytest.mark.parametrize(
    "params",
    [{}, {"contamination": 0.1, "max_features": 0.5}, {"max_samples": 300, "bootstrap": True}],
)
def test_outliers_are_found_as_well_as_by_scikit_learn(chunks: Any, params: Any) -> None:
    ours = IsolationForest(n_estimators=50, random_state=0, **params)
    ours.fit(mt.tensor(X, chunk_size=chunks))
    theirs = sk.IsolationForest(n_estimators=50, random_state=0, **params).fit(X)
    assert ours.max_samples_ == theirs.max_samples_
    assert len(ours.estimators_) == 50
    x = mt.tensor(X, chunk_size=chunks)
    scores = values(ours.score_samples(x))
    expected = theirs.score_samples(X)
    assert roc_auc_score(OUTLIER, -scores) > roc_auc_score(OUTLIER, -expected) - 0.01
    assert abs(scores.mean() - expected.mean()) < 0.02
    assert ours.offset_ == pytest.approx(theirs.offset_, abs=0.02)
    np.testing.assert_allclose(values(ours.decision_function(x)), scores - ours.offset_)
    predicted = values(ours.predict(x))
    assert predicted.dtype == theirs.predict(X).dtype
    assert set(np.unique(predicted)) <= {-1, 1}
    assert (predicted == theirs.predict(X)).mean() > 0.97
    if "contamination" in params:  # the offset is the training scores' quantile
        assert (predicted == -1).mean() == pytest.approx(0.1, abs=0.005)


def test_sample_sizes_frames_and_fit_predict() -> None:
    with pytest.warns(UserWarning, match="max_samples will be set to n_samples"):
        big = IsolationForest(n_estimators=5, max_samples=10_000, random_state=0).fit(X)
    assert big.max_samples_ == 600
    assert IsolationForest(n_estimators=2, max_samples=0.25).fit(X).max_samples_ == 150
    frame = md.DataFrame(pd.DataFrame(X, columns=list("abcd")), chunk_size=100)
    kept = frame[frame["a"] > -10]  # rows unknown until computed
    forest = IsolationForest(n_estimators=20, random_state=1)
    labels = values(forest.fit_predict(kept))
    assert labels.shape == (600,)
    assert roc_auc_score(OUTLIER, -values(forest.score_samples(frame))) > 0.95


def test_bad_parameters_unfitted_use_and_cloning() -> None:
    for params, match in [
        ({"contamination": 0.7}, "contamination"),
        ({"n_estimators": 0}, "n_estimators"),
        ({"max_samples": "all"}, "max_samples"),
        ({"max_features": 9}, "max_features"),
    ]:
        with pytest.raises(ValueError, match=match):
            IsolationForest(**params).fit(X)
    forest = IsolationForest(n_estimators=3, contamination=0.2)
    with pytest.raises(NotFittedError):
        forest.predict(X)
    forest.fit(X)
    with pytest.raises(ValueError, match="X has 2 features"):
        forest.score_samples(X[:, :2])
    copy = clone(forest)
    assert copy.get_params() == forest.get_params()
    assert not hasattr(copy, "offset_")
