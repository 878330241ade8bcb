"""Initial centres: k-means++ draws scikit-learn's, k-means|| finds every blob, and
both start runs whose inertia is scikit-learn's within a few percent."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from sklearn import cluster as sk
from sklearn.datasets import make_blobs

import jupyter_mars.tensor as mt
from jupyter_mars.learn.cluster import KMeans
from jupyter_mars.learn.cluster import init as initial
from jupyter_mars.learn.cluster.samples import check_samples

X, _ = make_blobs(n_samples=240, centers=4, n_features=3, cluster_std=2.0, random_state=0)
SEPARATE, SEPARATE_Y = make_blobs(
    n_samples=300, centers=6, n_features=2, cluster_std=0.3, random_state=4
)
WEIGHTS = np.random.RandomState(1).rand(240)


@pytest.mark.parametrize("weights", [None, WEIGHTS])
def test_plusplus_in_memory_draws_scikit_learns_centres(weights: Any) -> None:
    for k in (1, 3, 7):
        rng = np.random.RandomState(k)
        w = np.ones(len(X)) if weights is None else weights
        ours = initial.plusplus_in_memory(X, w, k, rng)
        theirs, _ = sk.kmeans_plusplus(X, k, sample_weight=weights, random_state=k)
        np.testing.assert_allclose(ours, theirs)


@pytest.mark.parametrize("chunks", [(50, 2), 240])
@pytest.mark.parametrize("weights", [None, WEIGHTS])
def test_plusplus_over_chunks_draws_scikit_learns_centres(chunks: Any, weights: Any) -> None:
    samples, _ = check_samples(mt.tensor(X, chunk_size=chunks), weights, 5, None, None)
    ours = initial.plusplus(samples, 5, np.random.RandomState(11))
    centred = X - X.mean(axis=0)
    theirs, _ = sk.kmeans_plusplus(centred, 5, sample_weight=weights, random_state=11)
    np.testing.assert_allclose(ours, theirs, atol=1e-12)


def _blobs_found(centers: np.ndarray) -> set[int]:
    """The blobs of SEPARATE whose rows are nearest each centre."""
    nearest = np.argmin(((SEPARATE[:, None] - centers[None]) ** 2).sum(axis=2), axis=0)
    return set(SEPARATE_Y[nearest].tolist())


@pytest.mark.parametrize("chunks", [(35, 1), 300])
def test_scalable_init_finds_every_blob(chunks: Any) -> None:
    samples, _ = check_samples(mt.tensor(SEPARATE, chunk_size=chunks), None, 6, None, None)
    for seed in range(3):
        centers = initial.scalable(samples, 6, np.random.RandomState(seed), 2, 5) + samples.mean
        assert centers.shape == (6, 2)
        assert _blobs_found(centers) == set(range(6))


def test_scalable_init_is_the_same_over_any_chunking() -> None:
    found = []
    for chunks in ((35, 1), (100, 2), 300):
        samples, _ = check_samples(mt.tensor(SEPARATE, chunk_size=chunks), None, 6, None, None)
        found.append(initial.scalable(samples, 6, np.random.RandomState(3), 2, 3))
    np.testing.assert_allclose(found[0], found[1])
    np.testing.assert_allclose(found[0], found[2])


def test_scalable_init_with_few_candidates_adds_random_rows() -> None:
    # two distinct points: the rounds find no third candidate
    data = np.repeat([[0.0, 0.0], [5.0, 5.0]], 20, axis=0)
    samples, _ = check_samples(data, None, 3, None, None)
    centers = initial.scalable(samples, 3, np.random.RandomState(0), 2, 5) + samples.mean
    assert centers.shape == (3, 2)
    assert {tuple(c) for c in centers} == {(0.0, 0.0), (5.0, 5.0)}


def test_scalable_init_with_rounds_that_find_nothing_weighs_every_candidate() -> None:
    # so small an oversampling that the rounds after the first keep no row
    samples, _ = check_samples(mt.tensor(X, chunk_size=(70, 2)), WEIGHTS, 4, None, None)
    for seed in range(5):
        centers = initial.scalable(samples, 4, np.random.RandomState(seed), 1e-6, 4)
        assert centers.shape == (4, 3)
        assert np.isfinite(centers).all()


def test_distinct_rows_follow_the_weights() -> None:
    weights = np.zeros(240)
    weights[::10] = 1.0  # 24 rows may be drawn
    samples, _ = check_samples(mt.tensor(X, chunk_size=70), weights, 5, None, None)
    rows = initial.distinct_rows(samples, np.random.RandomState(0), 8) + samples.mean
    assert len({tuple(r) for r in rows}) == 8
    gaps = np.abs(rows[:, None, :] - X[None, ::10, :]).max(axis=2)
    assert (gaps.min(axis=1) < 1e-9).all()


@pytest.mark.parametrize("init", ["k-means||", "random"])
@pytest.mark.parametrize("chunks", [(70, 2), 240])
def test_runs_reach_scikit_learns_inertia_within_a_few_percent(init: str, chunks: Any) -> None:
    theirs = sk.KMeans(4, init="k-means++" if init == "k-means||" else init, n_init=3).fit(X)
    ours = KMeans(4, init=init, n_init=3, random_state=0).fit(mt.tensor(X, chunk_size=chunks))
    assert ours.inertia_ <= theirs.inertia_ * 1.03
