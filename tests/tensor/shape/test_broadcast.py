"""``broadcast_to`` against NumPy, and its chunk budget."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.config import option_context
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.shape.helpers import data, tile_graph


@pytest.mark.parametrize(
    ("shape", "target"),
    [((3,), (4, 3)), ((1, 3), (5, 3)), ((4, 1), (2, 4, 6)), ((), (2, 2)), ((2, 3), (2, 3))],
)
def test_broadcast_to_matches_numpy(
    shape: tuple[int, ...], target: tuple[int, ...], xp: Any
) -> None:
    a = data(shape)
    for chunks in chunkings(shape):
        assert_same(
            mt.broadcast_to(on(xp, mt.tensor(a, chunk_size=chunks)), target),
            np.broadcast_to(a, target),
        )


def test_broadcast_to_cuts_new_axes_within_the_chunk_budget() -> None:
    a = data((4,))
    with option_context({"chunk_store_limit": 64}):
        x = mt.broadcast_to(mt.tensor(a, chunk_size=4), (10, 4))
    out, _, _ = tile_graph(x)
    assert all(n * 4 * 8 <= 64 for n in out.nsplits[0])
    assert_same(x, np.broadcast_to(a, (10, 4)))


def test_broadcast_to_bad_shapes() -> None:
    x = mt.tensor(data((2, 3)))
    with pytest.raises(ValueError, match=r"cannot broadcast a tensor of shape \(2, 3\)"):
        mt.broadcast_to(x, (3, 3))
    with pytest.raises(ValueError, match="more dimensions"):
        mt.broadcast_to(x, (3,))
    with pytest.raises(ValueError, match="non-negative"):
        mt.broadcast_to(x, (-1, 2, 3))
