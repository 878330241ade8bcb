"""``KMeans`` against scikit-learn's, on arrays, tensors and frames over several chunkings.

With ``init='k-means++'``, ``'random'`` (the centres drawn differ) aside, the random
numbers are drawn as scikit-learn draws them: the same ``random_state`` gives its
centres, labels and number of iterations. ``k-means||`` is judged by its inertia and,
on well-separated blobs, by its labels up to the names of the clusters.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import cluster as sk
from sklearn.base import clone
from sklearn.datasets import make_blobs
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.metrics import adjusted_rand_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.cluster import KMeans, k_means

X, Y = make_blobs(n_samples=240, centers=4, n_features=3, cluster_std=1.5, random_state=0)
SEPARATE, SEPARATE_Y = make_blobs(
    n_samples=300, centers=5, n_features=2, cluster_std=0.4, random_state=1
)
WEIGHTS = np.random.RandomState(0).rand(240) + 0.5
CHUNKS = [(70, 2), 240]
"""Uneven row chunks with the features split, and one chunk."""


def _same_fit(ours: KMeans, theirs: Any) -> None:
    np.testing.assert_array_equal(ours.labels_, theirs.labels_)
    np.testing.assert_allclose(ours.cluster_centers_, theirs.cluster_centers_, rtol=1e-10)
    np.testing.assert_allclose(ours.inertia_, theirs.inertia_, rtol=1e-10)
    assert ours.n_iter_ == theirs.n_iter_


@pytest.mark.parametrize("chunks", CHUNKS)
@pytest.mark.parametrize("algorithm", ["lloyd", "elkan"])
def test_kmeans_plus_plus_equals_scikit_learns(chunks: Any, algorithm: str) -> None:
    params = {"init": "k-means++", "n_init": 2, "algorithm": algorithm, "random_state": 7}
    ours = KMeans(4, **params).fit(mt.tensor(X, chunk_size=chunks))
    _same_fit(ours, sk.KMeans(4, **params).fit(X))
    assert ours.labels_.dtype == np.int32
    assert ours.cluster_centers_.dtype == np.float64
    assert isinstance(ours.inertia_, float)
    assert isinstance(ours.n_iter_, int)


@pytest.mark.parametrize("algorithm", ["lloyd", "elkan"])
def test_sample_weights_equal_scikit_learns(algorithm: str) -> None:
    params = {"init": "k-means++", "algorithm": algorithm, "random_state": 3}
    ours = KMeans(4, **params).fit(
        mt.tensor(X, chunk_size=50), sample_weight=mt.tensor(WEIGHTS, chunk_size=90)
    )
    _same_fit(ours, sk.KMeans(4, **params).fit(X, sample_weight=WEIGHTS))


def test_given_centres_and_empty_clusters_equal_scikit_learns() -> None:
    # the third centre is far from every row: its cluster starts empty and takes the
    # row farthest from its centre
    init = np.array([[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [100.0, 100.0, 100.0]])
    for algorithm in ("lloyd", "elkan"):
        ours = KMeans(3, init=init, algorithm=algorithm).fit(mt.tensor(X, chunk_size=70))
        _same_fit(ours, sk.KMeans(3, init=init, algorithm=algorithm).fit(X))
    for mars_name in ("auto", "full"):  # Mars's names for Lloyd's iterations
        ours = KMeans(3, init=init, algorithm=mars_name).fit(mt.tensor(X, chunk_size=70))
        _same_fit(ours, sk.KMeans(3, init=init, algorithm="lloyd").fit(X))


@pytest.mark.parametrize("chunks", [(40, 1), 300])
def test_well_separated_blobs_get_scikit_learns_labels(chunks: Any) -> None:
    ours = KMeans(5, random_state=0).fit(mt.tensor(SEPARATE, chunk_size=chunks))
    theirs = sk.KMeans(5, random_state=0).fit(SEPARATE)
    assert adjusted_rand_score(ours.labels_, theirs.labels_) == 1.0
    assert adjusted_rand_score(ours.labels_, SEPARATE_Y) == 1.0
    np.testing.assert_allclose(ours.inertia_, theirs.inertia_)


def test_every_form_of_input_gives_the_same_fit() -> None:
    theirs = sk.KMeans(4, init="k-means++", random_state=2).fit(X)
    frame = pd.DataFrame(X, columns=list("abc"))
    for data in (X, X.tolist(), frame, md.DataFrame(frame, chunk_size=60), mt.tensor(X)):
        ours = KMeans(4, init="k-means++", random_state=2).fit(data)
        _same_fit(ours, theirs)


def test_float32_stays_float32() -> None:
    x32 = X.astype(np.float32)
    ours = KMeans(4, init="k-means++", random_state=1).fit(mt.tensor(x32, chunk_size=100))
    theirs = sk.KMeans(4, init="k-means++", random_state=1).fit(x32)
    assert ours.cluster_centers_.dtype == np.float32
    np.testing.assert_array_equal(ours.labels_, theirs.labels_)
    np.testing.assert_allclose(ours.cluster_centers_, theirs.cluster_centers_, rtol=1e-5)
    np.testing.assert_allclose(ours.inertia_, theirs.inertia_, rtol=1e-5)


def test_predict_transform_and_score_equal_scikit_learns() -> None:
    ours = KMeans(4, init="k-means++", random_state=4).fit(X)
    theirs = sk.KMeans(4, init="k-means++", random_state=4).fit(X)
    queries = mt.tensor(X[:50], chunk_size=15)
    labels = ours.predict(queries)
    assert isinstance(labels, mt.Tensor)
    assert labels.dtype == np.int32
    np.testing.assert_array_equal(labels.execute().fetch(), theirs.predict(X[:50]))
    distances = ours.transform(queries).execute().fetch()
    np.testing.assert_allclose(distances, theirs.transform(X[:50]))
    np.testing.assert_allclose(ours.score(queries), theirs.score(X[:50]))
    weighted = ours.score(X, sample_weight=WEIGHTS)
    np.testing.assert_allclose(weighted, theirs.score(X, sample_weight=WEIGHTS))
    fitted = KMeans(4, init="k-means++", random_state=4).fit_predict(X)
    np.testing.assert_array_equal(fitted.execute().fetch(), theirs.labels_)
    moved = KMeans(4, init="k-means++", random_state=4).fit_transform(X)
    np.testing.assert_allclose(moved.execute().fetch(), theirs.transform(X))
    assert list(ours.get_feature_names_out()) == list(theirs.get_feature_names_out())


def test_k_means_function() -> None:
    centers, labels, inertia, n_iter = k_means(
        X, 4, init="k-means++", random_state=6, return_n_iter=True
    )
    expected = sk.k_means(X, 4, init="k-means++", random_state=6, return_n_iter=True)
    np.testing.assert_allclose(centers, expected[0])
    np.testing.assert_array_equal(labels, expected[1])
    np.testing.assert_allclose(inertia, expected[2])
    assert n_iter == expected[3]


def test_callable_init_gets_the_rows_and_the_random_state() -> None:
    calls: list[tuple[Any, int]] = []

    def first_rows(data: Any, n_clusters: int, random_state: Any) -> np.ndarray:
        calls.append((data, n_clusters))
        assert isinstance(random_state, np.random.RandomState)
        return np.asarray(data[:n_clusters].execute().fetch())

    ours = KMeans(4, init=first_rows, n_init=1).fit(X)
    centred = X - X.mean(axis=0)
    theirs = sk.KMeans(4, init=centred[:4] + X.mean(axis=0), n_init=1).fit(X)
    assert len(calls) == 1
    assert calls[0][1] == 4
    _same_fit(ours, theirs)


@settings(max_examples=5, deadline=None)
@given(
    n_samples=st.integers(8, 60),
    n_features=st.integers(1, 4),
    n_clusters=st.integers(1, 5),
    chunk=st.integers(3, 25),
    seed=st.integers(0, 1000),
)
def test_kmeans_plus_plus_equals_scikit_learns_for_any_shape(
    n_samples: int, n_features: int, n_clusters: int, chunk: int, seed: int
) -> None:
    data = np.random.RandomState(seed).randn(n_samples, n_features)
    params = {"init": "k-means++", "random_state": seed}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # few distinct rows, maybe
        ours = KMeans(n_clusters, **params).fit(mt.tensor(data, chunk_size=chunk))
        theirs = sk.KMeans(n_clusters, **params).fit(data)
    np.testing.assert_array_equal(ours.labels_, theirs.labels_)
    np.testing.assert_allclose(ours.cluster_centers_, theirs.cluster_centers_, atol=1e-10)


def test_estimator_protocol() -> None:
    km = KMeans(3, init="random", max_iter=20)
    params = km.get_params()
    assert params["n_clusters"] == 3
    assert params["init"] == "random"
    assert params["oversampling_factor"] == 2
    assert params["init_iter"] == 5
    theirs = sk.KMeans(3).get_params()
    assert {k: v for k, v in params.items() if k in theirs}.keys() == theirs.keys()
    assert clone(km).get_params() == params
    assert km.set_params(n_clusters=4) is km
    pipeline = make_pipeline(StandardScaler(), KMeans(4, init="k-means++", random_state=0))
    labels = pipeline.fit(X).predict(X)
    expected = make_pipeline(StandardScaler(), sk.KMeans(4, random_state=0)).fit(X).predict(X)
    assert adjusted_rand_score(labels.execute().fetch(), expected) == 1.0


def test_bad_input_raises_scikit_learns_errors() -> None:
    with pytest.raises(NotFittedError):
        KMeans(2).predict(X)
    with pytest.raises(ValueError, match=r"n_samples=240 should be >= n_clusters=300"):
        KMeans(300).fit(X)
    with pytest.raises(ValueError, match="n_clusters == 0"):
        KMeans(0).fit(X)
    with pytest.raises(ValueError, match="'init' parameter"):
        KMeans(2, init="kmeans").fit(X)
    with pytest.raises(ValueError, match="'algorithm' parameter"):
        KMeans(2, algorithm="fast").fit(X)
    with pytest.raises(ValueError, match="'n_init' parameter"):
        KMeans(2, n_init="some").fit(X)
    with pytest.raises(ValueError, match="max_iter == 0"):
        KMeans(2, max_iter=0).fit(X)
    with pytest.raises(ValueError, match="tol == -1"):
        KMeans(2, tol=-1).fit(X)
    with pytest.raises(ValueError, match="oversampling_factor == 0"):
        KMeans(2, oversampling_factor=0).fit(X)
    with pytest.raises(
        ValueError, match=r"initial centers \(3, 3\) does not match the number of clusters 2"
    ):
        KMeans(2, init=np.zeros((3, 3))).fit(X)
    with pytest.raises(ValueError, match=r"does not match the number of features of the data 3"):
        KMeans(2, init=np.zeros((2, 2))).fit(X)
    with pytest.raises(ValueError, match=r"sample_weight.shape == \(5,\), expected \(240,\)"):
        KMeans(2).fit(X, sample_weight=np.ones(5))
    with pytest.raises(ValueError, match="Input X contains NaN"):
        KMeans(2).fit(np.array([[np.nan, 1.0], [1.0, 2.0]]))
    fitted = KMeans(2, random_state=0).fit(X)
    with pytest.raises(ValueError, match="X has 2 features, but KMeans is expecting 3"):
        fitted.predict(X[:, :2])
    with pytest.warns(RuntimeWarning, match="performing only one init"):
        KMeans(2, init=X[:2], n_init=3).fit(X)
    with pytest.warns(RuntimeWarning, match="single cluster"):
        KMeans(1, algorithm="elkan").fit(X)
    with pytest.warns(ConvergenceWarning, match=r"Number of distinct clusters \(2\)"):
        KMeans(3, init="k-means++", random_state=0).fit(np.repeat([[0.0], [1.0]], 5, axis=0))
