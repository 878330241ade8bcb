"""``transpose``, ``swapaxes``, ``moveaxis`` and ``.T`` against NumPy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.shape.helpers import data, shape_and_chunks, tile_graph

AxisError = np.exceptions.AxisError


@given(st.data())
def test_transpose_matches_numpy_for_random_axes_and_chunks(xp: Any, data_: Any) -> None:
    shape, chunks = data_.draw(shape_and_chunks())
    perm = data_.draw(st.permutations(range(len(shape))))
    a = data(shape)
    x = on(xp, mt.tensor(a, chunk_size=chunks))
    assert_same(mt.transpose(x, perm), np.transpose(a, perm))
    assert_same(x.T, a.T)


def test_transpose_is_one_task_per_chunk_on_the_transposed_grid() -> None:
    x = mt.tensor(data((5, 4, 3)), chunk_size=(2, 3, 3))
    out, ctx, tiled = tile_graph(mt.transpose(x, (2, 0, 1)))
    assert out.nsplits == ((3,), (2, 2, 1), (3, 1))
    source = tiled[x.key]
    assert len(ctx.graph) == 2 * source.keys.size


def test_transpose_method_forms() -> None:
    a = data((2, 3, 4))
    x = mt.tensor(a, chunk_size=2)
    assert_same(x.transpose(), a.transpose())
    assert_same(x.transpose(1, 0, 2), a.transpose(1, 0, 2))
    assert_same(x.transpose((2, 0, 1)), a.transpose((2, 0, 1)))
    assert_same(x.transpose([-1, 0, 1]), a.transpose([-1, 0, 1]))
    assert_same(np.transpose(x), a.T)


def test_transpose_bad_axes() -> None:
    x = mt.tensor(data((2, 3)))
    with pytest.raises(ValueError, match="axes don't match array"):
        x.transpose(0)
    with pytest.raises(ValueError, match="repeated axis in transpose"):
        x.transpose(0, 0)
    with pytest.raises(AxisError, match="axis 2 is out of bounds"):
        x.transpose(0, 2)


def test_swapaxes_and_moveaxis_match_numpy() -> None:
    a = data((2, 3, 4))
    for chunks in chunkings(a.shape):
        x = mt.tensor(a, chunk_size=chunks)
        assert_same(mt.swapaxes(x, 0, 2), np.swapaxes(a, 0, 2))
        assert_same(x.swapaxes(-1, 1), a.swapaxes(-1, 1))
        assert_same(mt.moveaxis(x, 0, -1), np.moveaxis(a, 0, -1))
        assert_same(mt.moveaxis(x, (0, 1), (2, 0)), np.moveaxis(a, (0, 1), (2, 0)))


def test_swapaxes_and_moveaxis_bad_axes() -> None:
    x = mt.tensor(data((2, 3)))
    with pytest.raises(AxisError, match="axis2: axis 3 is out of bounds"):
        mt.swapaxes(x, 0, 3)
    with pytest.raises(AxisError, match="source"):
        mt.moveaxis(x, 2, 0)
    with pytest.raises(ValueError, match="same number of elements"):
        mt.moveaxis(x, (0, 1), (0,))
    with pytest.raises(ValueError, match="repeated axis in source"):
        mt.moveaxis(x, (0, 0), (0, 1))
