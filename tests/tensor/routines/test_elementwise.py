"""The element-wise routines against NumPy over three chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings

_REAL = np.array([[-2.5, -0.5, 0.0, 0.5], [1.5, 2.5, -3.7, 10.0], [0.25, -1.0, 3.0, 7.5]])
_COMPLEX = _REAL + 1j * _REAL[::-1]
_SPECIAL = np.array([np.nan, np.inf, -np.inf, 1.0, -2.0])


@pytest.mark.parametrize(
    ("func", "expected", "data"),
    [
        (mt.angle, np.angle, _COMPLEX),
        (lambda x: mt.angle(x, deg=True), lambda a: np.angle(a, deg=True), _COMPLEX),
        (mt.angle, np.angle, _REAL.astype(np.float32)),
        (mt.fix, np.fix, _REAL),
        (mt.fix, np.fix, _REAL.astype(np.int64)),
        (mt.i0, np.i0, _REAL),
        (mt.sinc, np.sinc, _REAL),
        (mt.sinc, np.sinc, _REAL.astype(np.float32)),
        (mt.iscomplex, np.iscomplex, _COMPLEX),
        (mt.iscomplex, np.iscomplex, _REAL),
        (mt.isreal, np.isreal, _COMPLEX),
        (mt.isreal, np.isreal, _REAL),
        (mt.round, np.round, _REAL),
        (lambda x: mt.round(x, 1), lambda a: np.round(a, 1), _REAL * 1.234),
    ],
)
def test_matches_numpy(func: Any, expected: Any, data: np.ndarray) -> None:
    for chunks in chunkings(data.shape):
        assert_same(func(mt.tensor(data, chunk_size=chunks)), expected(data))


def test_nan_to_num_matches_numpy() -> None:
    for chunks in chunkings(_SPECIAL.shape):
        x = mt.tensor(_SPECIAL, chunk_size=chunks)
        assert_same(mt.nan_to_num(x), np.nan_to_num(_SPECIAL))
        assert_same(
            mt.nan_to_num(x, nan=-1.0, posinf=9.0, neginf=-9.0),
            np.nan_to_num(_SPECIAL, nan=-1.0, posinf=9.0, neginf=-9.0),
        )
        ints = np.array([3, -1])
        assert_same(mt.nan_to_num(mt.tensor(ints, chunk_size=1)), np.nan_to_num(ints))


def test_nan_to_num_leaves_its_input_alone() -> None:
    x = mt.tensor(_SPECIAL, chunk_size=2).execute()
    mt.nan_to_num(x, copy=False).execute()
    assert np.isnan(x.fetch()[0])


def test_i0_of_complex_raises_at_the_call() -> None:
    with pytest.raises(TypeError, match="i0 not supported for complex"):
        mt.i0(mt.tensor(_COMPLEX))


@pytest.mark.parametrize("combine_size", [None, 2, 3])
def test_tree_add_and_multiply_match_numpy(combine_size: Any) -> None:
    parts = [np.arange(6.0).reshape(2, 3) + i for i in range(5)]
    for chunks in chunkings((2, 3)):
        tensors = [mt.tensor(p, chunk_size=chunks) for p in parts[:4]]
        args = [*tensors, parts[4][0], 2]  # broadcast operands and a scalar too
        assert_same(
            mt.tree_add(*args, combine_size=combine_size), sum(parts) + 2 - parts[4] + parts[4][0]
        )
        assert_same(
            mt.tree_multiply(*args, combine_size=combine_size),
            parts[0] * parts[1] * parts[2] * parts[3] * parts[4][0] * 2,
        )


def test_tree_add_dtype_and_bad_arguments() -> None:
    assert_same(mt.tree_add(mt.tensor([1, 2]), 1, dtype=np.float32), np.array([2, 3], "f4"))
    with pytest.raises(TypeError, match="at least one operand"):
        mt.tree_add()
    with pytest.raises(ValueError, match="combine_size"):
        mt.tree_add(1, 2, combine_size=1)
    with pytest.raises(TypeError, match="unexpected keyword"):
        mt.tree_multiply(1, 2, axis=0)
    with pytest.raises(ValueError, match="could not be broadcast"):
        mt.tree_add(mt.ones(2), mt.ones(3))
