"""k-means and neighbour searches on a cluster of real supervisor and worker processes:
their operators, kernels and stand-ins for kept results travel to the workers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from sklearn import cluster as sk
from sklearn import neighbors as skn
from sklearn.datasets import make_blobs

import jupyter_mars.tensor as mt
from jupyter_mars.learn.cluster.elkan import ElkanAssignment
from jupyter_mars.learn.cluster.iterations import run
from jupyter_mars.learn.cluster.samples import check_samples
from jupyter_mars.learn.neighbors import NearestNeighbors
from tests.cluster.processes import cli_cluster, remote_session

X, _ = make_blobs(n_samples=200, centers=4, n_features=3, cluster_std=1.5, random_state=0)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    with cli_cluster(1, "--n-cpu", "2") as c:
        yield c


@pytest.fixture
def remote(cluster: Any, session: Any) -> Iterator[Any]:
    with remote_session(cluster, session) as remote:
        yield remote


def test_kmeans_and_neighbours_on_a_cluster(remote: Any) -> None:
    data = mt.tensor(X, chunk_size=100)
    # two of Elkan's iterations: the second reads the bounds of the first, kept on the
    # cluster, through their stand-in
    samples, _ = check_samples(data, None, 4, remote, None)
    centers = np.asarray(samples.x[:4].execute(session=remote).fetch(session=remote))
    found = run(samples, centers, ElkanAssignment(samples), 2, 0.0)
    theirs = sk.KMeans(4, init=centers + X.mean(axis=0), max_iter=2, algorithm="elkan").fit(X)
    (labels,) = samples.compute(wanted=[found.labels])
    np.testing.assert_array_equal(labels, theirs.labels_)
    np.testing.assert_allclose(found.centers + X.mean(axis=0), theirs.cluster_centers_)

    nn = NearestNeighbors(n_neighbors=3).fit(data, session=remote)
    distances, indices = nn.kneighbors().execute(session=remote).fetch(session=remote)
    expected_d, expected_i = skn.NearestNeighbors(n_neighbors=3).fit(X).kneighbors()
    np.testing.assert_array_equal(indices, expected_i)
    np.testing.assert_allclose(distances, expected_d, atol=1e-12)
