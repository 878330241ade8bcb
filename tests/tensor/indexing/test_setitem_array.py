"""Assignment through basic indices and integer arrays (``indexing.setitem_array``)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import chunkings
from tests.tensor.indexing.helpers import (
    basic_cases,
    data,
    own_tasks,
    run_setitem,
    tensor,
    tile,
)

SET_CASES = [
    ((1, slice(None)), 7.0),
    ((slice(None, None, -2), 1), np.arange(3.0)),
    ((slice(1, None), slice(None, 2)), np.arange(8.0).reshape(4, 2)),
    ((slice(1, None), slice(None, 2)), np.arange(2.0)),
    ((None, 0), np.ones((1, 1, 4))),
    ((Ellipsis, -1), -5),
    (([0, 4, 4], slice(None)), np.arange(12.0).reshape(3, 4)),
    (([0, 2], [3, 1]), [10.0, 20.0]),
    (([0, 2], Ellipsis, [3, 1]), np.arange(2.0)),
    ((1, None, [0, 3]), np.arange(2.0).reshape(2, 1)),  # separated: broadcast dims first
    ((slice(None), [[0], [3]]), 1.5),
    ((True,), 9.0),
]


@pytest.mark.parametrize(("index", "value"), SET_CASES, ids=repr)
def test_setitem_matches_numpy_assignment(index: Any, value: Any, xp: Any) -> None:
    a = data((5, 4))
    for chunks in chunkings(a.shape):
        run_setitem(a, chunks, index, value, xp)
        if isinstance(value, np.ndarray):
            run_setitem(a, chunks, index, tensor(value, chunk_size=1), xp)


@given(basic_cases(), st.sampled_from(["scalar", "array", "tensor", "broadcast"]))
def test_random_basic_setitem_matches_numpy(case: Any, kind: str) -> None:
    a, chunks, index = case
    shape = a[index].shape
    if kind == "scalar":
        value: Any = -1.0
    elif kind == "broadcast":
        value = -np.arange(shape[-1], dtype=float) if shape else np.float64(-2.0)
    else:
        value = -np.arange(math.prod(shape), dtype=float).reshape(shape)
        if kind == "tensor":
            value = tensor(value, chunk_size=2)
    run_setitem(a, chunks, index, value)


def test_setitem_touches_only_intersecting_chunks() -> None:
    x = tensor(np.zeros((6, 6)), chunk_size=2)
    source, _ = tile(x)
    x[1:3, 4] = 1.0
    tiled, ctx = tile(x)
    touched = sorted(own_tasks(x, ctx))
    assert touched == [(x.key, 0, 2), (x.key, 1, 2)]
    for index in np.ndindex(3, 3):
        if index not in ((0, 2), (1, 2)):
            assert tiled.keys[index] == source.keys[index]
