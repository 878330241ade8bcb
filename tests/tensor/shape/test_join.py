"""``concatenate``, the ``stack`` family and ``atleast_nd`` against NumPy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.shape.helpers import axis_chunks, data, tile_graph

AxisError = np.exceptions.AxisError

dtypes = st.sampled_from([np.int32, np.int64, np.float32, np.float64, np.bool_])


@given(st.data())
def test_concatenate_matches_numpy_for_random_inputs(xp: Any, data_: Any) -> None:
    base = data_.draw(st.lists(st.integers(0, 4), min_size=1, max_size=3).map(tuple))
    axis = data_.draw(st.integers(-len(base), len(base) - 1))
    count = data_.draw(st.integers(1, 3))
    arrays, tensors = [], []
    for _ in range(count):
        shape = list(base)
        shape[axis] = data_.draw(st.integers(0, 4))
        a = data(tuple(shape), data_.draw(dtypes))
        chunks = tuple(data_.draw(axis_chunks(n)) for n in shape)
        arrays.append(a)
        tensors.append(on(xp, mt.tensor(a, chunk_size=chunks)))
    assert_same(mt.concatenate(tensors, axis=axis), np.concatenate(arrays, axis=axis))
    assert_same(mt.concatenate(tensors, axis=None), np.concatenate(arrays, axis=None))


def test_concatenate_reuses_input_chunks_without_copy() -> None:
    x = mt.tensor(data((4, 3)), chunk_size=2)
    y = mt.tensor(data((2, 3)), chunk_size=2)
    out, ctx, tiled = tile_graph(mt.concatenate([x, y]))
    inputs = set(tiled[x.key].flat_keys()) | set(tiled[y.key].flat_keys())
    assert set(out.flat_keys()) == inputs
    assert out.nsplits == ((2, 2, 2), (2, 1))


def test_concatenate_rechunks_other_axes_to_common_boundaries() -> None:
    a, b = data((2, 5)), data((3, 5))
    x = mt.tensor(a, chunk_size=(2, 3))
    y = mt.tensor(b, chunk_size=(3, 2))
    out, _, _ = tile_graph(mt.concatenate([x, y]))
    assert out.nsplits == ((2, 3), (2, 1, 1, 1))
    assert_same(mt.concatenate([x, y]), np.concatenate([a, b]))


def test_concatenate_dtype_and_casting() -> None:
    a, b = data((3,), np.int32), data((2,), np.float32)
    x, y = mt.tensor(a), mt.tensor(b)
    assert_same(mt.concatenate([x, y]), np.concatenate([a, b]))
    assert_same(mt.concatenate([x, y], dtype=np.float64), np.concatenate([a, b], dtype=np.float64))
    with pytest.raises(TypeError, match="Cannot cast"):
        mt.concatenate([x, y], dtype=np.int64)
    assert_same(
        mt.concatenate([x, y], dtype=np.int64, casting="unsafe"),
        np.concatenate([a, b], dtype=np.int64, casting="unsafe"),
    )
    assert_same(mt.concatenate([[1, 2], np.array([3.5])]), np.concatenate([[1, 2], [3.5]]))


def test_concatenate_of_one_tensor_splits_it_along_axis_0() -> None:
    a = data((3, 2, 2))
    assert_same(mt.concatenate(mt.tensor(a, chunk_size=2)), np.concatenate(a))


def test_concatenate_chunks_already_executed() -> None:
    a = data((3, 2))
    x = mt.tensor(a, chunk_size=2).execute()
    assert_same(mt.concatenate([x, x, x], axis=1), np.concatenate([a, a, a], axis=1))


def test_concatenate_bad_inputs() -> None:
    x = mt.tensor(data((2, 3)))
    with pytest.raises(ValueError, match="along dimension 1, the array at index 0 has size 3 and"):
        mt.concatenate([x, mt.tensor(data((2, 4)))])
    with pytest.raises(ValueError, match="same number of dimensions"):
        mt.concatenate([x, mt.tensor(data((2,)))])
    with pytest.raises(ValueError, match="zero-dimensional arrays cannot be concatenated"):
        mt.concatenate([mt.tensor(1.0), mt.tensor(2.0)])
    with pytest.raises(ValueError, match="need at least one array to concatenate"):
        mt.concatenate([])
    with pytest.raises(AxisError, match="axis 2 is out of bounds"):
        mt.concatenate([x, x], axis=2)
    with pytest.raises(TypeError, match="out"):
        mt.concatenate([x, x], out=np.empty((4, 3)))
    with pytest.raises(TypeError, match="sequence"):
        mt.concatenate(3)


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_stack_matches_numpy(axis: int) -> None:
    a, b = data((3, 4)), data((3, 4), np.int32)
    for chunks in chunkings(a.shape):
        x, y = mt.tensor(a, chunk_size=chunks), mt.tensor(b, chunk_size=chunks)
        assert_same(mt.stack([x, y], axis=axis), np.stack([a, b], axis=axis))


def test_stack_bad_inputs() -> None:
    x = mt.tensor(data((2, 3)))
    with pytest.raises(ValueError, match="all input arrays must have the same shape"):
        mt.stack([x, mt.tensor(data((2, 4)))])
    with pytest.raises(ValueError, match="need at least one array to stack"):
        mt.stack([])
    with pytest.raises(AxisError):
        mt.stack([x, x], axis=3)


@pytest.mark.parametrize("shape", [(), (3,), (3, 2), (3, 2, 2)])
def test_hstack_vstack_dstack_column_stack_match_numpy(shape: tuple[int, ...]) -> None:
    a, b = data(shape), data(shape, np.int64)
    for chunks in chunkings(shape):
        x, y = mt.tensor(a, chunk_size=chunks), mt.tensor(b, chunk_size=chunks)
        assert_same(mt.hstack([x, y]), np.hstack([a, b]))
        assert_same(mt.vstack((x, y)), np.vstack((a, b)))
        assert_same(mt.dstack([x, y]), np.dstack([a, b]))
        if len(shape) <= 2:
            assert_same(mt.column_stack([x, y]), np.column_stack([a, b]))


def test_stacking_functions_need_a_sequence() -> None:
    with pytest.raises(TypeError, match="sequence"):
        mt.vstack(3)
    with pytest.raises(ValueError, match="along dimension 0"):
        mt.column_stack([mt.tensor(data((3,))), mt.tensor(data((4,)))])


def test_vstack_of_a_tensor_stacks_its_rows() -> None:
    a = data((3, 2))
    assert_same(mt.vstack(mt.tensor(a, chunk_size=2)), np.vstack(list(a)))


@pytest.mark.parametrize("shape", [(), (3,), (3, 2), (2, 3, 2)])
def test_atleast_nd_match_numpy(shape: tuple[int, ...]) -> None:
    a = data(shape)
    x = mt.tensor(a, chunk_size=2)
    assert_same(mt.atleast_1d(x), np.atleast_1d(a))
    assert_same(mt.atleast_2d(x), np.atleast_2d(a))
    assert_same(mt.atleast_3d(x), np.atleast_3d(a))
    many = mt.atleast_2d(x, 1.0)
    assert isinstance(many, tuple)
    assert len(many) == 2
    assert_same(many[1], np.atleast_2d(1.0))
