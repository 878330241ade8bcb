"""``NearestNeighbors`` against scikit-learn's, on arrays, tensors and frames over several
chunkings (random data: no two distances tie)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import neighbors as sk
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.neighbors import NearestNeighbors
from jupyter_mars.learn.utils import fetch_all

RNG = np.random.RandomState(0)
X = RNG.rand(30, 3)
Q = RNG.rand(9, 3)
CHUNKS = [(7, 2), 30]
"""Uneven row chunks with the features split, and one chunk."""


def _pair(chunks: Any, **params: Any) -> tuple[NearestNeighbors, Any]:
    ours = NearestNeighbors(**params).fit(mt.tensor(X, chunk_size=chunks))
    theirs = sk.NearestNeighbors(algorithm="brute", **params).fit(X)
    return ours, theirs


@pytest.mark.parametrize("chunks", CHUNKS)
@pytest.mark.parametrize(
    "params",
    [
        {},
        {"metric": "manhattan"},
        {"metric": "minkowski", "p": 3},
        {"metric": "chebyshev"},
        {"metric": "cosine"},
        {"metric": "sqeuclidean"},
        {"metric": "seuclidean", "metric_params": {"V": X.var(axis=0)}},
        {"metric": "nan_euclidean"},
        {"metric": lambda a, b: np.abs(a - b).sum() ** 0.5},
    ],
)
def test_kneighbors_equal_scikit_learns(chunks: Any, params: dict[str, Any]) -> None:
    ours, theirs = _pair(chunks, n_neighbors=4, **params)
    for query in (Q, None):
        distances, indices = ours.kneighbors(query).execute().fetch()
        expected_d, expected_i = theirs.kneighbors(query)
        np.testing.assert_array_equal(indices, expected_i)
        np.testing.assert_allclose(distances, expected_d, atol=1e-12)
    got = ours.kneighbors(mt.tensor(Q, chunk_size=2), n_neighbors=6, return_distance=False)
    np.testing.assert_array_equal(got.execute().fetch(), theirs.kneighbors(Q, 6, False))


def test_every_form_of_input_gives_the_same_neighbours() -> None:
    expected_d, expected_i = sk.NearestNeighbors(n_neighbors=3).fit(X).kneighbors(Q)
    frame, queries = pd.DataFrame(X, columns=list("abc")), pd.DataFrame(Q, columns=list("abc"))
    forms = [
        (X, Q),
        (X.tolist(), Q.tolist()),
        (frame, queries),
        (md.DataFrame(frame, chunk_size=8), md.DataFrame(queries, chunk_size=4)),
        (mt.tensor(X, chunk_size=11), mt.tensor(Q, chunk_size=5)),
    ]
    for fitted, query in forms:
        nn = NearestNeighbors(n_neighbors=3).fit(fitted)
        assert nn.n_samples_fit_ == 30
        assert nn.n_features_in_ == 3
        distances, indices = fetch_all(*nn.kneighbors(query))
        np.testing.assert_array_equal(indices, expected_i)
        np.testing.assert_allclose(distances, expected_d)


def test_fitted_attributes_are_scikit_learns() -> None:
    for params in ({}, {"p": 1}, {"metric": "minkowski", "p": 3}, {"metric": "cosine"}):
        ours = NearestNeighbors(**params).fit(X)
        theirs = sk.NearestNeighbors(**params).fit(X)
        assert ours.effective_metric_ == theirs.effective_metric_
        assert ours.effective_metric_params_ == theirs.effective_metric_params_
        assert ours.n_samples_fit_ == theirs.n_samples_fit_
        assert ours._fit_method == "brute"


@pytest.mark.parametrize("chunks", CHUNKS)
@pytest.mark.parametrize("mode", ["connectivity", "distance"])
def test_kneighbors_graph_is_a_sparse_tensor_equal_to_scikit_learns(chunks: Any, mode: str) -> None:
    ours, theirs = _pair(chunks, n_neighbors=3)
    for query in (Q, None):
        graph = ours.kneighbors_graph(query, mode=mode)
        assert graph.issparse()
        assert graph.shape == ((9 if query is not None else 30), 30)
        got = graph.execute().fetch()
        expected = theirs.kneighbors_graph(query, mode=mode)
        assert got.format == "csr"
        assert got.nnz == expected.nnz
        np.testing.assert_allclose(got.toarray(), expected.toarray(), atol=1e-12)


@pytest.mark.parametrize("chunks", CHUNKS)
@pytest.mark.parametrize("sort_results", [False, True])
def test_radius_neighbors_equal_scikit_learns(chunks: Any, sort_results: bool) -> None:
    ours, theirs = _pair(chunks, radius=0.35)
    for query in (Q, None):
        distances, indices = ours.radius_neighbors(query, sort_results=sort_results)
        expected_d, expected_i = theirs.radius_neighbors(query, sort_results=sort_results)
        assert indices.dtype == object
        assert len(indices) == len(expected_i)
        assert sum(len(row) for row in indices) > len(indices)  # some rows have several
        for got_i, got_d, exp_i, exp_d in zip(indices, distances, expected_i, expected_d):
            np.testing.assert_array_equal(got_i, exp_i)
            np.testing.assert_allclose(got_d, exp_d, atol=1e-12)
    only = ours.radius_neighbors(Q, radius=0.2, return_distance=False)
    for got_i, exp_i in zip(only, theirs.radius_neighbors(Q, 0.2, return_distance=False)):
        np.testing.assert_array_equal(got_i, exp_i)


@pytest.mark.parametrize("mode", ["connectivity", "distance"])
def test_radius_neighbors_graph_equals_scikit_learns(mode: str) -> None:
    ours, theirs = _pair((7, 2), radius=0.35)
    for query in (Q, None):
        got = ours.radius_neighbors_graph(query, mode=mode).execute().fetch()
        expected = theirs.radius_neighbors_graph(query, mode=mode)
        np.testing.assert_allclose(got.toarray(), expected.toarray(), atol=1e-12)


def test_precomputed_distances() -> None:
    fitted = np.abs(X[:, :1] - X[:, 0])  # distances between the first coordinates
    queries = np.abs(Q[:, :1] - X[:, 0])
    ours = NearestNeighbors(n_neighbors=3, metric="precomputed").fit(
        mt.tensor(fitted, chunk_size=8)
    )
    theirs = sk.NearestNeighbors(n_neighbors=3, metric="precomputed").fit(fitted)
    for query in (queries, None):
        distances, indices = ours.kneighbors(query).execute().fetch()
        expected_d, expected_i = theirs.kneighbors(query)
        np.testing.assert_array_equal(indices, expected_i)
        np.testing.assert_allclose(distances, expected_d)


@settings(max_examples=6, deadline=None)
@given(
    n_fit=st.integers(2, 25),
    n_query=st.integers(1, 10),
    chunk=st.integers(1, 9),
    data=st.data(),
)
def test_kneighbors_equal_scikit_learns_for_any_shape(
    n_fit: int, n_query: int, chunk: int, data: st.DataObject
) -> None:
    k = data.draw(st.integers(1, n_fit - 1))
    rng = np.random.RandomState(data.draw(st.integers(0, 2**16)))
    fitted, queries = rng.rand(n_fit, 2), rng.rand(n_query, 2)
    ours = NearestNeighbors(n_neighbors=k).fit(mt.tensor(fitted, chunk_size=chunk))
    theirs = sk.NearestNeighbors(n_neighbors=k, algorithm="brute").fit(fitted)
    for query in (mt.tensor(queries, chunk_size=chunk), None):
        distances, indices = ours.kneighbors(query).execute().fetch()
        expected_d, expected_i = theirs.kneighbors(None if query is None else queries)
        np.testing.assert_array_equal(indices, expected_i)
        np.testing.assert_allclose(distances, expected_d, atol=1e-12)


def test_searches_are_lazy_tensors() -> None:
    nn = NearestNeighbors(n_neighbors=2).fit(X)
    distances, indices = nn.kneighbors(Q)
    assert isinstance(distances, mt.Tensor)
    assert isinstance(indices, mt.Tensor)
    assert distances.shape == indices.shape == (9, 2)
    assert indices.dtype == np.intp
    assert distances._executed_data() is None


def test_estimator_protocol() -> None:
    nn = NearestNeighbors(n_neighbors=3, metric="manhattan")
    assert nn.get_params()["n_neighbors"] == 3
    assert nn.get_params() == sk.NearestNeighbors(n_neighbors=3, metric="manhattan").get_params()
    copy = clone(nn)
    assert copy.get_params() == nn.get_params()
    assert nn.set_params(n_neighbors=4) is nn
    assert nn.n_neighbors == 4
    assert nn.fit(X) is nn


def test_bad_input_raises_scikit_learns_errors() -> None:
    with pytest.raises(NotFittedError):
        NearestNeighbors().kneighbors(Q)
    with pytest.raises(ValueError, match="n_neighbors == 0"):
        NearestNeighbors(n_neighbors=0).fit(X)
    with pytest.raises(ValueError, match="'algorithm' parameter"):
        NearestNeighbors(algorithm="quick").fit(X)
    with pytest.raises(ValueError, match="Metric 'nope' not valid"):
        NearestNeighbors(metric="nope").fit(X)
    with pytest.raises(ValueError, match="radius == -1"):
        NearestNeighbors(radius=-1).fit(X)
    with pytest.raises(ValueError, match="needs V in metric_params"):
        NearestNeighbors(metric="seuclidean").fit(X)
    with pytest.raises(ValueError, match="Precomputed matrix must be square"):
        NearestNeighbors(metric="precomputed").fit(X)
    nn = NearestNeighbors(n_neighbors=3).fit(X)
    with pytest.raises(ValueError, match=r"n_neighbors <= n_samples_fit, but n_neighbors = 31"):
        nn.kneighbors(Q, n_neighbors=31)
    with pytest.raises(ValueError, match=r"n_neighbors < n_samples_fit, but n_neighbors = 30"):
        nn.kneighbors(n_neighbors=30)
    with pytest.raises(ValueError, match="Expected n_neighbors > 0"):
        nn.kneighbors(Q, n_neighbors=0)
    with pytest.raises(TypeError, match="n_neighbors does not take"):
        nn.kneighbors(Q, n_neighbors=2.5)
    with pytest.raises(ValueError, match="X has 2 features, but NearestNeighbors is expecting 3"):
        nn.kneighbors(Q[:, :2])
    with pytest.raises(ValueError, match="Unsupported mode"):
        nn.kneighbors_graph(Q, mode="weights")
    with pytest.raises(ValueError, match="return_distance must be True"):
        nn.radius_neighbors(Q, return_distance=False, sort_results=True)
    with pytest.raises(ValueError, match="Input X contains NaN"):
        nn.kneighbors(np.array([[np.nan, 0.0, 0.0]]))
    lazy_nan = mt.tensor(np.array([[1.0, 2.0, 3.0], [np.nan, 0.0, 0.0]]), chunk_size=1)
    with pytest.raises(ValueError, match="Input X contains NaN"):
        NearestNeighbors(n_neighbors=1).fit(lazy_nan)
