"""``MiniBatchKMeans`` against scikit-learn's: its initial centres and batches are drawn
from the same random numbers, so its inertia is scikit-learn's, or close to it once a
centre has been given a new place."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from sklearn import cluster as sk
from sklearn.base import clone
from sklearn.datasets import make_blobs
from sklearn.exceptions import NotFittedError

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.cluster import MiniBatchKMeans

X, _ = make_blobs(n_samples=1500, centers=5, n_features=3, cluster_std=1.5, random_state=0)
WEIGHTS = np.random.RandomState(0).rand(1500) + 0.2
CHUNKS = [(400, 2), 1500]


@pytest.mark.parametrize("chunks", CHUNKS)
@pytest.mark.parametrize("init", ["k-means++", "random"])
def test_inertia_close_to_scikit_learns(chunks: Any, init: str) -> None:
    params = {"init": init, "batch_size": 100, "random_state": 3}
    ours = MiniBatchKMeans(5, **params).fit(mt.tensor(X, chunk_size=chunks))
    theirs = sk.MiniBatchKMeans(5, **params).fit(X)
    np.testing.assert_allclose(ours.inertia_, theirs.inertia_, rtol=0.05)
    assert ours.labels_.dtype == np.int32
    assert ours.labels_.shape == (1500,)
    assert ours.cluster_centers_.shape == (5, 3)
    assert ours.n_iter_ == int(np.ceil(ours.n_steps_ * 100 / 1500))


def test_same_random_numbers_give_scikit_learns_fit() -> None:
    # no centre is reassigned in these runs: every draw is the same as scikit-learn's
    for weights in (None, WEIGHTS):
        params = {"batch_size": 100, "random_state": 3, "reassignment_ratio": 0}
        ours = MiniBatchKMeans(5, **params).fit(mt.tensor(X, chunk_size=400), sample_weight=weights)
        theirs = sk.MiniBatchKMeans(5, **params).fit(X, sample_weight=weights)
        assert ours.n_steps_ == theirs.n_steps_
        np.testing.assert_allclose(ours.cluster_centers_, theirs.cluster_centers_, rtol=1e-8)
        np.testing.assert_array_equal(ours.labels_, theirs.labels_)
        np.testing.assert_allclose(ours.inertia_, theirs.inertia_, rtol=1e-8)


def test_every_form_of_input_fits() -> None:
    frame = pd.DataFrame(X, columns=list("abc"))
    expected = sk.MiniBatchKMeans(5, batch_size=200, random_state=1).fit(X).inertia_
    for data in (X, frame, md.DataFrame(frame, chunk_size=500), mt.tensor(X, chunk_size=300)):
        ours = MiniBatchKMeans(5, batch_size=200, random_state=1).fit(data)
        np.testing.assert_allclose(ours.inertia_, expected, rtol=0.05)


def test_options() -> None:
    no_labels = MiniBatchKMeans(5, batch_size=100, random_state=0, compute_labels=False).fit(X)
    assert not hasattr(no_labels, "labels_")
    assert no_labels.inertia_ > 0
    given = X[:5].copy()
    ours = MiniBatchKMeans(5, init=given, batch_size=100, random_state=0, tol=1e-3).fit(X)
    theirs = sk.MiniBatchKMeans(5, init=given, batch_size=100, random_state=0, tol=1e-3).fit(X)
    np.testing.assert_allclose(ours.inertia_, theirs.inertia_, rtol=0.05)
    short = MiniBatchKMeans(5, batch_size=100, random_state=0, max_iter=1).fit(X)
    assert short.n_steps_ <= 15
    labels = short.predict(X[:10])
    assert isinstance(labels, mt.Tensor)
    np.testing.assert_array_equal(labels.execute().fetch(), short.labels_[:10])
    assert -short.score(X) == pytest.approx(short.inertia_)


def test_estimator_protocol() -> None:
    mb = MiniBatchKMeans(4, batch_size=64)
    params = mb.get_params()
    assert params == sk.MiniBatchKMeans(4, batch_size=64).get_params()
    assert clone(mb).get_params() == params
    assert mb.set_params(n_clusters=3) is mb


def test_bad_input_raises_scikit_learns_errors() -> None:
    with pytest.raises(NotFittedError):
        MiniBatchKMeans(2).predict(X)
    with pytest.raises(ValueError, match="batch_size == 0"):
        MiniBatchKMeans(2, batch_size=0).fit(X)
    with pytest.raises(ValueError, match="'init' parameter"):
        MiniBatchKMeans(2, init="k-means||").fit(X)
    with pytest.raises(ValueError, match="reassignment_ratio == -1"):
        MiniBatchKMeans(2, reassignment_ratio=-1).fit(X)
    with pytest.raises(ValueError, match=r"n_samples=1500 should be >= n_clusters=2000"):
        MiniBatchKMeans(2000).fit(X)
    with pytest.warns(RuntimeWarning, match="init_size=2 should be larger than n_clusters=5"):
        MiniBatchKMeans(5, init_size=2, batch_size=100, random_state=0).fit(X)


@pytest.mark.parametrize("chunks", [(70, 30), 250])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("init", ["k-means++", "random"])
def test_partial_fit_steps_as_scikit_learns(chunks: Any, weighted: bool, init: str) -> None:
    # centres are given new places on these batches too: the draws are scikit-learn's
    params = {"init": init, "batch_size": 100, "random_state": 4}
    ours, theirs = MiniBatchKMeans(5, **params), sk.MiniBatchKMeans(5, **params)
    for start in range(0, 1500, 250):
        batch = X[start : start + 250]
        weights = WEIGHTS[start : start + 250] if weighted else None
        assert ours.partial_fit(mt.tensor(batch, chunk_size=chunks), sample_weight=weights) is ours
        theirs.partial_fit(batch, sample_weight=weights)
        np.testing.assert_allclose(ours.cluster_centers_, theirs.cluster_centers_, rtol=1e-8)
        np.testing.assert_array_equal(ours.labels_, theirs.labels_)
        np.testing.assert_allclose(ours.inertia_, theirs.inertia_, rtol=1e-8)
        assert ours.n_steps_ == theirs.n_steps_


def test_partial_fit_after_fit_goes_on_from_its_centres() -> None:
    params = {"batch_size": 100, "random_state": 2, "compute_labels": False}
    ours = MiniBatchKMeans(5, **params).fit(X)
    theirs = sk.MiniBatchKMeans(5, **params).fit(X)
    ours.partial_fit(mt.tensor(X[:300], chunk_size=120))
    theirs.partial_fit(X[:300])
    assert ours.n_steps_ == theirs.n_steps_
    assert not hasattr(ours, "labels_")
    # the fits themselves differ where a centre was given a new place: the step is the same
    assert ours.cluster_centers_.shape == (5, 3)
    with pytest.raises(ValueError, match="X has 2 features, but MiniBatchKMeans is expecting 3"):
        ours.partial_fit(X[:50, :2])
    with pytest.raises(ValueError, match="n_samples=3 should be >= n_clusters=5"):
        MiniBatchKMeans(5).partial_fit(X[:3])
    # later batches may be smaller than the number of clusters
    ours.partial_fit(X[:2])
