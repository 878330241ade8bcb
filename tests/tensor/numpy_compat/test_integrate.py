"""``trapezoid`` and ``trapz`` against ``np.trapezoid`` over three chunkings."""

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings

Y = (np.arange(24.0).reshape(4, 6) - 5) ** 2


@pytest.mark.parametrize("chunks", chunkings(Y.shape))
@pytest.mark.parametrize("func", [mt.trapezoid, mt.trapz])
@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"dx": 0.5},
        {"axis": 0},
        {"x": [0.0, 1.0, 3.0, 7.0, 8.0, 12.0]},
        {"x": [0.0, 2.0, 3.0, 5.0], "axis": 0},
        {"x": np.cumsum(np.ones((4, 6)), axis=0), "axis": 0},
    ],
)
def test_trapezoid_matches_numpy(chunks, func, kwargs):
    t = mt.tensor(Y, chunk_size=chunks)
    assert_same(func(t, **kwargs), np.trapezoid(Y, **kwargs))


def test_trapezoid_of_integers_and_of_a_tensor_x():
    y = np.arange(7)
    assert_same(mt.trapezoid(mt.tensor(y, chunk_size=3)), np.trapezoid(y))
    x = np.linspace(0, 1, 7)
    assert_same(mt.trapezoid(y, x=mt.tensor(x, chunk_size=2)), np.trapezoid(y, x=x))


def test_trapezoid_bad_axis_raises_axis_error():
    with pytest.raises(np.exceptions.AxisError):
        mt.trapezoid(mt.tensor(Y), axis=2)


def test_trapezoid_of_a_scalar_raises_numpys_index_error():
    with pytest.raises(IndexError, match="index out of range"):
        np.trapezoid(np.float64(3))
    with pytest.raises(IndexError, match="index out of range"):
        mt.trapezoid(np.float64(3))
