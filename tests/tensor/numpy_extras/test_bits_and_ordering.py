"""``packbits``, ``unpackbits`` and ``lexsort`` against NumPy over three chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings

_X = np.arange(36).reshape(3, 12)
_B = _X % 3 == 0
_U = np.packbits(_B, axis=1)


@pytest.mark.parametrize("chunks", chunkings(_X.shape))
@pytest.mark.parametrize(
    "kwargs", [{}, {"axis": 1, "bitorder": "little"}, {"axis": 0}, {"axis": -1}]
)
def test_packbits_matches_numpy(chunks: object, kwargs: dict[str, Any]) -> None:
    assert_same(mt.packbits(mt.tensor(_B, chunk_size=chunks), **kwargs), np.packbits(_B, **kwargs))
    assert_same(mt.packbits(mt.tensor(_X, chunk_size=chunks), **kwargs), np.packbits(_X, **kwargs))


@pytest.mark.parametrize("chunks", chunkings(_U.shape))
@pytest.mark.parametrize(
    "kwargs",
    [{}, {"axis": 1}, {"axis": 0, "count": -3}, {"axis": 1, "count": 11, "bitorder": "little"}],
)
def test_unpackbits_matches_numpy(chunks: object, kwargs: dict[str, Any]) -> None:
    assert_same(
        mt.unpackbits(mt.tensor(_U, chunk_size=chunks), **kwargs), np.unpackbits(_U, **kwargs)
    )


def test_bits_bad_input() -> None:
    with pytest.raises(TypeError, match="integer or boolean"):
        mt.packbits(mt.ones(3))
    with pytest.raises(TypeError, match="unsigned byte"):
        mt.unpackbits(mt.ones(3, dtype=int))
    with pytest.raises(ValueError, match="'little' or 'big'"):
        mt.packbits(mt.ones(3, dtype=bool), bitorder="middle")
    with pytest.raises(ValueError, match="-count larger"):
        mt.unpackbits(mt.ones(2, dtype=np.uint8), count=-17)


@pytest.mark.parametrize("chunks", [1, 2, None])
def test_lexsort_matches_numpy(chunks: object) -> None:
    k1, k2 = np.array([3, 1, 2, 1, 3, 2]), np.array([0, 1, 0, 0, 1, 1])
    assert_same(mt.lexsort([mt.tensor(k1, chunk_size=chunks), k2]), np.lexsort([k1, k2]))
    keys = np.stack([_X % 2, _X % 3])
    t = mt.tensor(keys, chunk_size=chunks)
    assert_same(mt.lexsort(t), np.lexsort(keys))
    assert_same(mt.lexsort(t, axis=0), np.lexsort(keys, axis=0))
    with pytest.raises(np.exceptions.AxisError):
        mt.lexsort(t, axis=2)
