"""Integer tensors as indices (``indexing.tensor_index``) against NumPy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.indexing.helpers import data, tensor


def test_integer_tensor_indices_match_numpy(xp: Any) -> None:
    a = data((5, 6))
    i = np.array([[4, 0, -1], [2, 2, 3]])
    j = np.array([5, -6, 1])
    for chunks in chunkings(a.shape):
        x = on(xp, tensor(a, chunk_size=chunks))
        ti, tj = tensor(i, chunk_size=2), tensor(j, chunk_size=2)
        assert_same(x[ti], a[i])
        assert_same(x[:, tj], a[:, j])
        assert_same(x[ti, tj], a[i, j])
        assert_same(x[ti, j], a[i, j])
        assert_same(x[2, tj], a[2, j])
        assert_same(x[ti[0], 1:4], a[i[0], 1:4])
        assert_same(x[tensor(3)], a[3])
        assert_same(x[mt.nonzero(x > 50)], a[np.nonzero(a > 50)])
        assert_same(x[x[:, 0] > 50, tj[:1]], a[a[:, 0] > 50, j[:1]])


def test_out_of_bounds_tensor_index_fails_at_execute_with_numpy_message() -> None:
    x = tensor(np.arange(12.0).reshape(3, 4), chunk_size=2)
    y = x[:, tensor([0, 4])]  # builds fine: the values are not known yet
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 1 with size 4"):
        y.execute()
    with pytest.raises(IndexError, match="index -4 is out of bounds for axis 0 with size 3"):
        x[tensor([-4])].execute()
