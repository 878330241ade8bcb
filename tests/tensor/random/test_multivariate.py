"""Multivariate distributions: the trailing axis, statistics, chunking, NumPy's errors."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import chunkings
from tests.tensor.creation.helpers import nsplits_of
from tests.tensor.random.helpers import fetch

COV = np.array([[2.0, 0.6], [0.6, 1.0]])


@pytest.mark.parametrize(
    ("name", "args", "k", "dtype"),
    [
        ("dirichlet", ([1.0, 2.0, 3.0],), 3, np.float64),
        ("multinomial", (10, [0.2, 0.3, 0.5]), 3, np.int64),
        ("multivariate_normal", ([0.0, 1.0], COV), 2, np.float64),
    ],
)
@pytest.mark.parametrize("chunk_size", chunkings((5, 4)))
def test_shape_is_size_plus_the_vector_axis_in_one_chunk(
    session: Any, name: str, args: tuple[Any, ...], k: int, dtype: Any, chunk_size: Any
) -> None:
    t = getattr(mt.random.RandomState(1), name)(*args, size=(5, 4), chunk_size=chunk_size)
    expected = getattr(np.random.RandomState(1), name)(*args, size=(5, 4))
    got = fetch(t)
    assert t.shape == got.shape == expected.shape == (5, 4, k)
    assert t.dtype == got.dtype == expected.dtype == dtype
    assert nsplits_of(t, session)[-1] == (k,)
    # same seed, same chunks: the same numbers
    again = getattr(mt.random.RandomState(1), name)(*args, size=(5, 4), chunk_size=chunk_size)
    np.testing.assert_array_equal(fetch(again), got)


def test_without_size_one_vector_is_drawn() -> None:
    assert fetch(mt.random.dirichlet([1, 1])).shape == (2,)
    assert fetch(mt.random.multinomial(3, [0.5, 0.5])).shape == (2,)
    assert fetch(mt.random.multivariate_normal([0, 0, 0], np.eye(3))).shape == (3,)


def test_statistics_match_the_distributions() -> None:
    n = 40_000
    alpha = np.array([1.0, 2.0, 5.0])
    d = fetch(mt.random.dirichlet(alpha, size=n, chunk_size=n // 4))
    np.testing.assert_allclose(d.sum(axis=-1), 1.0)
    np.testing.assert_allclose(d.mean(axis=0), alpha / alpha.sum(), atol=0.01)

    p = np.array([0.2, 0.3, 0.5])
    m = fetch(mt.random.multinomial(20, p, size=n, chunk_size=n // 3))
    assert (m.sum(axis=-1) == 20).all()
    np.testing.assert_allclose(m.mean(axis=0), 20 * p, atol=0.1)
    np.testing.assert_allclose(m.var(axis=0), 20 * p * (1 - p), rtol=0.05)

    x = fetch(mt.random.multivariate_normal([1.0, -2.0], COV, size=n, chunk_size=n // 5))
    np.testing.assert_allclose(x.mean(axis=0), [1.0, -2.0], atol=0.05)
    np.testing.assert_allclose(np.cov(x.T), COV, atol=0.06)


def test_chunks_draw_independent_vectors() -> None:
    x = fetch(mt.random.multivariate_normal([0, 0], np.eye(2), size=4000, chunk_size=1000))
    blocks = x.reshape(4, 1000, 2)
    assert not np.allclose(blocks[0], blocks[1])


def test_dtype_casts_the_draws() -> None:
    got = fetch(mt.random.multivariate_normal([0, 0], np.eye(2), size=3, dtype=np.float32))
    assert got.dtype == np.float32
    assert mt.random.multinomial(5, [0.5, 0.5], size=2, dtype=np.int32).dtype == np.int32


def test_parameter_errors_match_numpy() -> None:
    rs = np.random.RandomState(0)
    for call in [
        lambda m: m.dirichlet([1.0, -1.0]),
        lambda m: m.multinomial(-1, [0.5, 0.5]),
        lambda m: m.multivariate_normal([0, 0], [[1, 0]]),
        lambda m: m.multivariate_normal([0], np.eye(2)),
        lambda m: m.multivariate_normal([0, 0], np.eye(2), check_valid="maybe"),
        lambda m: m.multivariate_normal([0, 0], [[1, 2], [2, 1]], check_valid="raise"),
    ]:
        try:
            call(rs)
        except ValueError as exc:
            message = str(exc).split(".")[0]
        with pytest.raises(ValueError, match=re.escape(message)):
            call(mt.random)
    with pytest.raises(ValueError, match="alpha must be 1-dimensional"):
        mt.random.dirichlet([[1, 2]])
    with pytest.raises(TypeError, match="n must be an int"):
        mt.random.multinomial(2.5, [0.5, 0.5])
    with pytest.raises(TypeError, match="pvals must be an array-like"):
        mt.random.multinomial(2, mt.tensor([0.5, 0.5]))
    with pytest.raises(ValueError, match="negative dimensions"):
        mt.random.dirichlet([1, 1], size=-1)


def test_a_covariance_that_is_not_psd_warns_at_the_call_as_numpy() -> None:
    bad = [[1.0, 2.0], [2.0, 1.0]]
    with pytest.warns(RuntimeWarning, match="positive-semidefinite"):
        np.random.RandomState(0).multivariate_normal([0, 0], bad)
    with pytest.warns(RuntimeWarning, match="positive-semidefinite"):
        t = mt.random.multivariate_normal([0, 0], bad, size=4, chunk_size=2)
    # the chunks do not warn again
    assert fetch(t).shape == (4, 2)
    assert fetch(mt.random.multivariate_normal([0, 0], bad, check_valid="ignore")).shape == (2,)


def test_each_chunk_is_one_generator_call_on_its_stream() -> None:
    alpha = np.array([1.0, 3.0])
    t = mt.random.dirichlet(alpha, size=5, chunk_size=(2, 2))
    got = fetch(t)
    seed = t.op.seed
    parts = [
        np.random.Generator(
            np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(i,)))
        ).dirichlet(alpha, size=n)
        for i, n in enumerate([2, 2, 1])
    ]
    np.testing.assert_array_equal(got, np.concatenate(parts))
