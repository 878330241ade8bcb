"""``split`` and ``array_split`` against NumPy, and the chunks they reuse."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import chunkings
from tests.tensor.conftest import on
from tests.tensor.shape.helpers import assert_all_same, data, tile_graph

AxisError = np.exceptions.AxisError


@pytest.mark.parametrize(
    "spec", [1, 2, 3, 6, [2, 4], [1, 1, 5], [-2], [3, 10], [4, 2], np.array([2, 3])]
)
@pytest.mark.parametrize("axis", [0, 1])
def test_array_split_matches_numpy(spec: Any, axis: int, xp: Any) -> None:
    a = data((6, 6))
    for chunks in chunkings(a.shape):
        x = on(xp, mt.tensor(a, chunk_size=chunks))
        assert_all_same(mt.array_split(x, spec, axis=axis), np.array_split(a, spec, axis=axis))


@pytest.mark.parametrize("spec", [4, 5, 7])
def test_array_split_unequal_sections_match_numpy(spec: int) -> None:
    a = data((6, 2))
    for chunks in chunkings(a.shape):
        x = mt.tensor(a, chunk_size=chunks)
        assert_all_same(mt.array_split(x, spec), np.array_split(a, spec))


def test_split_matches_numpy() -> None:
    a = data((4, 6))
    for chunks in chunkings(a.shape):
        x = mt.tensor(a, chunk_size=chunks)
        assert_all_same(mt.split(x, 3, axis=1), np.split(a, 3, axis=1))
        assert_all_same(mt.split(x, [1, 3]), np.split(a, [1, 3]))
        assert_all_same(mt.split(x, 1, axis=-1), np.split(a, 1, axis=-1))


def test_split_reuses_inner_chunks_and_slices_the_ends() -> None:
    x = mt.tensor(data((10,)), chunk_size=3)
    part = mt.array_split(x, [2, 9])[1]
    out, ctx, tiled = tile_graph(part)
    assert out.nsplits == ((1, 3, 3),)
    assert set(out.flat_keys()) - set(tiled[x.key].flat_keys()) == {out.flat_keys()[0]}


def test_split_bad_inputs() -> None:
    x = mt.tensor(data((4, 6)))
    with pytest.raises(ValueError, match="array split does not result in an equal division"):
        mt.split(x, 4, axis=1)
    with pytest.raises(ValueError, match="number sections must be larger than 0"):
        mt.array_split(x, 0)
    with pytest.raises(AxisError, match="axis 2 is out of bounds"):
        mt.split(x, 2, axis=2)
    with pytest.raises(TypeError, match="indices_or_sections"):
        mt.split(x, 2.5)
