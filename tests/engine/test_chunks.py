import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jupyter_mars.engine.chunks import (
    auto_chunk_sizes,
    normalize_chunk_size,
    rechunk_sources,
    split_evenly,
)


def test_int_chunk_size_gives_uneven_last_chunk():
    assert normalize_chunk_size((5, 7), 3, 8) == ((3, 2), (3, 3, 1))


def test_per_axis_forms_are_accepted():
    assert normalize_chunk_size((5, 4), (2, None), 8) == ((2, 2, 1), (4,))
    assert normalize_chunk_size((5, 4), ((1, 4), -1), 8) == ((1, 4), (4,))


def test_absent_chunk_size_uses_the_byte_budget():
    nsplits = normalize_chunk_size((1000, 1000), None, 8, limit=80_000)
    assert all(n * m * 8 <= 80_000 for n in nsplits[0] for m in nsplits[1])


@pytest.mark.parametrize("bad", [0, -2, (0, 2), (2, -1 - 1)])
def test_non_positive_chunk_size_is_rejected(bad):
    with pytest.raises(ValueError, match="chunk_size"):
        normalize_chunk_size((4, 4), bad, 8)


def test_wrong_length_chunk_size_is_rejected():
    with pytest.raises(ValueError, match=r"chunk_size must have one entry per axis \(2"):
        normalize_chunk_size((4, 4), (2, 2, 2), 8)


def test_lengths_must_sum_to_the_axis():
    with pytest.raises(ValueError, match=r"chunk_size\[0\] lengths \(2, 1\) sum to 3"):
        normalize_chunk_size((4,), ((2, 1),), 8)


def test_float_chunk_size_is_a_type_error():
    with pytest.raises(TypeError, match="chunk_size must be an int"):
        normalize_chunk_size((4,), 2.5, 8)


@given(st.integers(0, 50), st.integers(1, 20))
def test_split_evenly_covers_the_axis(length, size):
    parts = split_evenly(length, size)
    assert sum(parts) == length
    assert all(0 < p <= size for p in parts) or parts == (0,)


@given(st.lists(st.integers(0, 100), min_size=1, max_size=4), st.integers(8, 10_000))
def test_auto_chunks_respect_the_budget(shape, limit):
    sizes = auto_chunk_sizes(shape, 8, limit)
    assert all(s >= 1 for s in sizes)
    assert math.prod(min(s, n) for s, n in zip(sizes, shape) if n) * 8 <= max(limit, 8 * 1)


@given(st.data())
def test_rechunk_sources_tile_the_new_chunks(data):
    length = data.draw(st.integers(1, 40))
    old = split_evenly(length, data.draw(st.integers(1, length)))
    new = split_evenly(length, data.draw(st.integers(1, length)))
    sources = rechunk_sources(old, new)
    assert len(sources) == len(new)
    starts = [sum(old[:i]) for i in range(len(old))]
    position = 0
    for n, parts in zip(new, sources):
        covered = []
        for i, sl in parts:
            covered.extend(range(starts[i] + sl.start, starts[i] + sl.stop))
        assert covered == list(range(position, position + n))
        position += n
