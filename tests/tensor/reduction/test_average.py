"""``average`` with and without weights, ``returned``, bad weights."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.reduction.helpers import data


def test_average_without_weights_matches_numpy() -> None:
    x = data((4, 5), seed=8)
    for chunks in chunkings(x.shape):
        t = mt.tensor(x, chunk_size=chunks)
        for axis in [None, 0, (1, 0)]:
            for keepdims in (False, True):
                assert_same(
                    mt.average(t, axis=axis, keepdims=keepdims),
                    np.average(x, axis=axis, keepdims=keepdims),
                )
                avg, scl = mt.average(t, axis=axis, returned=True, keepdims=keepdims)
                exp_avg, exp_scl = np.average(x, axis=axis, returned=True, keepdims=keepdims)
                assert_same(avg, exp_avg)
                assert_same(scl, exp_scl)


def test_average_with_weights_matches_numpy(xp: Any) -> None:
    rng = np.random.default_rng(9)
    x = rng.integers(0, 10, size=(4, 3, 5))
    full = rng.random((4, 3, 5))
    cases: list[tuple[Any, Any]] = [
        (None, full),
        (1, rng.random(3)),
        (-1, rng.random(5).astype(np.float32)),
        ((2, 0), rng.random((5, 4))),
        ((0, 2), rng.random((4, 5))),
        ((0, 1, 2), full),
    ]
    for chunks in chunkings(x.shape):
        t = on(xp, mt.tensor(x, chunk_size=chunks))
        for axis, w in cases:
            for keepdims in (False, True):
                for weights in (w, mt.tensor(w, chunk_size=2)):
                    avg, scl = mt.average(
                        t, axis=axis, weights=weights, returned=True, keepdims=keepdims
                    )
                    exp_avg, exp_scl = np.average(
                        x, axis=axis, weights=w, returned=True, keepdims=keepdims
                    )
                    assert_same(avg, exp_avg)
                    assert_same(scl, exp_scl)


def test_average_dtype_of_float32_data_and_float16_weights() -> None:
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    w = np.ones(2, dtype=np.float16)
    avg, scl = mt.average(mt.tensor(x), axis=0, weights=w, returned=True)
    exp_avg, exp_scl = np.average(x, axis=0, weights=w, returned=True)
    assert_same(avg, exp_avg)
    assert_same(scl, exp_scl)


def test_average_bad_weights() -> None:
    x = mt.tensor(np.ones((2, 3)))
    with pytest.raises(TypeError, match="Axis must be specified"):
        mt.average(x, weights=np.ones(3))
    with pytest.raises(ValueError, match="Shape of weights"):
        mt.average(x, axis=1, weights=np.ones(2))
    with pytest.raises(ValueError, match="Shape of weights"):
        mt.average(x, axis=1, weights=np.ones((3, 1)))
    with pytest.raises(np.exceptions.AxisError):
        mt.average(x, axis=2, weights=np.ones(3))
    zero = mt.average(x, axis=1, weights=np.zeros(3))
    with pytest.raises(ZeroDivisionError, match="Weights sum to zero"):
        zero.execute()
