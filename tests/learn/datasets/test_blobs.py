"""``make_blobs``: scikit-learn's centres and blob sizes, Gaussian samples around the
centres with the asked spread, chunked as asked and reproducible."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import datasets as sk

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.learn.datasets import make_blobs
from jupyter_mars.learn.utils import fetch_all


def _nsplits(session: Any, t: mt.Tensor) -> Any:
    return session.engine.executed[t.key].nsplits


@pytest.mark.parametrize("chunk_size", [None, 700, (333, 2), (2000, 5)])
def test_blobs_have_scikit_learns_centres_sizes_and_spread(session: Any, chunk_size: Any) -> None:
    stds = np.array([0.5, 1.0, 2.0, 3.0])
    X, y, centers = make_blobs(  # noqa: N806
        2001,
        5,
        centers=4,
        cluster_std=stds,
        random_state=0,
        return_centers=True,
        chunk_size=chunk_size,
    )
    assert (X.shape, X.dtype, y.shape, y.dtype) == ((2001, 5), np.float64, (2001,), np.int64)
    x, labels, got_centers = fetch_all(X, y, centers)
    _, expected_labels, expected_centers = sk.make_blobs(
        2001, 5, centers=4, cluster_std=stds, random_state=0, return_centers=True
    )
    np.testing.assert_array_equal(got_centers, expected_centers)
    np.testing.assert_array_equal(np.bincount(labels), np.bincount(expected_labels))
    for k in range(4):
        members = x[labels == k]
        error = 5 * stds[k] / np.sqrt(len(members))  # five standard errors
        np.testing.assert_allclose(members.mean(axis=0), got_centers[k], atol=error)
        np.testing.assert_allclose(members.std(axis=0), stds[k], rtol=0.15)
    if chunk_size == (333, 2):
        assert _nsplits(session, X) == ((333,) * 6 + (3,), (2, 2, 1))
        assert _nsplits(session, y) == ((333,) * 6 + (3,),)


def test_rows_are_shuffled_unless_asked_not_to() -> None:
    _, y = make_blobs(30, 2, random_state=1, shuffle=False, chunk_size=7)
    _, expected = sk.make_blobs(30, 2, random_state=1, shuffle=False)
    np.testing.assert_array_equal(y.execute().fetch(), expected)
    _, shuffled = make_blobs(300, 2, random_state=1, chunk_size=70)
    labels = shuffled.execute().fetch()
    assert np.bincount(labels).tolist() == [100, 100, 100]
    assert np.any(np.diff(labels) < 0)  # not in blob order
    for chunk in np.split(labels, [70, 140, 210, 280]):
        assert len(np.unique(chunk)) == 3  # every chunk draws from every blob


def test_given_centres_and_sizes() -> None:
    centers = np.array([[0.0, 0.0, 0.0], [100.0, 100.0, 100.0]])
    X, y = make_blobs([40, 60], centers=centers, cluster_std=0.1, random_state=3, chunk_size=30)  # noqa: N806
    x, labels = fetch_all(X, y)
    assert x.shape == (100, 3)
    assert np.bincount(labels).tolist() == [40, 60]
    np.testing.assert_allclose(x[labels == 1].mean(axis=0), centers[1], atol=0.1)
    X2, _ = make_blobs([5, 5, 5], n_features=4, random_state=3)  # noqa: N806
    assert X2.shape == (15, 4)


@settings(max_examples=10, deadline=None)
@given(
    n_samples=st.integers(1, 60),
    centers=st.integers(1, 6),
    chunk=st.integers(1, 60),
    seed=st.integers(0, 1000),
)
def test_sizes_match_scikit_learn_for_any_chunking(
    n_samples: int, centers: int, chunk: int, seed: int
) -> None:
    X, y = make_blobs(n_samples, 3, centers=centers, random_state=seed, chunk_size=chunk)  # noqa: N806
    _, expected = sk.make_blobs(n_samples, 3, centers=centers, random_state=seed)
    x, labels = fetch_all(X, y)
    assert x.shape == (n_samples, 3)
    np.testing.assert_array_equal(
        np.bincount(labels, minlength=centers), np.bincount(expected, minlength=centers)
    )


def test_the_same_random_state_gives_the_same_data_on_any_session() -> None:
    first = fetch_all(*make_blobs(200, 3, random_state=9, chunk_size=60))
    other = mars.new_session(n_cpu=1)
    try:
        X, y = make_blobs(200, 3, random_state=9, chunk_size=60)  # noqa: N806
        second = fetch_all(X, y, session=other)
    finally:
        other.close()
    np.testing.assert_array_equal(first[0], second[0])
    np.testing.assert_array_equal(first[1], second[1])
    third = fetch_all(*make_blobs(200, 3, random_state=np.random.RandomState(9), chunk_size=60))
    np.testing.assert_array_equal(first[0], third[0])
    different = fetch_all(make_blobs(200, 3, random_state=10, chunk_size=60)[0])[0]
    assert not np.allclose(first[0], different)


def test_bad_arguments_raise_value_errors_naming_them() -> None:
    with pytest.raises(ValueError, match="'n_samples' parameter of make_blobs"):
        make_blobs(0)
    with pytest.raises(ValueError, match="'n_features' parameter of make_blobs"):
        make_blobs(10, 0)
    with pytest.raises(ValueError, match="'cluster_std' parameter of make_blobs"):
        make_blobs(10, cluster_std=-1)
    with pytest.raises(ValueError, match="'center_box' parameter of make_blobs"):
        make_blobs(10, center_box=[0, 1])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Parameter `centers` must be array-like"):
        make_blobs([10, 20], centers=3)
    with pytest.raises(ValueError, match="Length of `clusters_std` not consistent"):
        make_blobs(10, centers=[[0, 0]], cluster_std=[1, 2])
    with pytest.raises(ValueError, match="Length of `n_samples` not consistent"):
        make_blobs([10, 20], centers=[[0, 0]])
    with pytest.raises(ValueError, match="chunk_size"):
        make_blobs(10, chunk_size=-5)
