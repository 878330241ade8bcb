"""Elkan's bounds: the kernels label as a full search does, the iterations give Lloyd's
result, and the bounds of earlier iterations are let go."""

from __future__ import annotations

import gc

import numpy as np
import pytest
from sklearn.datasets import make_blobs

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.learn.cluster import KMeans
from jupyter_mars.learn.cluster.elkan import ElkanAssignment, start_bounds, update_bounds
from jupyter_mars.learn.cluster.iterations import run
from jupyter_mars.learn.cluster.samples import check_samples

X, _ = make_blobs(n_samples=200, centers=5, n_features=3, cluster_std=2.0, random_state=2)


def _nearest(x: np.ndarray, centers: np.ndarray) -> np.ndarray:
    return np.argmin(((x[:, None, :] - centers[None]) ** 2).sum(axis=2), axis=1)


def test_bounds_follow_moving_centres_and_label_as_a_full_search() -> None:
    rng = np.random.RandomState(0)
    centers = X[rng.choice(len(X), 5, replace=False)]
    bounds = start_bounds(X, centers)
    np.testing.assert_array_equal(bounds[:, 0], _nearest(X, centers))
    for _ in range(6):
        moved = centers + rng.normal(scale=0.5, size=centers.shape)
        shift = np.sqrt(((moved - centers) ** 2).sum(axis=1))
        gaps = np.sqrt(((moved[:, None] - moved[None]) ** 2).sum(axis=2)) / 2
        bounds = update_bounds(X, bounds, moved, gaps, np.partition(gaps, 1, axis=0)[1], shift)
        centers = moved
        distances = np.sqrt(((X[:, None, :] - centers[None]) ** 2).sum(axis=2))
        labels = bounds[:, 0].astype(int)
        np.testing.assert_array_equal(labels, _nearest(X, centers))
        # the bounds hold: upper above the distance to the own centre, lower below all
        assert (bounds[:, 1] >= distances[np.arange(len(X)), labels] - 1e-12).all()
        assert (bounds[:, 2:] <= distances + 1e-12).all()


@pytest.mark.parametrize("init", ["k-means++", "k-means||", "random"])
def test_elkan_gives_lloyds_result(init: str) -> None:
    params = {"init": init, "n_init": 1, "random_state": 5}
    lloyd = KMeans(5, **params).fit(mt.tensor(X, chunk_size=45))
    elkan = KMeans(5, algorithm="elkan", **params).fit(mt.tensor(X, chunk_size=45))
    np.testing.assert_array_equal(elkan.labels_, lloyd.labels_)
    np.testing.assert_allclose(elkan.cluster_centers_, lloyd.cluster_centers_)
    np.testing.assert_allclose(elkan.inertia_, lloyd.inertia_)
    assert elkan.n_iter_ == lloyd.n_iter_


def test_the_bounds_of_earlier_iterations_are_let_go(session: mars.Session) -> None:
    samples, _ = check_samples(mt.tensor(X, chunk_size=45), None, 5, None, None)
    assignment = ElkanAssignment(samples)
    centers = np.asarray(samples.x[:5].execute().fetch())
    held = []
    for step in range(5):
        labels, keep, _ = assignment.step(centers, np.full(5, 0.1 * step))
        samples.compute(keep=keep)
        del labels, keep
        gc.collect()
        held.append(sum(key.startswith("elkan") for key in session.engine.executed))
        centers = centers + 0.1
    assert held == [1, 1, 1, 1, 1]
    found = run(samples, centers, ElkanAssignment(samples), 50, 0.0)
    assert found.n_iter > 1
