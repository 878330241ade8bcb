"""``block`` against NumPy over three chunkings, and its nesting errors."""

from __future__ import annotations

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings

_A = np.arange(6.0).reshape(2, 3)
_B = np.arange(4).reshape(2, 2)


def test_block_matrix_matches_numpy() -> None:
    c, d = np.ones((1, 3)), np.zeros((1, 2))
    expected = np.block([[_A, _B], [c, d]])
    for chunks in chunkings(_A.shape):
        a, b = mt.tensor(_A, chunk_size=chunks), mt.tensor(_B, chunk_size=chunks)
        assert_same(mt.block([[a, b], [c, d]]), expected)


def test_block_mixed_dimensions_and_scalars_match_numpy() -> None:
    v = np.arange(3)
    for chunks in chunkings((3,)):
        t = mt.tensor(v, chunk_size=chunks)
        assert_same(mt.block([t, 7, v]), np.block([v, 7, v]))
        assert_same(mt.block([[t], [v]]), np.block([[v], [v]]))
        assert_same(mt.block([[[t]], [[v]]]), np.block([[[v]], [[v]]]))
    assert_same(mt.block(5), np.block(5))
    assert_same(mt.block(mt.tensor(_A)), np.block(_A))


def test_block_bad_nesting_raises_numpys_errors() -> None:
    t = mt.tensor(_A)
    with pytest.raises(ValueError, match="List depths are mismatched"):
        mt.block([[t], t])
    with pytest.raises(ValueError, match="cannot be empty"):
        mt.block([])
    with pytest.raises(ValueError, match=r"List at arrays\[1\] cannot be empty"):
        mt.block([[t], []])
    with pytest.raises(TypeError, match="is a tuple"):
        mt.block((t, t))
    with pytest.raises(ValueError, match="all the input array dimensions"):
        mt.block([[t, np.ones((3, 1))]])
