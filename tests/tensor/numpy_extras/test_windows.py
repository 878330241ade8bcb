"""Window functions against NumPy, one chunk, uneven chunks and chunks of one."""

from __future__ import annotations

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same


@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning"])
@pytest.mark.parametrize("M", [-1, 0, 1, 2, 5, 12])
def test_cosine_windows_match_numpy(name: str, M: int) -> None:
    for chunk_size in (1, 5, None):
        assert_same(getattr(mt, name)(M, chunk_size=chunk_size), getattr(np, name)(M))


@pytest.mark.parametrize("M", [0, 1, 2, 7])
@pytest.mark.parametrize("beta", [0, 5, 8.6])
def test_kaiser_matches_numpy(M: int, beta: float) -> None:
    for chunk_size in (1, 3, None):
        assert_same(mt.kaiser(M, beta, chunk_size=chunk_size), np.kaiser(M, beta))
