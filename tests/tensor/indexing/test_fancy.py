"""Fancy indexing with NumPy arrays and lists (``indexing.fancy``) against NumPy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.indexing.helpers import RNG, data, tensor, tile

FANCY_INDICES = [
    [0, 3, 3, -1],
    ([[0, 1], [2, 0]],),
    (slice(None), [5, 0, 2]),
    ([0, 2], [1, 5]),
    ([0, 2], slice(1, 4), [1, -1]),  # separated: broadcast dims go first
    (slice(None), [[0], [2]], [1, 2]),
    (1, slice(None), [0, 2]),  # an int counts as advanced: dims go first
    ([1, 2], None, [0, 1]),
    ([1, 2], Ellipsis, [0, 1]),
    (slice(None, None, -1), [4, 1]),
    (np.array([], dtype=int),),
    ([],),
    (Ellipsis, np.array([2, 0], dtype=np.uint8)),
    (True,),
    (False,),
    (0, True),
]


@pytest.mark.parametrize("index", FANCY_INDICES, ids=repr)
def test_fancy_index_with_arrays_matches_numpy(index: Any, xp: Any) -> None:
    a = data((4, 6, 3))
    for chunks in chunkings(a.shape):
        assert_same(on(xp, tensor(a, chunk_size=chunks))[index], a[index])


@given(st.data())
def test_random_integer_array_indices_match_numpy(d: st.DataObject) -> None:
    shape = tuple(d.draw(st.lists(st.integers(1, 6), min_size=1, max_size=3)))
    chunks = tuple(d.draw(st.integers(1, n)) for n in shape)
    a = data(shape)
    axes = d.draw(st.lists(st.integers(0, len(shape) - 1), min_size=1, max_size=2, unique=True))
    b_shape = tuple(d.draw(st.lists(st.integers(0, 4), max_size=2)))
    index: list[Any] = [slice(None)] * len(shape)
    for ax in axes:
        index[ax] = RNG.integers(-shape[ax], shape[ax], size=b_shape)
    assert_same(tensor(a, chunk_size=chunks)[tuple(index)], a[tuple(index)])


def test_sorted_index_is_cut_at_input_chunks_and_reuses_whole_chunks() -> None:
    a = np.arange(9.0)
    x = tensor(a, chunk_size=3)
    y = x[[0, 1, 3, 4, 5, 8]]
    tiled, ctx = tile(y)
    source, _ = tile(x)
    assert tiled.nsplits == ((2, 3, 1),)
    assert tiled.keys[1] == source.keys[1]
    assert_same(y, a[[0, 1, 3, 4, 5, 8]])


def test_unsorted_index_reads_only_the_chunks_it_needs() -> None:
    x = tensor(np.arange(12.0), chunk_size=3)
    y = x[[7, 1]]
    _, ctx = tile(y)
    source, _ = tile(x)
    ours = [k for k in ctx.graph if isinstance(k, tuple) and str(k[0]).startswith(y.key)]
    deps = set().union(*(ctx.graph[k].dependencies for k in ours))
    assert source.keys[3] not in deps
    assert source.keys[1] not in deps
    assert_same(y, np.arange(12.0)[[7, 1]])
