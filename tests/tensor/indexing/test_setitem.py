"""``x[index] = value`` as a whole (``indexing.setitem``): rebinding, value conversion and
build-time errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from tests.conftest import assert_same
from tests.tensor.indexing.helpers import data, tensor


def test_setitem_leaves_earlier_expressions_alone() -> None:
    a = data((4, 4))
    x = tensor(a, chunk_size=3)
    before = x + 0
    x[0] = -1.0
    assert_same(before, a)


def test_setitem_casts_values_like_numpy() -> None:
    x = tensor(np.zeros(4, dtype=np.int64), chunk_size=3)
    x[:2] = 1.7
    x[2:] = tensor([2.5, -3.5])
    assert_same(x, np.array([1, 1, 2, -3]))
    u = tensor(np.zeros(3, dtype=np.uint8), chunk_size=2)
    u[:] = np.array([300, -1, 2])
    assert_same(u, np.array([300, -1, 2]).astype(np.uint8))
    with pytest.raises(OverflowError):
        u[0] = -1
    f = tensor(np.zeros(3), chunk_size=2)
    with pytest.raises(ValueError, match="could not convert string to float"):
        f[0] = "abc"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        f[:] = tensor(np.array([1 + 2j, 3j, 4]))
    assert_same(f, np.array([1.0, 0.0, 4.0]))
    with pytest.warns(np.exceptions.ComplexWarning):
        f[0] = np.array(1 + 1j)


def test_bad_setitem_raises_at_build_time() -> None:
    x = tensor(np.zeros((3, 4)), chunk_size=2)
    with pytest.raises(ValueError, match=r"could not broadcast input array from shape \(3,\)"):
        x[0] = np.ones(3)
    with pytest.raises(ValueError, match=r"value array of shape \(3, 3\) could not be broad"):
        x[:, [0, 1]] = tensor(np.ones((3, 3)))
    with pytest.raises(ValueError, match="setting an array element with a sequence"):
        x[0, 1] = [1.0]
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 1 with size 4"):
        x[0, 4] = 1
    with pytest.raises(IndexError, match="only integers, slices"):
        x[0.5] = 1
    with pytest.raises(IndexError, match="boolean index did not match"):
        x[np.ones(2, bool)] = 1
