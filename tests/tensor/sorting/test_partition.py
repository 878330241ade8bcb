"""``partition`` and ``argpartition``: the partition property, NumPy's result along a
one-chunk axis, the in-place method and bad input."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings, to_numpy
from tests.tensor.conftest import on
from tests.tensor.sorting.helpers import RNG


def _check_partition(result: np.ndarray, a: np.ndarray, kth: Any, axis: int | None) -> None:
    if axis is None:
        a, axis = a.ravel(), 0
    expected = np.sort(a, axis=axis)
    n = a.shape[axis]
    for k in np.atleast_1d(kth):
        k = int(k) % n
        at_k = np.take(result, [k], axis=axis)
        np.testing.assert_array_equal(at_k, np.take(expected, [k], axis=axis))
        before = np.take(result, range(k), axis=axis)
        after = np.take(result, range(k + 1, n), axis=axis)
        with np.errstate(invalid="ignore"):
            assert not np.any(before > at_k)
            assert not np.any(after < at_k)


@pytest.mark.parametrize("kth", [0, 3, -1, [1, 4], (0, 2, 5)])
def test_partition_has_the_partition_property(kth: Any, xp: Any) -> None:
    a = RNG.integers(0, 9, size=(7, 6)).astype(float)
    for chunks in chunkings(a.shape):
        x = on(xp, mt.tensor(a, chunk_size=chunks))
        for axis in [0, 1, None]:
            result = to_numpy(mt.partition(x, kth, axis=axis).execute().fetch())
            assert result.shape == ((a.size,) if axis is None else a.shape)
            _check_partition(result, a, kth, axis)
            index = to_numpy(mt.argpartition(x, kth, axis=axis).execute().fetch())
            assert index.dtype == np.intp
            if axis is None:
                picked = a.ravel()[index]
            else:
                picked = np.take_along_axis(a, index, axis=axis)
            _check_partition(picked, a, kth, axis)


def test_partition_along_single_chunk_axis_equals_numpy(xp: Any) -> None:
    a = RNG.random((6, 9))
    x = on(xp, mt.tensor(a, chunk_size=(2, 9)))
    assert_same(mt.partition(x, [2, 5], axis=1), np.partition(a, [2, 5], axis=1))
    assert_same(mt.argpartition(x, 4), np.argpartition(a, 4))


def test_partition_method_is_in_place() -> None:
    a = RNG.random(10)
    x = mt.tensor(a, chunk_size=3)
    assert x.partition(4) is None
    _check_partition(x.execute().fetch(), a, 4, 0)
    y = mt.tensor(a, chunk_size=3)
    _check_partition(a[y.argpartition(2).execute().fetch()], a, 2, 0)


def test_partition_bad_kth_and_axis_raise_at_call() -> None:
    x = mt.tensor(np.arange(5.0), chunk_size=2)
    with pytest.raises(ValueError, match="out of bounds"):
        mt.partition(x, 5)
    with pytest.raises(ValueError, match="out of bounds"):
        mt.argpartition(x, [-6])
    with pytest.raises(TypeError, match="kth"):
        mt.partition(x, 1.5)
    with pytest.raises(np.exceptions.AxisError):
        mt.partition(x, 1, axis=1)
    with pytest.raises(ValueError, match="kind"):
        mt.partition(x, 1, kind="quick")
