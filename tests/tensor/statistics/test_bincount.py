"""``bincount`` against NumPy: weights, ``minlength``, the data-dependent length."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.statistics.helpers import RNG


def test_bincount_over_chunkings(xp: Any) -> None:
    a = RNG.integers(0, 12, size=23)
    w = RNG.random(23)
    for chunks in chunkings(a.shape):
        x = on(xp, mt.tensor(a, chunk_size=chunks))
        assert_same(mt.bincount(x), np.bincount(a))
        assert_same(mt.bincount(x, minlength=30), np.bincount(a, minlength=30))
        assert_same(mt.bincount(x, on(xp, mt.tensor(w, chunk_size=5))), np.bincount(a, w))
        assert_same(mt.bincount(x, weights=w, minlength=3), np.bincount(a, w, 3))


def test_bincount_length_is_found_by_iterative_tiling() -> None:
    a = np.array([3, 0, 7, 7, 1], dtype=np.uint8)
    result = mt.bincount(mt.tensor(a, chunk_size=2))
    assert math.isnan(result.shape[0])
    assert_same(result, np.bincount(a))
    assert result.shape == (8,)
    assert_same(mt.bincount(mt.tensor(np.array([], dtype=int)), minlength=4), np.zeros(4, np.intp))


def test_bincount_bad_arguments() -> None:
    with pytest.raises(ValueError, match="too deep"):
        mt.bincount(mt.tensor(np.ones((2, 2), dtype=int)))
    with pytest.raises(ValueError, match="too small depth"):
        mt.bincount(mt.tensor(np.array(3)))
    with pytest.raises(TypeError, match="safe"):
        mt.bincount(mt.tensor(np.ones(3)))
    with pytest.raises(ValueError, match="minlength"):
        mt.bincount(mt.tensor(np.ones(3, dtype=int)), minlength=-1)
    with pytest.raises(ValueError, match="same length"):
        mt.bincount(mt.tensor(np.ones(3, dtype=int)), weights=np.ones(4))
    negative = mt.bincount(mt.tensor(np.array([1, -1, 2]), chunk_size=2))
    with pytest.raises(ValueError, match="negative"):
        negative.execute()
