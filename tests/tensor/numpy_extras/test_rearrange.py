"""``rot90`` and ``resize`` against NumPy over three chunkings."""

from __future__ import annotations

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings

_A = np.arange(24).reshape(2, 3, 4)


@pytest.mark.parametrize("k", [-1, 0, 1, 2, 3, 6])
@pytest.mark.parametrize("axes", [(0, 1), (1, 0), (2, 0), (-1, 1)])
def test_rot90_matches_numpy(k: int, axes: tuple[int, int]) -> None:
    for chunks in chunkings(_A.shape):
        assert_same(mt.rot90(mt.tensor(_A, chunk_size=chunks), k, axes), np.rot90(_A, k, axes))


def test_rot90_bad_axes() -> None:
    x = mt.ones((2, 3))
    with pytest.raises(ValueError, match="len\\(axes\\) must be 2"):
        mt.rot90(x, axes=(0,))
    with pytest.raises(ValueError, match="Axes must be different"):
        mt.rot90(x, axes=(0, -2))
    with pytest.raises(ValueError, match="out of range"):
        mt.rot90(x, axes=(0, 3))


@pytest.mark.parametrize("shape", [(5,), (3, 7), (0,), (2, 2), (4, 0), 30])
def test_resize_matches_numpy(shape: object) -> None:
    for chunks in chunkings(_A.shape):
        assert_same(mt.resize(mt.tensor(_A, chunk_size=chunks), shape), np.resize(_A, shape))
    assert_same(mt.resize(mt.ones(0), (2, 3)), np.resize(np.ones(0), (2, 3)))


def test_resize_refuses_negative_lengths() -> None:
    with pytest.raises(ValueError, match="must be non-negative"):
        mt.resize(mt.ones(3), (-1, 2))
