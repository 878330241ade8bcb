"""``nonzero``, ``argwhere`` and ``flatnonzero`` (``indexing.nonzero``) against NumPy."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.indexing.helpers import data, tensor


@pytest.mark.parametrize("shape", [(7,), (4, 5), (3, 4, 2), (0, 3)])
def test_nonzero_argwhere_flatnonzero_give_global_indices(shape: tuple[int, ...], xp: Any) -> None:
    a = (data(shape) > 60) * data(shape)
    for chunks in chunkings(shape):
        x = on(xp, tensor(a, chunk_size=chunks))
        result = mt.nonzero(x)
        expected = np.nonzero(a)
        assert isinstance(result, tuple)
        assert len(result) == len(expected)
        for r, e in zip(result, expected):
            assert math.isnan(r.shape[0])
            assert_same(r, e)
        for r, e in zip(x.nonzero(), expected):
            assert_same(r, e)
        assert mt.argwhere(x).shape[1] == len(shape)
        assert_same(mt.argwhere(x), np.argwhere(a))
        assert_same(mt.flatnonzero(x), np.flatnonzero(a))


@given(st.lists(st.integers(1, 6), min_size=1, max_size=3), st.data())
def test_random_argwhere_matches_numpy(shape: list[int], d: st.DataObject) -> None:
    chunks = tuple(d.draw(st.integers(1, n)) for n in shape)
    a = data(tuple(shape)) > 50
    x = tensor(a, chunk_size=chunks)
    assert_same(mt.argwhere(x), np.argwhere(a))
    assert_same(mt.flatnonzero(x), np.flatnonzero(a))


def test_nonzero_family_on_0d_tensors() -> None:
    for value in (0.0, 2.0):
        a = np.array(value)
        assert_same(mt.argwhere(tensor(a)), np.argwhere(a))
        assert_same(mt.flatnonzero(tensor(a)), np.flatnonzero(a))
    with pytest.raises(ValueError, match="Calling nonzero on 0d arrays is not allowed"):
        mt.nonzero(tensor(1.0))
