"""``squeeze`` and ``expand_dims`` against NumPy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.shape.helpers import data

AxisError = np.exceptions.AxisError


def test_squeeze_matches_numpy(xp: Any) -> None:
    a = data((1, 3, 1, 4))
    for chunks in chunkings(a.shape):
        x = on(xp, mt.tensor(a, chunk_size=chunks))
        assert_same(mt.squeeze(x), np.squeeze(a))
        assert_same(mt.squeeze(x, axis=2), np.squeeze(a, axis=2))
        assert_same(x.squeeze((0, -2)), np.squeeze(a, axis=(0, -2)))
    assert_same(mt.squeeze(on(xp, mt.tensor(np.ones((1, 1))))), np.squeeze(np.ones((1, 1))))


def test_squeeze_bad_axis() -> None:
    x = mt.tensor(data((1, 3)))
    with pytest.raises(ValueError, match="cannot select an axis to squeeze out"):
        mt.squeeze(x, 1)
    with pytest.raises(AxisError, match="axis 2 is out of bounds"):
        mt.squeeze(x, 2)


def test_expand_dims_matches_numpy(xp: Any) -> None:
    a = data((3, 4))
    for chunks in chunkings(a.shape):
        x = on(xp, mt.tensor(a, chunk_size=chunks))
        for axis in (0, 1, 2, -1, (0, 3), (1, -1), (0, 1, 2)):
            assert_same(mt.expand_dims(x, axis), np.expand_dims(a, axis))


def test_expand_dims_bad_axis() -> None:
    x = mt.tensor(data((3, 4)))
    with pytest.raises(AxisError, match="axis 5 is out of bounds for array of dimension 3"):
        mt.expand_dims(x, 5)
    with pytest.raises(ValueError, match="repeated axis"):
        mt.expand_dims(x, (0, 0))
