"""``take``, ``compress`` and ``extract`` (``indexing.take``) against NumPy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.indexing.helpers import data, tensor


def test_take_matches_numpy(xp: Any) -> None:
    a = data((4, 5))
    i = np.array([[3, -1], [19, 0]])
    for chunks in chunkings(a.shape):
        x = on(xp, tensor(a, chunk_size=chunks))
        assert_same(mt.take(x, i), np.take(a, i))
        assert_same(mt.take(x, tensor(i, chunk_size=1)), np.take(a, i))
        assert_same(mt.take(x, [1, -1], axis=1), np.take(a, [1, -1], axis=1))
        assert_same(x.take(2, axis=-2), np.take(a, 2, axis=-2))
        assert_same(
            mt.take(x, [[7, -9]], axis=0, mode="wrap"), np.take(a, [[7, -9]], axis=0, mode="wrap")
        )
        assert_same(mt.take(x, [30, -30], mode="clip"), np.take(a, [30, -30], mode="clip"))
        assert_same(mt.take(x, tensor([30, -30]), mode="wrap"), np.take(a, [30, -30], mode="wrap"))
        assert_same(
            mt.take(x, tensor([7]), axis=1, mode="clip"), np.take(a, [7], axis=1, mode="clip")
        )
        assert_same(mt.take(x, [1.7, True]), np.take(a, [1.7, True]))  # type: ignore[arg-type]
    assert_same(mt.take(tensor(np.array(5.0)), [0, 0]), np.take(np.array(5.0), [0, 0]))


def test_take_rejects_bad_input_like_numpy() -> None:
    x = tensor(np.zeros((2, 3)), chunk_size=2)
    with pytest.raises(TypeError, match="Cannot cast array data from dtype\\('float64'\\)"):
        mt.take(x, np.array([1.0]))
    with pytest.raises(ValueError, match="clipmode must be one of"):
        mt.take(x, [0], mode="nearest")
    with pytest.raises(np.exceptions.AxisError):
        mt.take(x, [0], axis=2)
    with pytest.raises(IndexError, match="index 6 is out of bounds for axis 0 with size 6"):
        mt.take(x, [6])
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 1 with size 3"):
        mt.take(x, tensor([3]), axis=1).execute()
    with pytest.raises(IndexError, match="cannot do a non-empty take from an empty axes"):
        mt.take(tensor(np.zeros((0, 2))), [0], axis=0, mode="wrap")


def test_compress_matches_numpy() -> None:
    a = data((4, 5))
    for chunks in chunkings(a.shape):
        x = tensor(a, chunk_size=chunks)
        for cond, axis in [([1, 0, 1, 1, 0], 1), ([0, 1], 0), ([1, 0, 0, 1, 1, 0, 1], None)]:
            expected = np.compress(np.array(cond, dtype=bool), a, axis=axis)
            assert_same(mt.compress(cond, x, axis=axis), expected)
            assert_same(mt.compress(tensor(np.array(cond), chunk_size=2), x, axis=axis), expected)
        assert_same(x.compress([True, False, True, True]), a.compress([True, False, True, True]))
    with pytest.raises(ValueError, match="condition must be a 1-d array"):
        mt.compress([[1]], tensor(a))
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 0 with size 4"):
        mt.compress([0, 0, 0, 0, 1], tensor(a), axis=0)


def test_extract_matches_numpy() -> None:
    a = data((4, 5))
    for chunks in chunkings(a.shape):
        x = tensor(a, chunk_size=chunks)
        assert_same(mt.extract(a > 50, x), np.extract(a > 50, a))
        assert_same(mt.extract(x > 50, x), np.extract(a > 50, a))
        assert_same(mt.extract(tensor(a % 2 > 1), x), np.extract(a % 2 > 1, a))
        assert_same(mt.extract([0, 1, 0, 3], x), np.extract([0, 1, 0, 3], a))
        assert_same(mt.extract(tensor([0, 1, 0, 3]), x), np.extract([0, 1, 0, 3], a))
