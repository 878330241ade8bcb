"""``cov`` and ``corrcoef`` against NumPy, with ``y``, weights and bad input."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.statistics.helpers import RNG


@pytest.mark.parametrize(
    "kwargs", [{}, {"rowvar": False}, {"bias": True}, {"ddof": 3}, {"dtype": np.float32}]
)
def test_cov_matches_numpy(kwargs: dict[str, Any], xp: Any) -> None:
    a = RNG.normal(size=(3, 11))
    if kwargs.get("rowvar") is False:
        a = a.T
    for chunks in chunkings(a.shape):
        assert_same(
            mt.cov(on(xp, mt.tensor(a, chunk_size=chunks)), **kwargs),
            np.cov(a, **kwargs),
            rtol=1e-5,
        )


def test_cov_with_y_one_dim_and_weights() -> None:
    a = RNG.normal(size=(2, 9))
    y = RNG.normal(size=9)
    x = mt.tensor(a, chunk_size=(1, 4))
    assert_same(mt.cov(x, mt.tensor(y, chunk_size=2)), np.cov(a, y))
    assert_same(mt.cov(mt.tensor(y, chunk_size=4)), np.cov(y))
    fw = RNG.integers(1, 4, size=9)
    aw = RNG.random(9)
    assert_same(mt.cov(x, fweights=fw, aweights=aw), np.cov(a, fweights=fw, aweights=aw))
    c = RNG.normal(size=(2, 6)) + 1j * RNG.normal(size=(2, 6))
    assert_same(mt.cov(mt.tensor(c, chunk_size=4)), np.cov(c))


def test_corrcoef_matches_numpy(xp: Any) -> None:
    a = RNG.normal(size=(4, 10))
    for chunks in chunkings(a.shape):
        assert_same(mt.corrcoef(on(xp, mt.tensor(a, chunk_size=chunks))), np.corrcoef(a))
        assert_same(
            mt.corrcoef(on(xp, mt.tensor(a, chunk_size=chunks)), rowvar=False),
            np.corrcoef(a, rowvar=False),
        )
    assert_same(mt.corrcoef(a[0], a[1]), np.corrcoef(a[0], a[1]))
    assert_same(mt.corrcoef(on(xp, mt.tensor(a[0], chunk_size=3))), np.corrcoef(a[0]))


def test_cov_bad_arguments() -> None:
    with pytest.raises(ValueError, match="more than 2 dimensions"):
        mt.cov(mt.tensor(np.ones((2, 2, 2))))
    with pytest.raises(ValueError, match="ddof must be integer"):
        mt.cov(mt.tensor(np.ones((2, 3))), ddof=1.5)
    with pytest.raises(ValueError, match="dimension"):
        mt.cov(mt.tensor(np.ones((2, 3))), np.ones(4))
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        result = mt.cov(mt.tensor(np.ones((2, 1))))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = np.cov(np.ones((2, 1)))
        assert_same(result, expected)
