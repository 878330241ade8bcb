"""``flip``, ``fliplr``, ``flipud`` and ``roll`` against NumPy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.shape.helpers import data

AxisError = np.exceptions.AxisError


def test_flip_fliplr_flipud_match_numpy(xp: Any) -> None:
    a = data((4, 5, 2))
    for chunks in chunkings(a.shape):
        x = on(xp, mt.tensor(a, chunk_size=chunks))
        assert_same(mt.flip(x), np.flip(a))
        assert_same(mt.flip(x, 1), np.flip(a, 1))
        assert_same(mt.flip(x, (0, -1)), np.flip(a, (0, -1)))
        assert_same(mt.fliplr(x), np.fliplr(a))
        assert_same(mt.flipud(x), np.flipud(a))


def test_flip_bad_inputs() -> None:
    with pytest.raises(ValueError, match="Input must be >= 2-d"):
        mt.fliplr(mt.tensor(data((3,))))
    with pytest.raises(ValueError, match="Input must be >= 1-d"):
        mt.flipud(mt.tensor(1.0))
    with pytest.raises(AxisError):
        mt.flip(mt.tensor(data((3,))), 1)


@pytest.mark.parametrize(
    ("shift", "axis"),
    [
        (2, None),
        (-3, None),
        (1, 0),
        (4, 1),
        (-7, 1),
        ((1, 2), (0, 1)),
        ((1, 2), 1),
        (2, (0, 1)),
        (0, 0),
        (12, 1),
    ],
)
def test_roll_matches_numpy(shift: Any, axis: Any, xp: Any) -> None:
    a = data((4, 6))
    for chunks in chunkings(a.shape):
        x = on(xp, mt.tensor(a, chunk_size=chunks))
        assert_same(mt.roll(x, shift, axis), np.roll(a, shift, axis))


def test_roll_bad_inputs() -> None:
    x = mt.tensor(data((2, 3)))
    with pytest.raises(ValueError, match="shift"):
        mt.roll(x, (1, 2), axis=(0, 1, 0))
    with pytest.raises(AxisError):
        mt.roll(x, 1, axis=2)
    with pytest.raises(TypeError, match="shift"):
        mt.roll(x, 1.5, axis=0)
