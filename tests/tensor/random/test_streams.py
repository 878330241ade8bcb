"""The per-chunk streams: the documented seed scheme, one call per chunk, independence."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from jupyter_mars.engine.plan import plan_stages
from jupyter_mars.tensor.random import distributions, streams
from tests.tensor.random.helpers import expected_chunks, fetch, seed_of


@given(
    st.lists(st.integers(0, 6), min_size=0, max_size=3),
    st.integers(1, 7),
    st.integers(0, 2**32 - 1),
)
def test_chunks_follow_the_seed_sequence_scheme(shape: list[int], chunk: int, seed: int) -> None:
    t = mt.random.RandomState(seed).random_sample(tuple(shape), chunk_size=chunk)
    expected = expected_chunks(seed_of(t), "random", tuple(shape), chunk)
    np.testing.assert_array_equal(fetch(t), expected)


def test_rand_of_benchmark_size_is_one_generator_call_per_chunk() -> None:
    t = mt.random.rand(20000, 20000, chunk_size=2000)
    graph = next(plan_stages([t.node], {})).graph
    assert len(graph) == 100
    for task in graph.values():
        assert task.func is distributions.random_chunk
        assert task.args[2] == "random"
        assert task.args[3] == (2000, 2000)
        assert not task.dependencies


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


def test_flat_index_numbers_the_chunks_in_c_order() -> None:
    blocks = (2, 3, 4)
    indices = itertools.product(*(range(n) for n in blocks))
    assert [streams.flat_index(index, blocks) for index in indices] == list(range(24))
    assert streams.flat_index((), ()) == 0


def test_chunk_generator_is_the_spawned_seed_sequence_stream() -> None:
    def stream(*key: int) -> np.random.Generator:
        return np.random.Generator(np.random.PCG64(np.random.SeedSequence(5, spawn_key=key)))

    np.testing.assert_array_equal(streams.chunk_generator(5, 3).random(4), stream(3).random(4))
    np.testing.assert_array_equal(streams.chunk_generator(5, None).random(4), stream().random(4))
