"""``RandomState`` and the global state: seeding, ``rand``/``randn``/``randint``, errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.engine.chunks import normalize_chunk_size
from tests.conftest import chunkings
from tests.tensor.creation.helpers import nsplits_of
from tests.tensor.random.helpers import expected_chunks, fetch, seed_of


@pytest.mark.parametrize("shape", [(), (0,), (7,), (5, 4), (3, 0, 2), (4, 3, 5)])
def test_rand_and_randn_shapes_dtypes_over_chunkings(shape: tuple[int, ...], session: Any) -> None:
    for chunk in chunkings(shape):
        for func in (mt.random.rand, mt.random.randn):
            t = func(*shape, chunk_size=chunk)
            assert t.shape == shape
            assert t.dtype == np.float64
            got = fetch(t)
            assert got.shape == shape
            assert got.dtype == np.float64
            assert nsplits_of(t, session) == normalize_chunk_size(shape, chunk, 8)
        got = fetch(mt.random.rand(*shape, chunk_size=chunk))
        assert ((got >= 0) & (got < 1)).all()


def test_float32_dtype_is_drawn_directly() -> None:
    for t in (
        mt.random.rand(5, 3, chunk_size=2, dtype=np.float32),
        mt.random.randn(4, dtype=np.float32),
        mt.random.standard_normal((2, 2), dtype=np.float32),
        mt.random.standard_exponential(3, dtype="float32"),
        mt.random.random_sample(6, chunk_size=4, dtype=np.float32),
    ):
        got = fetch(t)
        assert t.dtype == got.dtype == np.float32
    t = mt.random.rand(6, chunk_size=4, dtype=np.float32)
    expected = expected_chunks(seed_of(t), "random", (6,), 4, dtype=np.float32)
    np.testing.assert_array_equal(fetch(t), expected.astype(np.float32))


def test_size_none_gives_a_0d_tensor() -> None:
    for t in (mt.random.random_sample(), mt.random.normal(), mt.random.rand(), mt.random.choice(5)):
        assert t.shape == ()
        assert np.ndim(fetch(t)) == 0


def test_aliases_of_random_sample() -> None:
    for func in (mt.random.random, mt.random.ranf, mt.random.sample):
        got = fetch(func((3, 2), chunk_size=2))
        assert got.shape == (3, 2)


def test_global_seed_makes_results_reproducible() -> None:
    mt.random.seed(0)
    a = fetch(mt.random.rand(10, chunk_size=3))
    b = fetch(mt.random.randint(0, 100, size=7, chunk_size=2))
    mt.random.seed(0)
    np.testing.assert_array_equal(fetch(mt.random.rand(10, chunk_size=3)), a)
    np.testing.assert_array_equal(fetch(mt.random.randint(0, 100, size=7, chunk_size=2)), b)


def test_successive_calls_differ() -> None:
    mt.random.seed(1)
    a = fetch(mt.random.rand(10, chunk_size=3))
    b = fetch(mt.random.rand(10, chunk_size=3))
    assert not np.array_equal(a, b)


def test_random_state_has_its_own_reproducible_seed_state() -> None:
    a = fetch(mt.random.RandomState(5).rand(4, 3, chunk_size=2))
    mt.random.seed(123)
    b = fetch(mt.random.RandomState(5).rand(4, 3, chunk_size=2))
    np.testing.assert_array_equal(a, b)
    rs = mt.random.RandomState(5)
    first = fetch(rs.normal(size=5))
    rs.seed(5)
    np.testing.assert_array_equal(fetch(rs.normal(size=5)), first)


def test_get_state_and_set_state_replay_draws() -> None:
    state = mt.random.get_state()
    a = fetch(mt.random.randn(8, chunk_size=3))
    mt.random.set_state(state)
    np.testing.assert_array_equal(fetch(mt.random.randn(8, chunk_size=3)), a)


@pytest.mark.parametrize("dtype", [int, np.int8, np.uint16, np.int32, np.uint64, bool])
def test_randint_stays_within_bounds_and_dtype(dtype: Any) -> None:
    high = 2 if dtype is bool else 7
    low = 0 if dtype is bool else 3
    got = fetch(mt.random.randint(low, high, size=(50, 40), dtype=dtype, chunk_size=15))
    assert got.dtype == np.dtype(dtype)
    assert got.min() == low
    assert got.max() == high - 1


def test_randint_with_one_bound_and_array_bounds() -> None:
    got = fetch(mt.random.randint(5, size=1000, chunk_size=300))
    assert got.min() == 0
    assert got.max() == 4
    low = np.array([0, 10, 100])
    got = fetch(mt.random.randint(low, low + 3, size=(200, 3), chunk_size=(70, 2)))
    assert ((got >= low) & (got < low + 3)).all()
    got = fetch(mt.random.randint(mt.tensor(low, chunk_size=2), 200))
    assert got.shape == (3,)
    assert ((got >= low) & (got < 200)).all()


def test_randint_errors_match_numpy() -> None:
    with pytest.raises(ValueError, match="low >= high"):
        mt.random.randint(5, 3)
    with pytest.raises(ValueError, match="high <= 0"):
        mt.random.randint(0)
    with pytest.raises(ValueError, match="out of bounds"):
        mt.random.randint(0, 300, dtype=np.int8)
    with pytest.raises(TypeError, match="dtype"):
        mt.random.randint(0, 3, dtype=float)
    with pytest.raises(ValueError, match="low >= high"):
        mt.random.randint([0, 5], 3)


def test_size_and_dtype_errors() -> None:
    with pytest.raises(ValueError, match="negative"):
        mt.random.random_sample((2, -1))
    with pytest.raises(TypeError):
        mt.random.normal(size=2.5)
    with pytest.raises(TypeError, match="separate ints"):
        mt.random.rand((2, 3))
    with pytest.raises(TypeError, match="dtype"):
        mt.random.rand(3, dtype=int)
    with pytest.raises(TypeError, match="unexpected"):
        mt.random.randn(3, chunks=2)
    with pytest.raises(TypeError):
        mt.random.uniform(size=3, dtype="bogus")
    with pytest.raises(ValueError, match="chunk_size"):
        mt.random.rand(4, 4, chunk_size=(2, 2, 2))
    with pytest.raises(ValueError, match="chunk_size"):
        mt.random.normal(size=4, chunk_size=0)
