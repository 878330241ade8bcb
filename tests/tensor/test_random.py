"""``mt.random``: shapes, dtypes, chunk layouts, reproducibility, statistics and errors."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from jupyter_mars.engine.chunks import normalize_chunk_size, offsets
from jupyter_mars.engine.plan import plan_stages
from jupyter_mars.tensor import random as mrandom
from tests.conftest import chunkings

N = 100_000


def fetch(t: Any) -> Any:
    return t.execute().fetch()


def nsplits_of(t: Any, session: Any) -> tuple[tuple[int, ...], ...]:
    t.execute()
    return tuple(tuple(int(n) for n in axis) for axis in session.engine.executed[t.key].nsplits)


def seed_of(t: Any) -> int:
    op = t.op
    assert isinstance(op, mrandom.RandomChunks)
    return op.seed


def expected_chunks(
    seed: int, method: str, shape: tuple[int, ...], chunk_size: Any, *args: Any, **kwargs: Any
) -> Any:
    """The documented scheme: chunk i draws from SeedSequence(seed, spawn_key=(i,))."""
    nsplits = normalize_chunk_size(shape, chunk_size, 8)
    out = np.empty(shape)
    starts = [offsets(axis) for axis in nsplits]
    grid = [len(axis) for axis in nsplits]
    for flat, index in enumerate(itertools.product(*(range(n) for n in grid))):
        gen = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(flat,))))
        region = tuple(slice(starts[a][i], starts[a][i + 1]) for a, i in enumerate(index))
        out[region] = getattr(gen, method)(*args, size=out[region].shape, **kwargs)
    return out


# ---- shapes, dtypes, layouts -----------------------------------------------------------------


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


@given(
    st.lists(st.integers(0, 6), min_size=0, max_size=3),
    st.integers(1, 7),
    st.integers(0, 2**32 - 1),
)
def test_chunks_follow_the_seed_sequence_scheme(shape: list[int], chunk: int, seed: int) -> None:
    t = mt.random.RandomState(seed).random_sample(tuple(shape), chunk_size=chunk)
    expected = expected_chunks(seed_of(t), "random", tuple(shape), chunk)
    np.testing.assert_array_equal(fetch(t), expected)


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


def test_rand_of_benchmark_size_is_one_generator_call_per_chunk() -> None:
    t = mt.random.rand(20000, 20000, chunk_size=2000)
    graph = next(plan_stages([t.node], {})).graph
    assert len(graph) == 100
    for task in graph.values():
        assert task.func is mrandom.random_chunk
        assert task.args[2] == "random"
        assert task.args[3] == (2000, 2000)
        assert not task.dependencies


# ---- reproducibility and independence -------------------------------------------------------


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


def test_executing_twice_gives_the_same_numbers() -> None:
    t = mt.random.rand(6, chunk_size=2)
    a = fetch(t)
    b = fetch(t + 0)
    np.testing.assert_array_equal(a, b)


def test_chunks_draw_different_numbers() -> None:
    got = fetch(mt.random.rand(100, chunk_size=10)).reshape(10, 10)
    for i, j in itertools.combinations(range(10), 2):
        assert not np.array_equal(got[i], got[j])
    ints = fetch(mt.random.randint(0, 2**62, size=(4, 4), chunk_size=2))
    blocks = [ints[i : i + 2, j : j + 2] for i in (0, 2) for j in (0, 2)]
    assert len({b.tobytes() for b in blocks}) == 4


# ---- statistics ------------------------------------------------------------------------------


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


# ---- randint -----------------------------------------------------------------------------------


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


# ---- array and tensor parameters ------------------------------------------------------------


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


# ---- choice --------------------------------------------------------------------------------


def test_choice_without_replacement_has_no_duplicates() -> None:
    got = fetch(mt.random.choice(50, size=(6, 5), replace=False, chunk_size=(4, 2)))
    assert got.shape == (6, 5)
    assert got.dtype == np.int64
    assert len(np.unique(got)) == 30
    assert got.min() >= 0
    assert got.max() < 50
    full = fetch(mt.random.choice(20, 20, replace=False, chunk_size=3))
    np.testing.assert_array_equal(np.sort(full), np.arange(20))


def test_choice_from_a_population_reads_its_values() -> None:
    pop = np.arange(30) * 10 + 0.5
    for a in (pop, mt.tensor(pop, chunk_size=7)):
        got = fetch(mt.random.choice(a, 100, chunk_size=30))
        assert got.dtype == pop.dtype
        assert np.isin(got, pop).all()
        got = fetch(mt.random.choice(a, (3, 4), replace=False, chunk_size=2))
        assert np.isin(got, pop).all()
        assert len(np.unique(got)) == 12


def test_choice_respects_probabilities() -> None:
    got = fetch(mt.random.choice(3, 200, p=[0, 0, 1], chunk_size=50))
    assert (got == 2).all()
    got = fetch(mt.random.choice([1, 2, 3, 4], 4, replace=False, p=[0.1, 0.2, 0.3, 0.4]))
    np.testing.assert_array_equal(np.sort(got), [1, 2, 3, 4])
    p = mt.tensor(np.array([0.0, 1.0, 0.0]), chunk_size=1)
    assert (fetch(mt.random.choice(3, 20, p=p, chunk_size=7)) == 1).all()
    freq = np.bincount(fetch(mt.random.choice(2, N, p=[0.25, 0.75], chunk_size=N // 4))) / N
    assert abs(freq[1] - 0.75) < 0.01


def test_choice_is_reproducible() -> None:
    a = fetch(mt.random.RandomState(3).choice(100, 10, replace=False, chunk_size=4))
    b = fetch(mt.random.RandomState(3).choice(100, 10, replace=False, chunk_size=4))
    np.testing.assert_array_equal(a, b)


def test_choice_errors_match_numpy() -> None:
    with pytest.raises(ValueError, match="1-dimensional"):
        mt.random.choice(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="1-dimensional"):
        mt.random.choice(mt.zeros((2, 2)))
    with pytest.raises(ValueError, match="larger sample"):
        mt.random.choice(5, 6, replace=False)
    with pytest.raises(ValueError, match="sum to 1"):
        mt.random.choice(3, 2, p=[0.5, 0.1, 0.1])
    with pytest.raises(ValueError, match="same size"):
        mt.random.choice(3, 2, p=[0.5, 0.5])
    with pytest.raises(ValueError, match="positive"):
        mt.random.choice(0, 2)
    with pytest.raises(ValueError, match="empty"):
        mt.random.choice([], 2)
    with pytest.raises(TypeError, match="integer"):
        mt.random.choice(2.5)
    with pytest.raises(ValueError, match="non-zero"):
        mt.random.choice(3, 2, replace=False, p=[1.0, 0, 0])


# ---- permutation, shuffle -----------------------------------------------------------------------


def test_permutation_of_an_int_is_a_permutation(session: Any) -> None:
    t = mt.random.permutation(50, chunk_size=7)
    got = fetch(t)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(np.sort(got), np.arange(50))
    assert not np.array_equal(got, np.arange(50))
    assert nsplits_of(t, session) == ((7,) * 7 + (1,),)
    assert fetch(mt.random.permutation(0)).shape == (0,)


@pytest.mark.parametrize("chunk", [1, (3, 1), (4, 2)])
def test_permutation_of_a_tensor_permutes_rows(chunk: Any) -> None:
    x = np.arange(24).reshape(8, 3)
    got = fetch(mt.random.permutation(mt.tensor(x, chunk_size=chunk)))
    assert got.shape == x.shape
    np.testing.assert_array_equal(got[np.argsort(got[:, 0])], x)
    arr = fetch(mt.random.permutation(x.tolist(), chunk_size=3))
    np.testing.assert_array_equal(np.sort(arr, axis=0), x)


def test_permutation_is_reproducible_and_checks_input() -> None:
    a = fetch(mt.random.RandomState(9).permutation(30, chunk_size=4))
    b = fetch(mt.random.RandomState(9).permutation(30, chunk_size=4))
    np.testing.assert_array_equal(a, b)
    with pytest.raises(IndexError):
        mt.random.permutation(np.array(5.0))
    with pytest.raises(IndexError):
        mt.random.permutation(mt.tensor(3.0))


def test_shuffle_rebinds_a_tensor_and_shuffles_an_array() -> None:
    x = mt.tensor(np.arange(20), chunk_size=6)
    mt.random.shuffle(x)
    got = fetch(x)
    np.testing.assert_array_equal(np.sort(got), np.arange(20))
    arr = np.arange(20)
    mt.random.shuffle(arr)
    np.testing.assert_array_equal(np.sort(arr), np.arange(20))
    with pytest.raises(TypeError):
        mt.random.shuffle([1, 2, 3])


# ---- bad input ------------------------------------------------------------------------------


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


def test_all_lists_the_public_api() -> None:
    for name in mrandom.__all__:
        assert callable(getattr(mt.random, name)), name
    assert mt.random is mrandom
