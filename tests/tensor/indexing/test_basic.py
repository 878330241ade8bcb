"""Basic indexing (``indexing.basic``): ints, slices, ``None`` and ``...`` against NumPy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given

from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.indexing.helpers import basic_cases, data, own_tasks, tensor, tile

BASIC_INDICES = [
    (),
    1,
    -1,
    (slice(None), 2),
    (slice(1, None, 2), slice(None, None, -1)),
    (slice(-2, -10, -3), 0),
    (slice(100, -100, -1),),
    (slice(-100, 100),),
    (slice(5, 2),),
    (None, Ellipsis, None),
    (Ellipsis, 1),
    (1, None, slice(None, None, 2)),
    (np.int64(2), -3),
]


@pytest.mark.parametrize("index", BASIC_INDICES, ids=repr)
def test_basic_index_matches_numpy_over_chunkings(index: Any, xp: Any) -> None:
    a = data((5, 6))
    for chunks in chunkings(a.shape):
        assert_same(on(xp, tensor(a, chunk_size=chunks))[index], a[index])


def test_basic_index_of_0d_and_empty_tensors() -> None:
    a = np.array(3.5)
    x = tensor(a)
    indices: list[Any] = [(), Ellipsis, None, (None, None)]
    for index in indices:
        assert_same(x[index], a[index])
    e = data((0, 3))
    for index in [(slice(None), 1), (slice(None, None, -1),), (None, Ellipsis)]:
        assert_same(tensor(e, chunk_size=2)[index], e[index])


@given(basic_cases())
def test_random_basic_indices_match_numpy(case: Any) -> None:
    a, chunks, index = case
    x = tensor(a, chunk_size=chunks)
    assert_same(x[index], a[index])


def test_basic_index_reuses_whole_chunks_and_slices_the_others() -> None:
    x = tensor(np.arange(10.0), chunk_size=2)
    y = x[2:5]
    tiled, ctx = tile(y)
    source, _ = tile(x)
    assert tiled.nsplits == ((2, 1),)
    assert tiled.keys[0] == source.keys[1]  # chunk [2:4] is input chunk 1, no task
    assert own_tasks(y, ctx) == [(y.key, 1)]  # one slicing task, reading one chunk
    assert ctx.graph[(y.key, 1)].dependencies == {source.keys[2]}
    assert_same(y, np.arange(10.0)[2:5])
