"""``tile`` and ``repeat`` against NumPy, and their chunk budget."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.config import option_context
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.shape.helpers import data, tile_graph

AxisError = np.exceptions.AxisError


@pytest.mark.parametrize("reps", [2, (2, 1), (1, 3), (2, 2, 2), 0, (3, 0), ()])
def test_tile_matches_numpy(reps: Any, xp: Any) -> None:
    a = data((3, 2))
    for chunks in chunkings(a.shape):
        assert_same(mt.tile(on(xp, mt.tensor(a, chunk_size=chunks)), reps), np.tile(a, reps))
    assert_same(mt.tile(on(xp, mt.tensor(2.0)), reps), np.tile(2.0, reps))


def test_tile_groups_copies_of_a_single_chunk_axis() -> None:
    a = data((3,))
    with option_context({"chunk_store_limit": 8 * 3 * 4}):
        x = mt.tile(mt.tensor(a, chunk_size=3), 10)
    out, _, _ = tile_graph(x)
    assert out.nsplits == ((12, 12, 6),)
    assert_same(x, np.tile(a, 10))


def test_tile_bad_reps() -> None:
    with pytest.raises(ValueError, match="reps"):
        mt.tile(mt.tensor(data((3,))), -1)
    with pytest.raises(TypeError, match="reps"):
        mt.tile(mt.tensor(data((3,))), 1.5)


@pytest.mark.parametrize(
    ("repeats", "axis"), [(2, None), (3, 0), (0, 1), ([1, 0, 2], 0), ([2, 1], 1), ([3], 0)]
)
def test_repeat_matches_numpy(repeats: Any, axis: Any) -> None:
    a = data((3, 2))
    for chunks in chunkings(a.shape):
        x = mt.tensor(a, chunk_size=chunks)
        assert_same(mt.repeat(x, repeats, axis=axis), np.repeat(a, repeats, axis=axis))
        assert_same(x.repeat(repeats, axis), a.repeat(repeats, axis))


def test_repeat_with_axis_none_flattens() -> None:
    a = data((2, 3))
    assert_same(
        mt.repeat(mt.tensor(a, chunk_size=2), [1, 2, 0, 1, 3, 1]), np.repeat(a, [1, 2, 0, 1, 3, 1])
    )


def test_repeat_cuts_large_repeated_chunks() -> None:
    a = data((6,))
    counts = [5, 1, 0, 7, 2, 2]
    with option_context({"chunk_store_limit": 8 * 4}):
        x = mt.repeat(mt.tensor(a, chunk_size=6), 4)
        y = mt.repeat(mt.tensor(a, chunk_size=6), counts)
    assert all(n <= 4 for n in tile_graph(x)[0].nsplits[0])
    assert_same(x, np.repeat(a, 4))
    assert_same(y, np.repeat(a, counts))


def test_repeat_bad_inputs() -> None:
    x = mt.tensor(data((2, 3)))
    with pytest.raises(ValueError, match="negative"):
        mt.repeat(x, -1)
    with pytest.raises(ValueError, match="negative"):
        mt.repeat(x, [1, -1], axis=0)
    with pytest.raises(ValueError, match="repeats has 3 counts but axis 0 has length 2"):
        mt.repeat(x, [1, 2, 3], axis=0)
    with pytest.raises(AxisError):
        mt.repeat(x, 2, axis=2)
