"""``select``, ``piecewise``, ``apply_over_axes``, ``apply_along_axis`` against NumPy over
three chunkings."""

from __future__ import annotations

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings

_X = np.arange(12.0).reshape(3, 4)


@pytest.mark.parametrize("chunks", chunkings(_X.shape))
def test_select_matches_numpy(chunks: object) -> None:
    t = mt.tensor(_X, chunk_size=chunks)
    small = _X.astype(np.int8)
    assert_same(mt.select([t > 3, t < 2], [t, t * 2]), np.select([_X > 3, _X < 2], [_X, _X * 2]))
    assert_same(
        mt.select([t > 3, t < 2], [t, small], default=-1),
        np.select([_X > 3, _X < 2], [_X, small], default=-1),
    )
    assert_same(mt.select([t > 3], [3]), np.select([_X > 3], [3]))
    assert_same(
        mt.select([t > 3], [mt.tensor(small)], default=np.int8(1)),
        np.select([_X > 3], [small], default=np.int8(1)),
    )


def test_select_bad_input() -> None:
    x = mt.ones(3)
    with pytest.raises(ValueError, match="same length"):
        mt.select([x > 0], [x, x])
    with pytest.raises(ValueError, match="empty condition list"):
        mt.select([], [])
    with pytest.raises(TypeError, match="invalid entry 0 in condlist"):
        mt.select([x], [x])


@pytest.mark.parametrize("chunks", chunkings(_X.shape))
def test_piecewise_matches_numpy(chunks: object) -> None:
    t = mt.tensor(_X, chunk_size=chunks)
    funcs = [lambda v: -v, 7]
    assert_same(mt.piecewise(t, [t < 2, t > 8], funcs), np.piecewise(_X, [_X < 2, _X > 8], funcs))
    funcs3 = [lambda v, k: -v, 7, lambda v, k: v * k]
    assert_same(
        mt.piecewise(t, [t < 2, t > 8], funcs3, 10),
        np.piecewise(_X, [_X < 2, _X > 8], funcs3, 10),
    )
    row = _X[0]
    assert_same(mt.piecewise(t[0], t[0] < 2, [1, 2]), np.piecewise(row, row < 2, [1, 2]))
    mask = [True, False, True, False]
    assert_same(mt.piecewise(t[0], mask, [1, 2]), np.piecewise(row, mask, [1, 2]))
    conds = np.stack([_X < 2, _X > 8])
    assert_same(mt.piecewise(t, mt.tensor(conds), [1, 2]), np.piecewise(_X, conds, [1, 2]))
    with pytest.raises(ValueError, match="either 2 or 3 functions"):
        mt.piecewise(t, [t < 2, t > 8], [0])


@pytest.mark.parametrize("chunks", chunkings(_X.shape))
def test_apply_over_and_along_axes_match_numpy(chunks: object) -> None:
    t = mt.tensor(_X, chunk_size=chunks)
    assert_same(mt.apply_over_axes(np.sum, t, [0, 1]), np.apply_over_axes(np.sum, _X, [0, 1]))
    assert_same(mt.apply_over_axes(mt.mean, t, -1), np.apply_over_axes(np.mean, _X, -1))
    assert_same(mt.apply_along_axis(np.sum, 1, t), np.apply_along_axis(np.sum, 1, _X))
    assert_same(mt.apply_along_axis(np.sort, 0, -t), np.apply_along_axis(np.sort, 0, -_X))

    def outer(v: np.ndarray) -> np.ndarray:
        return np.outer(v, v[:2])

    assert_same(mt.apply_along_axis(outer, 1, t), np.apply_along_axis(outer, 1, _X))

    def head(v: np.ndarray, k: int, scale: float = 1.0) -> np.ndarray:
        return v[:k] * scale

    assert_same(
        mt.apply_along_axis(head, 0, t, 2, scale=0.5),
        np.apply_along_axis(head, 0, _X, 2, scale=0.5),
    )


def test_apply_bad_input() -> None:
    with pytest.raises(ValueError, match="correct shape"):
        mt.apply_over_axes(lambda a, axis: mt.sum(a), mt.ones((2, 3)), [0])
    with pytest.raises(np.exceptions.AxisError):
        mt.apply_along_axis(np.sum, 2, mt.ones((2, 3)))
