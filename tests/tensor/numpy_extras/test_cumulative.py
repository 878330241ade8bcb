"""``cumulative_sum`` and ``cumulative_prod`` against NumPy over three chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings

_A = np.arange(1, 13, dtype=np.int8).reshape(3, 4) % 5 + 1


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize(
    "kwargs",
    [{"axis": 0}, {"axis": -1}, {"axis": 1, "include_initial": True}, {"axis": 0, "dtype": float}],
)
def test_cumulative_matches_numpy(name: str, kwargs: dict[str, Any]) -> None:
    for chunks in chunkings(_A.shape):
        x = mt.tensor(_A, chunk_size=chunks)
        assert_same(getattr(mt, name)(x, **kwargs), getattr(np, name)(_A, **kwargs))


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
def test_cumulative_of_1d_and_0d(name: str) -> None:
    a = np.arange(1.0, 6.0)
    for chunks in chunkings(a.shape):
        x = mt.tensor(a, chunk_size=chunks)
        assert_same(
            getattr(mt, name)(x, include_initial=True), getattr(np, name)(a, include_initial=True)
        )
    assert_same(getattr(mt, name)(mt.tensor(2.0)), getattr(np, name)(np.float64(2.0)))
    with pytest.raises(ValueError, match="``axis`` argument is required"):
        getattr(mt, name)(mt.ones((2, 2)))
