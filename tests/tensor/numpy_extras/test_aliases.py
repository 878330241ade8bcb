"""NumPy 2's new names and the conversions, against NumPy over three chunkings."""

from __future__ import annotations

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings

_A = np.arange(24).reshape(2, 3, 4)


@pytest.mark.parametrize("chunks", chunkings(_A.shape))
def test_new_names_match_numpy(chunks: object) -> None:
    x = mt.tensor(_A, chunk_size=chunks)
    assert_same(mt.concat([x, x], axis=1), np.concat([_A, _A], axis=1))
    assert_same(mt.permute_dims(x, (2, 0, 1)), np.permute_dims(_A, (2, 0, 1)))
    assert_same(mt.matrix_transpose(x), np.matrix_transpose(_A))
    for axis in (0, 1, -1):
        got = mt.unstack(x, axis=axis)
        expected = np.unstack(_A, axis=axis)
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            assert_same(g, e)


def test_new_names_bad_input() -> None:
    with pytest.raises(ValueError, match="at least 2-dimensional, but it is 1"):
        mt.matrix_transpose(mt.ones(3))
    with pytest.raises(ValueError, match="at least 1-d"):
        mt.unstack(mt.tensor(1.0))
    with pytest.raises(np.exceptions.AxisError):
        mt.unstack(mt.ones(3), axis=1)


def test_asanyarray_and_require() -> None:
    assert_same(mt.asanyarray([1, 2, 3], dtype=np.float32), np.asanyarray([1, 2, 3], np.float32))
    x = mt.tensor(_A, chunk_size=2)
    assert_same(mt.require(x, np.float64, ["C", "A", "W", "O"]), np.require(_A, np.float64))
    assert_same(mt.require(_A, requirements="F"), np.require(_A, requirements="F"))
    with pytest.raises(KeyError):
        mt.require(x, requirements=["X"])
    with pytest.raises(ValueError, match='both "C" and "F"'):
        mt.require(x, requirements=["C", "FORTRAN"])
