"""Distributions: statistics, dtypes, scalar/array/tensor parameters, NumPy's errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.tensor.creation.helpers import nsplits_of
from tests.tensor.random.helpers import N, fetch


@pytest.mark.parametrize(
    ("make", "mean", "std"),
    [
        (lambda: mt.random.rand(N, chunk_size=N // 5), 0.5, (1 / 12) ** 0.5),
        (lambda: mt.random.randn(N, chunk_size=N // 5), 0.0, 1.0),
        (lambda: mt.random.uniform(2, 5, size=N, chunk_size=N // 3), 3.5, 3 / 12**0.5),
        (lambda: mt.random.normal(3, 2, size=N, chunk_size=N // 4), 3.0, 2.0),
        (lambda: mt.random.exponential(2.0, N, chunk_size=N // 2), 2.0, 2.0),
        (lambda: mt.random.poisson(4.0, N, chunk_size=N // 2), 4.0, 2.0),
        (lambda: mt.random.binomial(10, 0.3, N, chunk_size=N // 2), 3.0, 2.1**0.5),
        (lambda: mt.random.beta(2, 5, N), 2 / 7, (10 / (49 * 8)) ** 0.5),
        (lambda: mt.random.gamma(2.0, 3.0, N), 6.0, 18**0.5),
        (lambda: mt.random.randint(0, 10, N, chunk_size=N // 3), 4.5, (99 / 12) ** 0.5),
    ],
)
def test_sample_mean_and_std_are_close_to_the_distribution(
    make: Any, mean: float, std: float
) -> None:
    got = fetch(make())
    assert got.shape == (N,)
    assert abs(got.mean() - mean) < 0.03 * max(std, 1)
    assert abs(got.std() - std) < 0.03 * std


def test_distribution_dtypes_match_numpy() -> None:
    rs = np.random.RandomState(0)
    for name, args in [
        ("uniform", ()),
        ("normal", ()),
        ("poisson", ()),
        ("binomial", (5, 0.5)),
        ("negative_binomial", (5, 0.5)),
        ("geometric", (0.5,)),
        ("lognormal", ()),
        ("laplace", ()),
        ("logistic", ()),
        ("gumbel", ()),
        ("chisquare", (2,)),
        ("standard_t", (3,)),
        ("standard_cauchy", ()),
        ("pareto", (3.0,)),
        ("weibull", (2.0,)),
        ("power", (2.0,)),
        ("rayleigh", ()),
        ("triangular", (0, 1, 3)),
        ("f", (2, 3)),
        ("wald", (1.0, 2.0)),
        ("vonmises", (0.0, 1.0)),
        ("zipf", (2.0,)),
        ("logseries", (0.5,)),
        ("standard_gamma", (2.0,)),
    ]:
        t = getattr(mt.random, name)(*args, size=(3, 4), chunk_size=2)
        expected = getattr(rs, name)(*args, size=(3, 4))
        got = fetch(t)
        assert got.shape == (3, 4), name
        assert t.dtype == got.dtype == expected.dtype, name


def test_dtype_argument_casts_other_distributions() -> None:
    got = fetch(mt.random.normal(0, 1, size=5, dtype=np.float32))
    assert got.dtype == np.float32
    got = fetch(mt.random.poisson(3, size=5, dtype=np.int16, chunk_size=2))
    assert got.dtype == np.int16


def test_tensor_parameters_broadcast_and_align_with_chunks(session: Any) -> None:
    loc = np.arange(7) * 1000.0
    t = mt.random.normal(mt.tensor(loc, chunk_size=3), 0.001, size=(5, 7), chunk_size=(2, 4))
    got = fetch(t)
    assert got.shape == (5, 7)
    np.testing.assert_array_equal(np.round(got / 1000), np.broadcast_to(np.arange(7.0), (5, 7)))
    assert nsplits_of(t, session) == ((2, 2, 1), (4, 3))


def test_tensor_parameters_without_size_follow_their_chunks(session: Any) -> None:
    low = mt.tensor(np.arange(10.0), chunk_size=4)
    t = mt.random.uniform(low, low + 0.5)
    got = fetch(t)
    assert t.shape == (10,)
    assert ((got >= np.arange(10)) & (got < np.arange(10) + 0.5)).all()
    assert nsplits_of(t, session) == ((4, 4, 2),)


def test_array_parameters_broadcast_like_numpy() -> None:
    scale = np.array([[1e-9], [1e9]])
    got = fetch(mt.random.normal(0, scale, size=(2, 3)))
    assert np.abs(got[0]).max() < 1e-6
    assert np.abs(got[1]).max() > 1
    got = fetch(mt.random.uniform([0, 10], [1, 11], chunk_size=1))
    assert got.shape == (2,)
    assert 0 <= got[0] < 1
    assert 10 <= got[1] < 11


def test_parameter_errors_match_numpy() -> None:
    with pytest.raises(ValueError, match="scale < 0"):
        mt.random.normal(0, -1, size=3)
    with pytest.raises(ValueError, match="lam"):
        mt.random.poisson(-2)
    with pytest.raises(ValueError, match="shape mismatch"):
        mt.random.normal(np.zeros(3), 1, size=(4,))
    with pytest.raises(ValueError, match="shape mismatch"):
        mt.random.normal(mt.zeros(3), 1, size=(2, 4))
    with pytest.raises(TypeError, match="required"):
        mt.random.binomial(5)
    with pytest.raises(TypeError, match="numeric"):
        mt.random.normal("a")


def test_parameters_of_unknown_length_are_sized_first():
    import numpy as np

    import jupyter_mars.tensor as mt

    low = mt.tensor(np.arange(10.0), chunk_size=3)
    low = low[low > 4]
    draws = mt.random.uniform(low, 20.0).execute().fetch()
    assert draws.shape == (5,)
    assert (draws >= np.arange(5.0, 10.0)).all()
    assert (draws < 20.0).all()
