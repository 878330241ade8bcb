"""Pairwise distances and kernels against scikit-learn's, on arrays, tensors and frames
over several chunkings; results are chunked by blocks of rows of X and Y."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import DataConversionWarning
from sklearn.metrics import pairwise as sk

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.metrics import pairwise as ours
from jupyter_mars.learn.utils import fetch_all
from jupyter_mars.learn.utils.chunks import chunk_lengths

RNG = np.random.RandomState(0)
X = RNG.rand(13, 4)
Y = RNG.rand(7, 4)
CHUNKS = [(4, 3), 13]
"""Uneven row chunks with the features split too, and one chunk."""

FUNCTIONS = [
    "euclidean_distances",
    "cosine_similarity",
    "cosine_distances",
    "manhattan_distances",
    "linear_kernel",
    "rbf_kernel",
]


def _value(t: Any) -> np.ndarray:
    (got,) = fetch_all(t)
    return np.asarray(got)


@pytest.mark.parametrize("name", FUNCTIONS)
@pytest.mark.parametrize("chunks", CHUNKS)
def test_functions_equal_scikit_learns(name: str, chunks: Any) -> None:
    ours_f, theirs = getattr(ours, name), getattr(sk, name)
    x, y = mt.tensor(X, chunk_size=chunks), mt.tensor(Y, chunk_size=chunks)
    for args, data in (((x, y), (X, Y)), ((x,), (X,)), ((x, None), (X, None))):
        got, expected = _value(ours_f(*args)), theirs(*data)
        assert got.dtype == expected.dtype
        np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-12)


def test_every_form_of_input_gives_the_same_distances() -> None:
    expected = sk.euclidean_distances(X, Y)
    forms = [
        (X, Y),
        (X.tolist(), Y.tolist()),
        (pd.DataFrame(X), pd.DataFrame(Y)),
        (md.DataFrame(pd.DataFrame(X), chunk_size=5), md.DataFrame(pd.DataFrame(Y), chunk_size=3)),
    ]
    for a, b in forms:
        np.testing.assert_allclose(_value(ours.euclidean_distances(a, b)), expected)


def test_results_are_blocks_of_rows_of_x_by_rows_of_y() -> None:
    x, y = mt.tensor(X, chunk_size=(4, 3)), mt.tensor(Y, chunk_size=(3, 4))
    for name in FUNCTIONS:
        d = getattr(ours, name)(x, y)
        assert chunk_lengths(d) == ((4, 4, 4, 1), (3, 3, 1)), name


def test_the_distance_of_a_row_to_itself_is_zero() -> None:
    far = X + 100  # large norms: ||x||² - 2 x·x + ||x||² rounds away from zero
    for name in ("euclidean_distances", "cosine_distances"):
        got = _value(getattr(ours, name)(mt.tensor(far, chunk_size=5)))
        assert (np.diag(got) == 0).all(), name
        np.testing.assert_allclose(got, getattr(sk, name)(far), atol=1e-5)


def test_float32_stays_float32_and_is_computed_in_float64() -> None:
    x32 = X.astype(np.float32) * 1000
    got = _value(ours.euclidean_distances(mt.tensor(x32, chunk_size=4)))
    expected = sk.euclidean_distances(x32)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, expected, rtol=1e-6)
    mixed = _value(ours.euclidean_distances(x32, Y))
    assert mixed.dtype == np.float64


def test_euclidean_options_equal_scikit_learns() -> None:
    xx, yy = (X**2).sum(axis=1), (Y**2).sum(axis=1)
    for kwargs in (
        {"squared": True},
        {"X_norm_squared": xx, "Y_norm_squared": yy},
        {"X_norm_squared": xx[None, :], "Y_norm_squared": yy[:, None]},
        {"X_norm_squared": xx[:, None], "squared": True},
    ):
        got = _value(ours.euclidean_distances(mt.tensor(X, chunk_size=4), Y, **kwargs))
        np.testing.assert_allclose(got, sk.euclidean_distances(X, Y, **kwargs), atol=1e-12)


def test_haversine_equals_scikit_learns() -> None:
    a, b = RNG.rand(9, 2), RNG.rand(5, 2)
    for chunks in (2, 9):
        got = _value(ours.haversine_distances(mt.tensor(a, chunk_size=chunks), b))
        np.testing.assert_allclose(got, sk.haversine_distances(a, b))
    np.testing.assert_allclose(_value(ours.haversine_distances(a)), sk.haversine_distances(a))


def test_nan_euclidean_equals_scikit_learns() -> None:
    a = X.copy()
    a[1, 2] = a[3, 0] = a[3, 1] = np.nan
    a[5, :] = np.nan  # no coordinate in common with anything
    for chunks in ((4, 3), 13):
        t = mt.tensor(a, chunk_size=chunks)
        for args, data in (((t, Y), (a, Y)), ((t,), (a,))):
            for squared in (False, True):
                got = _value(ours.nan_euclidean_distances(*args, squared=squared))
                expected = sk.nan_euclidean_distances(*data, squared=squared)
                np.testing.assert_allclose(got, expected, equal_nan=True, atol=1e-12)


@pytest.mark.parametrize(
    "metric",
    ["braycurtis", "canberra", "chebyshev", "correlation", "hamming", "minkowski",
     "sqeuclidean", "seuclidean", "mahalanobis", "l1", "l2", "cityblock", "cosine"],
)  # fmt: skip
def test_pairwise_distances_by_name_equals_scikit_learns(metric: str) -> None:
    for chunks in CHUNKS:
        x = mt.tensor(X, chunk_size=chunks)
        got = _value(ours.pairwise_distances(x, metric=metric))
        np.testing.assert_allclose(got, sk.pairwise_distances(X, metric=metric), atol=1e-12)
        if metric not in ("seuclidean", "mahalanobis"):
            got = _value(ours.pairwise_distances(x, Y, metric=metric))
            np.testing.assert_allclose(got, sk.pairwise_distances(X, Y, metric=metric), atol=1e-12)


def test_pairwise_distances_with_keywords_and_callables() -> None:
    v = Y.var(axis=0)
    got = _value(ours.pairwise_distances(X, Y, metric="seuclidean", V=v))
    np.testing.assert_allclose(got, sk.pairwise_distances(X, Y, metric="seuclidean", V=v))
    got = _value(ours.pairwise_distances(X, Y, metric="minkowski", p=3))
    np.testing.assert_allclose(got, sk.pairwise_distances(X, Y, metric="minkowski", p=3))
    got = _value(ours.pairwise_distances(X, Y, metric="euclidean", squared=True))
    np.testing.assert_allclose(got, sk.pairwise_distances(X, Y, metric="euclidean", squared=True))

    def largest_gap(a: np.ndarray, b: np.ndarray) -> float:
        return float(np.abs(a - b).max())

    got = _value(ours.pairwise_distances(mt.tensor(X, chunk_size=5), Y, metric=largest_gap))
    np.testing.assert_allclose(got, sk.pairwise_distances(X, Y, metric=largest_gap))
    d = sk.euclidean_distances(X, Y)
    np.testing.assert_array_equal(_value(ours.pairwise_distances(d, Y, metric="precomputed")), d)


def test_boolean_metrics_convert_with_scikit_learns_warning() -> None:
    a, b = RNG.rand(9, 5) > 0.5, RNG.rand(4, 5) > 0.5
    for metric in ("jaccard", "dice", "rogerstanimoto", "yule"):
        got = _value(ours.pairwise_distances(mt.tensor(a, chunk_size=4), b, metric=metric))
        np.testing.assert_allclose(got, sk.pairwise_distances(a, b, metric=metric))
    with pytest.warns(DataConversionWarning, match="converted to boolean for metric jaccard"):
        got = _value(ours.pairwise_distances(a.astype(float), metric="jaccard"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataConversionWarning)
        np.testing.assert_allclose(got, sk.pairwise_distances(a.astype(float), metric="jaccard"))


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("metric", ["euclidean", "manhattan", "cosine"])
def test_argmin_min_equals_scikit_learns(axis: int, metric: str) -> None:
    for chunks in CHUNKS:
        x, y = mt.tensor(X, chunk_size=chunks), mt.tensor(Y, chunk_size=chunks)
        result = ours.pairwise_distances_argmin_min(x, y, axis=axis, metric=metric)
        indices, values = result.execute().fetch()
        expected_indices, expected_values = sk.pairwise_distances_argmin_min(
            X, Y, axis=axis, metric=metric
        )
        np.testing.assert_array_equal(indices, expected_indices)
        np.testing.assert_allclose(values, expected_values)
        got = _value(ours.pairwise_distances_argmin(x, y, axis=axis, metric=metric))
        np.testing.assert_array_equal(got, expected_indices)


@settings(max_examples=8, deadline=None)
@given(
    rows_x=st.integers(1, 12),
    rows_y=st.integers(1, 9),
    features=st.integers(1, 5),
    chunk=st.integers(1, 6),
    seed=st.integers(0, 2**16),
)
def test_euclidean_and_cosine_equal_scikit_learns_for_any_shape(
    rows_x: int, rows_y: int, features: int, chunk: int, seed: int
) -> None:
    rng = np.random.RandomState(seed)
    a, b = rng.randn(rows_x, features), rng.randn(rows_y, features)
    x, y = mt.tensor(a, chunk_size=chunk), mt.tensor(b, chunk_size=chunk)
    got_d, got_c = fetch_all(ours.euclidean_distances(x, y), ours.cosine_similarity(x, y))
    np.testing.assert_allclose(got_d, sk.euclidean_distances(a, b), atol=1e-10)
    np.testing.assert_allclose(got_c, sk.cosine_similarity(a, b), atol=1e-12)


def test_bad_input_raises_scikit_learns_errors() -> None:
    with pytest.raises(ValueError, match=r"Incompatible dimension for X and Y matrices"):
        ours.euclidean_distances(X, Y[:, :3])
    with pytest.raises(ValueError, match=r"X_norm_squared of shape \(12,\)"):
        ours.euclidean_distances(X, Y, X_norm_squared=np.ones(12))
    with pytest.raises(ValueError, match=r"Y_norm_squared of shape \(3, 7\)"):
        ours.euclidean_distances(X, Y, Y_norm_squared=np.ones((3, 7)))
    with pytest.raises(ValueError, match="Expected 2D array"):
        ours.cosine_similarity(np.ones(3))
    with pytest.raises(ValueError, match="Unknown metric nope"):
        ours.pairwise_distances(X, metric="nope")
    with pytest.raises(ValueError, match="only valid in 2 dimensions"):
        ours.haversine_distances(X)
    with pytest.raises(ValueError, match="'V' parameter is required"):
        ours.pairwise_distances(X, Y, metric="seuclidean")
    with pytest.raises(ValueError, match=r"The 'axis' parameter"):
        ours.pairwise_distances_argmin_min(X, Y, axis=2)
    with pytest.raises(ValueError, match="Precomputed metric requires shape"):
        ours.pairwise_distances(X, Y, metric="precomputed")
    with pytest.raises(ValueError, match="Input X contains NaN"):
        ours.euclidean_distances(np.array([[np.nan, 1.0]]))
    negative = mt.tensor(-np.ones((3, 3)), chunk_size=2)
    with pytest.raises(ValueError, match="Negative values in data"):
        fetch_all(ours.pairwise_distances(negative, metric="precomputed"))
    lazy_nan = mt.tensor(np.array([[1.0, 2.0], [np.nan, 0.0]]), chunk_size=1)
    with pytest.raises(ValueError, match="Input X contains NaN"):
        fetch_all(ours.euclidean_distances(lazy_nan))
