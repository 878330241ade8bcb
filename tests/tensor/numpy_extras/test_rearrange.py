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


@pytest.mark.parametrize("trim", ["fb", "f", "b", "FB", "bf"])
def test_trim_zeros_matches_numpy(trim: str) -> None:
    z = np.array([0, 0, 1, 0, 2, 0, 0])
    plane = np.zeros((4, 5), dtype=int)
    plane[1, 2], plane[2, 3] = 1, 4
    for chunks in chunkings(z.shape):
        assert_same(mt.trim_zeros(mt.tensor(z, chunk_size=chunks), trim), np.trim_zeros(z, trim))
        assert_same(
            mt.trim_zeros(mt.zeros(3, chunk_size=chunks), trim), np.trim_zeros(np.zeros(3), trim)
        )
    for chunks in chunkings(plane.shape):
        t = mt.tensor(plane, chunk_size=chunks)
        assert_same(mt.trim_zeros(t, trim), np.trim_zeros(plane, trim))
        assert_same(mt.trim_zeros(t, trim, axis=1), np.trim_zeros(plane, trim, axis=1))


def test_trim_zeros_bad_trim() -> None:
    with pytest.raises(ValueError, match="unexpected character"):
        mt.trim_zeros(mt.ones(3), "x")
