"""``make_regression`` and ``make_low_rank_matrix``: coefficients that reproduce ``y``,
scikit-learn's informative features and noise, and its singular value profile."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from sklearn import datasets as sk

import jupyter_mars.tensor as mt
from jupyter_mars.learn.datasets import make_low_rank_matrix, make_regression
from jupyter_mars.learn.datasets.regression import singular_profile
from jupyter_mars.learn.utils import fetch_all


@pytest.mark.parametrize("chunk_size", [None, (70, 4), 300])
@pytest.mark.parametrize("effective_rank", [None, 4])
def test_coefficients_reproduce_y(chunk_size: Any, effective_rank: int | None) -> None:
    X, y, coef = make_regression(  # noqa: N806
        300,
        12,
        n_informative=5,
        bias=2.5,
        effective_rank=effective_rank,
        coef=True,
        random_state=0,
        chunk_size=chunk_size,
    )
    assert (X.shape, y.shape, coef.shape) == ((300, 12), (300,), (12,))
    assert X.dtype == y.dtype == coef.dtype == np.float64
    x, target, w = fetch_all(X, y, coef)
    np.testing.assert_allclose(x @ w + 2.5, target, rtol=1e-10)
    assert np.count_nonzero(w) == 5
    theirs = sk.make_regression(300, 12, n_informative=5, coef=True, random_state=0)
    assert [a.shape for a in (x, target, w)] == [a.shape for a in theirs]
    assert np.all((0 <= w) & (w < 100))  # scikit-learn's 100 * uniform values
    if effective_rank is None:
        np.testing.assert_allclose(x.mean(axis=0), 0.0, atol=0.3)
        np.testing.assert_allclose(x.std(axis=0), 1.0, rtol=0.2)


def test_informative_features_come_first_without_shuffle() -> None:
    _, _, coef = make_regression(50, 8, n_informative=3, shuffle=False, coef=True, random_state=1)
    w = coef.execute().fetch()
    assert np.all(w[:3] > 0)
    assert np.all(w[3:] == 0)
    _, _, shuffled = make_regression(50, 30, n_informative=3, coef=True, random_state=1)
    assert np.flatnonzero(shuffled.execute().fetch()).tolist() != [0, 1, 2]


def test_several_targets_and_noise() -> None:
    X, y, coef = make_regression(  # noqa: N806
        4000, 6, n_targets=3, noise=2.0, coef=True, random_state=3, chunk_size=1000
    )
    assert (y.shape, coef.shape) == ((4000, 3), (6, 3))
    x, target, w = fetch_all(X, y, coef)
    residual = target - x @ w
    np.testing.assert_allclose(residual.std(axis=0), 2.0, rtol=0.1)
    np.testing.assert_allclose(residual.mean(axis=0), 0.0, atol=0.15)


@pytest.mark.parametrize(
    ("shape", "chunk_size"), [((200, 30), (45, 7)), ((30, 90), (10, 40)), ((60, 60), None)]
)
def test_low_rank_matrix_has_scikit_learns_singular_values(shape: Any, chunk_size: Any) -> None:
    matrix = make_low_rank_matrix(
        *shape, effective_rank=6, tail_strength=0.3, random_state=5, chunk_size=chunk_size
    )
    assert matrix.shape == shape
    assert isinstance(matrix, mt.Tensor)
    values = np.linalg.svd(matrix.execute().fetch(), compute_uv=False)
    expected = singular_profile(min(shape), 6, 0.3)
    np.testing.assert_allclose(values, expected, atol=1e-10)
    theirs = np.linalg.svd(
        sk.make_low_rank_matrix(*shape, effective_rank=6, tail_strength=0.3, random_state=5),
        compute_uv=False,
    )
    np.testing.assert_allclose(values, theirs, atol=1e-10)


def test_the_same_random_state_gives_the_same_data() -> None:
    first = fetch_all(*make_regression(100, 5, noise=1.0, random_state=11, chunk_size=30))
    second = fetch_all(*make_regression(100, 5, noise=1.0, random_state=11, chunk_size=30))
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    low = [
        make_low_rank_matrix(40, 20, random_state=2, chunk_size=15).execute().fetch() for _ in "ab"
    ]
    np.testing.assert_array_equal(low[0], low[1])


def test_bad_arguments_raise_value_errors_naming_them() -> None:
    with pytest.raises(ValueError, match="'n_samples' parameter of make_regression"):
        make_regression(0)
    with pytest.raises(ValueError, match="'noise' parameter of make_regression"):
        make_regression(noise=-1)
    with pytest.raises(ValueError, match="'effective_rank' parameter of make_regression"):
        make_regression(effective_rank=0)
    with pytest.raises(ValueError, match="'tail_strength' parameter of make_low_rank_matrix"):
        make_low_rank_matrix(tail_strength=2)
    with pytest.raises(ValueError, match="'coef' parameter"):
        make_regression(coef=1)  # type: ignore[arg-type]
