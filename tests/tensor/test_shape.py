"""Shape manipulation against NumPy: values, shapes, dtypes, chunk layouts and errors."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from jupyter_mars.config import option_context
from jupyter_mars.engine.chunks import normalize_chunk_size
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import TILE_RULES, Op, TileContext, Tiled, key_grid, tile_rule, walk
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.shape import plan_reshape
from tests.conftest import assert_same, chunkings

AxisError = np.exceptions.AxisError
_calls = iter(range(1 << 30))


def data(shape: tuple[int, ...], dtype: Any = np.float64, seed: int | None = None) -> np.ndarray:
    """Random values in [0, 10); the same for the same ``seed`` (fresh values if None)."""
    rng = np.random.default_rng(next(_calls) if seed is None else seed)
    return (rng.random(shape) * 10).astype(dtype)


def assert_all_same(parts: list[Any], expected: list[np.ndarray]) -> None:
    assert isinstance(parts, list)
    assert len(parts) == len(expected)
    for got, want in zip(parts, expected):
        assert_same(got, want)


def tile_graph(t: Tensor) -> tuple[Tiled, TileContext, dict[str, Tiled]]:
    """Tile ``t`` (known shapes only) and return its chunks, the tasks and every node's tiles."""
    ctx = TileContext()
    tiled: dict[str, Tiled] = {}
    for node in walk([t.node], stop=lambda n: False):
        rule = TILE_RULES[type(node.op)]
        tiled[node.key] = rule(node, [tiled[i.key] for i in node.inputs], ctx)
    return tiled[t.node.key], ctx, tiled


# ---- a data-dependent operator, to get chunks of unknown (nan) length ------------------------


@dataclass(frozen=True, eq=False)
class RowsAbove(Op):
    threshold: float


def _rows_above(block: Any, threshold: float) -> Any:
    first = block[(slice(None),) + (0,) * (block.ndim - 1)]
    return block[first > threshold]


@tile_rule(RowsAbove)
def _tile_rows_above(node: Any, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    (x,) = inputs
    assert all(n == 1 for n in x.numblocks[1:]), "rows must be whole chunks"
    grid: Any = key_grid(node.key, x.numblocks)
    keys: Any = x.keys
    for index in np.ndindex(*grid.shape):
        ctx.add_blockwise(
            grid[index], _rows_above, (Ref(keys[index]),), {"threshold": node.op.threshold}
        )
    return Tiled(((math.nan,) * x.numblocks[0], *x.nsplits[1:]), grid)


def rows_above(x: Tensor, threshold: float) -> Tensor:
    """Rows whose first element exceeds ``threshold``: a nan length along axis 0."""
    return new_tensor(RowsAbove(threshold), [x], (math.nan, *x.shape[1:]), x.dtype)


def np_rows_above(a: np.ndarray, threshold: float) -> np.ndarray:
    out: np.ndarray = _rows_above(a, threshold)
    return out


# ---- strategies -------------------------------------------------------------------------------


def axis_chunks(n: int) -> st.SearchStrategy[Any]:
    """An int chunk size or explicit lengths for an axis of length ``n``."""
    if n <= 1:
        return st.just(max(n, 1))

    @st.composite
    def lengths(draw: Any) -> tuple[int, ...]:
        cuts = sorted(draw(st.sets(st.integers(1, n - 1), max_size=n - 1)))
        bounds = [0, *cuts, n]
        return tuple(b - a for a, b in zip(bounds[:-1], bounds[1:]))

    return st.one_of(st.integers(1, n), lengths())


shapes = st.lists(st.integers(0, 5), min_size=0, max_size=4).map(tuple)
nonempty_shapes = st.lists(st.integers(1, 5), min_size=1, max_size=4).map(tuple)


@st.composite
def shape_and_chunks(draw: Any, shape_strategy: Any = shapes) -> tuple[tuple[int, ...], Any]:
    shape = draw(shape_strategy)
    return shape, tuple(draw(axis_chunks(n)) for n in shape)


def prime_factors(n: int) -> list[int]:
    out, p = [], 2
    while n > 1:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1
    return out


@st.composite
def reshape_targets(draw: Any, size: int) -> tuple[int, ...]:
    ndim = draw(st.integers(1, 4))
    if size == 0:
        out = [draw(st.integers(0, 4)) for _ in range(ndim)]
        out[draw(st.integers(0, ndim - 1))] = 0
        return tuple(out)
    out = [1] * ndim
    for f in prime_factors(size):
        out[draw(st.integers(0, ndim - 1))] *= f
    if draw(st.booleans()):
        out[draw(st.integers(0, ndim - 1))] = -1
    return tuple(out)


# ---- reshape -----------------------------------------------------------------------------------


@given(st.data())
def test_reshape_matches_numpy_for_random_shapes_and_chunks(data_: Any) -> None:
    shape, chunks = data_.draw(shape_and_chunks())
    target = data_.draw(reshape_targets(math.prod(shape)))
    a = data(shape)
    assert_same(mt.tensor(a, chunk_size=chunks).reshape(target), a.reshape(target))


@pytest.mark.parametrize("target", [(6, 4), (24,), (2, 3, 4), (4, 3, 2), (1, 24, 1), (-1, 8)])
def test_reshape_over_chunkings(target: tuple[int, ...]) -> None:
    a = data((4, 6), np.int32)
    for chunks in chunkings(a.shape):
        assert_same(mt.reshape(mt.tensor(a, chunk_size=chunks), target), a.reshape(target))


def test_reshape_method_accepts_varargs_tuple_and_minus_one() -> None:
    a = data((2, 3, 4))
    x = mt.tensor(a, chunk_size=2)
    assert_same(x.reshape(6, 4), a.reshape(6, 4))
    assert_same(x.reshape((4, -1)), a.reshape((4, -1)))
    assert_same(x.reshape([-1]), a.reshape(-1))
    assert x.reshape(3, -1).shape == (3, 8)


def test_reshape_of_scalar_and_empty_tensors() -> None:
    assert_same(mt.tensor(3.0).reshape(1, 1), np.array(3.0).reshape(1, 1))
    assert_same(mt.tensor(np.ones((1, 1))).reshape(()), np.ones((1, 1)).reshape(()))
    e = np.zeros((0, 3))
    assert_same(mt.tensor(e, chunk_size=2).reshape(3, 0, 5), e.reshape(3, 0, 5))
    assert_same(mt.tensor(e, chunk_size=2).reshape(-1, 5), e.reshape(-1, 5))


def test_compatible_reshape_runs_per_chunk_without_rechunk() -> None:
    # merging (4, 6) with the inner axis whole: one task per chunk, no data moved
    x = mt.tensor(data((4, 6)), chunk_size=(1, 6)).reshape(24)
    out, ctx, _ = tile_graph(x)
    assert out.nsplits == ((6, 6, 6, 6),)
    assert not [k for k in ctx.graph if "-in" in str(k)]
    # splitting (12,) in runs of whole rows
    assert plan_reshape(((4, 8),), (3, 4)) == (((4, 8),), ((1, 2), (4,)), [(0, 0)])


def test_incompatible_reshape_rechunks_to_whole_rows_with_similar_chunk_volume() -> None:
    in_nsplits, out_nsplits, _ = plan_reshape(((10,) * 10, (10,) * 10), (100 * 100,))
    assert in_nsplits == ((1,) * 100, (100,))
    assert out_nsplits == ((100,) * 100,)
    # splitting (12,) chunked by 2 into rows of 4: chunks must hold whole rows
    assert plan_reshape(((2,) * 6,), (3, 4))[0] == ((4, 4, 4),)


def test_reshape_squeeze_like_change_needs_no_rechunk() -> None:
    a = data((3, 1, 4))
    x = mt.tensor(a, chunk_size=(2, 1, 3)).reshape(3, 4, 1)
    out, _, _ = tile_graph(x)
    assert out.nsplits == ((2, 1), (3, 1), (1,))
    assert_same(x, a.reshape(3, 4, 1))


def test_ravel_and_flatten_match_numpy() -> None:
    a = data((3, 4, 2))
    for chunks in chunkings(a.shape):
        x = mt.tensor(a, chunk_size=chunks)
        assert_same(mt.ravel(x), a.ravel())
        assert_same(x.ravel(), a.ravel())
        assert_same(x.flatten(), a.flatten())
    assert_same(mt.ravel([[1, 2], [3, 4]]), np.ravel([[1, 2], [3, 4]]))


def test_reshape_incompatible_size_is_a_value_error() -> None:
    x = mt.tensor(data((2, 3)))
    with pytest.raises(ValueError, match=r"cannot reshape array of size 6 into shape \(4, 2\)"):
        x.reshape(4, 2)
    with pytest.raises(ValueError, match="cannot reshape array of size 6 into shape"):
        x.reshape(4, -1)
    with pytest.raises(ValueError, match="can only specify one unknown dimension"):
        x.reshape(-1, -1)
    with pytest.raises(TypeError, match="shape must be an int"):
        x.reshape(2.0, 3)


def test_order_f_is_not_implemented_and_names_order() -> None:
    x = mt.tensor(data((2, 3)))
    with pytest.raises(NotImplementedError, match="order"):
        mt.reshape(x, (3, 2), order="F")
    with pytest.raises(NotImplementedError, match="order"):
        x.reshape(3, 2, order="F")
    with pytest.raises(NotImplementedError, match="order"):
        mt.ravel(x, order="F")
    with pytest.raises(ValueError, match="order must be one of"):
        mt.reshape(x, (3, 2), order="X")
    assert_same(mt.reshape(x, (3, 2), order="A"), x.to_numpy().reshape(3, 2))


# ---- squeeze / expand_dims / broadcast_to -------------------------------------------------------


def test_squeeze_matches_numpy() -> None:
    a = data((1, 3, 1, 4))
    for chunks in chunkings(a.shape):
        x = mt.tensor(a, chunk_size=chunks)
        assert_same(mt.squeeze(x), np.squeeze(a))
        assert_same(mt.squeeze(x, axis=2), np.squeeze(a, axis=2))
        assert_same(x.squeeze((0, -2)), np.squeeze(a, axis=(0, -2)))
    assert_same(mt.squeeze(mt.tensor(np.ones((1, 1)))), np.squeeze(np.ones((1, 1))))


def test_squeeze_bad_axis() -> None:
    x = mt.tensor(data((1, 3)))
    with pytest.raises(ValueError, match="cannot select an axis to squeeze out"):
        mt.squeeze(x, 1)
    with pytest.raises(AxisError, match="axis 2 is out of bounds"):
        mt.squeeze(x, 2)


def test_expand_dims_matches_numpy() -> None:
    a = data((3, 4))
    for chunks in chunkings(a.shape):
        x = mt.tensor(a, chunk_size=chunks)
        for axis in (0, 1, 2, -1, (0, 3), (1, -1), (0, 1, 2)):
            assert_same(mt.expand_dims(x, axis), np.expand_dims(a, axis))


def test_expand_dims_bad_axis() -> None:
    x = mt.tensor(data((3, 4)))
    with pytest.raises(AxisError, match="axis 5 is out of bounds for array of dimension 3"):
        mt.expand_dims(x, 5)
    with pytest.raises(ValueError, match="repeated axis"):
        mt.expand_dims(x, (0, 0))


@pytest.mark.parametrize(
    ("shape", "target"),
    [((3,), (4, 3)), ((1, 3), (5, 3)), ((4, 1), (2, 4, 6)), ((), (2, 2)), ((2, 3), (2, 3))],
)
def test_broadcast_to_matches_numpy(shape: tuple[int, ...], target: tuple[int, ...]) -> None:
    a = data(shape)
    for chunks in chunkings(shape):
        assert_same(
            mt.broadcast_to(mt.tensor(a, chunk_size=chunks), target), np.broadcast_to(a, target)
        )


def test_broadcast_to_cuts_new_axes_within_the_chunk_budget() -> None:
    a = data((4,))
    with option_context({"chunk_store_limit": 64}):
        x = mt.broadcast_to(mt.tensor(a, chunk_size=4), (10, 4))
    out, _, _ = tile_graph(x)
    assert all(n * 4 * 8 <= 64 for n in out.nsplits[0])
    assert_same(x, np.broadcast_to(a, (10, 4)))


def test_broadcast_to_bad_shapes() -> None:
    x = mt.tensor(data((2, 3)))
    with pytest.raises(ValueError, match=r"cannot broadcast a tensor of shape \(2, 3\)"):
        mt.broadcast_to(x, (3, 3))
    with pytest.raises(ValueError, match="more dimensions"):
        mt.broadcast_to(x, (3,))
    with pytest.raises(ValueError, match="non-negative"):
        mt.broadcast_to(x, (-1, 2, 3))


# ---- transpose / swapaxes / moveaxis ----------------------------------------------------------


@given(st.data())
def test_transpose_matches_numpy_for_random_axes_and_chunks(data_: Any) -> None:
    shape, chunks = data_.draw(shape_and_chunks())
    perm = data_.draw(st.permutations(range(len(shape))))
    a = data(shape)
    x = mt.tensor(a, chunk_size=chunks)
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


# ---- concatenate and stacking -----------------------------------------------------------------

dtypes = st.sampled_from([np.int32, np.int64, np.float32, np.float64, np.bool_])


@given(st.data())
def test_concatenate_matches_numpy_for_random_inputs(data_: Any) -> None:
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
        tensors.append(mt.tensor(a, chunk_size=chunks))
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


# ---- split -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec", [1, 2, 3, 6, [2, 4], [1, 1, 5], [-2], [3, 10], [4, 2], np.array([2, 3])]
)
@pytest.mark.parametrize("axis", [0, 1])
def test_array_split_matches_numpy(spec: Any, axis: int) -> None:
    a = data((6, 6))
    for chunks in chunkings(a.shape):
        x = mt.tensor(a, chunk_size=chunks)
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


# ---- tile / repeat ----------------------------------------------------------------------------


@pytest.mark.parametrize("reps", [2, (2, 1), (1, 3), (2, 2, 2), 0, (3, 0), ()])
def test_tile_matches_numpy(reps: Any) -> None:
    a = data((3, 2))
    for chunks in chunkings(a.shape):
        assert_same(mt.tile(mt.tensor(a, chunk_size=chunks), reps), np.tile(a, reps))
    assert_same(mt.tile(mt.tensor(2.0), reps), np.tile(2.0, reps))


def test_tile_groups_copies_of_a_single_chunk_axis() -> None:
    a = data((3,))
    with option_context({"chunk_store_limit": 8 * 3 * 4}):
        x = mt.tile(mt.tensor(a, chunk_size=3), 10)
    out, _, _ = tile_graph(x)
    assert out.nsplits == ((12, 12, 6),)
    assert_same(x, np.tile(a, 10))


def test_tile_bad_reps() -> None:
    with pytest.raises(ValueError, match="reps"):
        mt.tile(mt.tensor(data((3,))), -1)
    with pytest.raises(TypeError, match="reps"):
        mt.tile(mt.tensor(data((3,))), 1.5)


@pytest.mark.parametrize(
    ("repeats", "axis"), [(2, None), (3, 0), (0, 1), ([1, 0, 2], 0), ([2, 1], 1), ([3], 0)]
)
def test_repeat_matches_numpy(repeats: Any, axis: Any) -> None:
    a = data((3, 2))
    for chunks in chunkings(a.shape):
        x = mt.tensor(a, chunk_size=chunks)
        assert_same(mt.repeat(x, repeats, axis=axis), np.repeat(a, repeats, axis=axis))
        assert_same(x.repeat(repeats, axis), a.repeat(repeats, axis))


def test_repeat_with_axis_none_flattens() -> None:
    a = data((2, 3))
    assert_same(
        mt.repeat(mt.tensor(a, chunk_size=2), [1, 2, 0, 1, 3, 1]), np.repeat(a, [1, 2, 0, 1, 3, 1])
    )


def test_repeat_cuts_large_repeated_chunks() -> None:
    a = data((6,))
    counts = [5, 1, 0, 7, 2, 2]
    with option_context({"chunk_store_limit": 8 * 4}):
        x = mt.repeat(mt.tensor(a, chunk_size=6), 4)
        y = mt.repeat(mt.tensor(a, chunk_size=6), counts)
    assert all(n <= 4 for n in tile_graph(x)[0].nsplits[0])
    assert_same(x, np.repeat(a, 4))
    assert_same(y, np.repeat(a, counts))


def test_repeat_bad_inputs() -> None:
    x = mt.tensor(data((2, 3)))
    with pytest.raises(ValueError, match="negative"):
        mt.repeat(x, -1)
    with pytest.raises(ValueError, match="negative"):
        mt.repeat(x, [1, -1], axis=0)
    with pytest.raises(ValueError, match="repeats has 3 counts but axis 0 has length 2"):
        mt.repeat(x, [1, 2, 3], axis=0)
    with pytest.raises(AxisError):
        mt.repeat(x, 2, axis=2)


# ---- flip / roll -------------------------------------------------------------------------------


def test_flip_fliplr_flipud_match_numpy() -> None:
    a = data((4, 5, 2))
    for chunks in chunkings(a.shape):
        x = mt.tensor(a, chunk_size=chunks)
        assert_same(mt.flip(x), np.flip(a))
        assert_same(mt.flip(x, 1), np.flip(a, 1))
        assert_same(mt.flip(x, (0, -1)), np.flip(a, (0, -1)))
        assert_same(mt.fliplr(x), np.fliplr(a))
        assert_same(mt.flipud(x), np.flipud(a))


def test_flip_bad_inputs() -> None:
    with pytest.raises(ValueError, match="Input must be >= 2-d"):
        mt.fliplr(mt.tensor(data((3,))))
    with pytest.raises(ValueError, match="Input must be >= 1-d"):
        mt.flipud(mt.tensor(1.0))
    with pytest.raises(AxisError):
        mt.flip(mt.tensor(data((3,))), 1)


@pytest.mark.parametrize(
    ("shift", "axis"),
    [
        (2, None),
        (-3, None),
        (1, 0),
        (4, 1),
        (-7, 1),
        ((1, 2), (0, 1)),
        ((1, 2), 1),
        (2, (0, 1)),
        (0, 0),
        (12, 1),
    ],
)
def test_roll_matches_numpy(shift: Any, axis: Any) -> None:
    a = data((4, 6))
    for chunks in chunkings(a.shape):
        x = mt.tensor(a, chunk_size=chunks)
        assert_same(mt.roll(x, shift, axis), np.roll(a, shift, axis))


def test_roll_bad_inputs() -> None:
    x = mt.tensor(data((2, 3)))
    with pytest.raises(ValueError, match="shift"):
        mt.roll(x, (1, 2), axis=(0, 1, 0))
    with pytest.raises(AxisError):
        mt.roll(x, 1, axis=2)
    with pytest.raises(TypeError, match="shift"):
        mt.roll(x, 1.5, axis=0)


# ---- rechunk -----------------------------------------------------------------------------------


@given(st.data())
def test_rechunk_preserves_values_for_any_pair_of_chunkings(data_: Any) -> None:
    shape, first = data_.draw(shape_and_chunks())
    second = tuple(data_.draw(axis_chunks(n)) for n in shape)
    a = data(shape)
    y = mt.tensor(a, chunk_size=first).rechunk(second)
    out, _, _ = tile_graph(y)
    assert out.nsplits == normalize_chunk_size(shape, second, 8)
    assert_same(y, a)


def test_rechunk_accepts_every_chunk_size_form() -> None:
    a = data((5, 4))
    x = mt.tensor(a, chunk_size=2)
    forms = [3, -1, (2, None), ((1, 4), -1), {0: 5}, {1: 1, 0: (2, 3)}, None]
    for form in forms:
        y = mt.rechunk(x, form)
        out, _, _ = tile_graph(y)
        assert out.nsplits == normalize_chunk_size((5, 4), form, 8)
        assert_same(y, a)


def test_rechunk_bad_chunk_size_names_chunk_size() -> None:
    x = mt.tensor(data((5, 4)))
    with pytest.raises(ValueError, match="chunk_size"):
        x.rechunk(0)
    with pytest.raises(ValueError, match="chunk_size"):
        x.rechunk((2, 2, 2))
    with pytest.raises(ValueError, match=r"chunk_size\[0\]"):
        x.rechunk(((2, 2), 4))
    with pytest.raises(TypeError, match="chunk_size"):
        x.rechunk(1.5)


# ---- unknown (data-dependent) lengths ----------------------------------------------------------


@pytest.fixture
def masked() -> tuple[Tensor, np.ndarray]:
    a = data((10, 2))
    return rows_above(mt.tensor(a, chunk_size=(3, 2)), 5.0), np_rows_above(a, 5.0)


def test_reshape_of_unknown_lengths_uses_iterative_tiling(masked: Any) -> None:
    x, e = masked
    assert math.isnan(x.shape[0])
    y = x.reshape(-1)
    assert math.isnan(y.shape[0])
    assert_same(y, e.reshape(-1))
    assert y.shape == (e.size,)
    assert_same(x.reshape(1, -1, 1), e.reshape(1, -1, 1))
    assert_same(mt.ravel(x), e.ravel())


def test_reshape_of_unknown_lengths_checks_the_size_at_execution(masked: Any) -> None:
    x, e = masked
    y = x.reshape(e.size + 1)
    with pytest.raises(ValueError, match="cannot reshape array of size"):
        y.execute()


def test_shape_functions_on_unknown_lengths(masked: Any) -> None:
    x, e = masked
    assert_same(mt.roll(x, 3, 0), np.roll(e, 3, 0))
    assert_same(mt.roll(x, 1), np.roll(e, 1))
    assert_all_same(mt.array_split(x, 3), np.array_split(e, 3))
    assert_all_same(mt.split(x, [1, 2]), np.split(e, [1, 2]))
    assert_same(x.rechunk(2), e)
    assert_same(x.T, e.T)
    assert_same(mt.flip(x, 0), np.flip(e, 0))
    assert_same(mt.expand_dims(x, 1), np.expand_dims(e, 1))
    assert_same(mt.concatenate([x, x]), np.concatenate([e, e]))
    assert_same(mt.concatenate([x, x], axis=1), np.concatenate([e, e], axis=1))
    assert_same(mt.tile(x, (2, 1)), np.tile(e, (2, 1)))
    assert_same(mt.repeat(x, 2, axis=0), np.repeat(e, 2, axis=0))
    assert_same(mt.squeeze(mt.split(x, [1], axis=1)[0], 1), e[:, 0])


def test_concatenate_of_different_unknown_lengths_is_checked_at_execution() -> None:
    a = data((8, 2))
    x = rows_above(mt.tensor(a, chunk_size=3), 5.0)
    y = rows_above(mt.tensor(a, chunk_size=3), 2.0)
    with pytest.raises(ValueError, match="along dimension 0"):
        mt.concatenate([x, y], axis=1).execute()
    z = mt.concatenate([x, y])
    assert_same(z, np.concatenate([np_rows_above(a, 5.0), np_rows_above(a, 2.0)]))


def test_split_into_unequal_unknown_sections_fails_at_execution() -> None:
    a = np.arange(10.0)
    x = rows_above(mt.tensor(a, chunk_size=3), 2.5)  # 7 elements
    with pytest.raises(ValueError, match="equal division"):
        mt.split(x, 2)[0].execute()


@pytest.mark.parametrize("threshold", [9.0, 100.0])
def test_reshape_of_unknown_lengths_with_empty_chunks(threshold: float) -> None:
    a = data((10, 2))
    x = rows_above(mt.tensor(a, chunk_size=(2, 2)), threshold)
    e = np_rows_above(a, threshold)
    assert_same(x.reshape(-1), e.reshape(-1))
    assert_same(x.reshape(-1, 1, 2), e.reshape(-1, 1, 2))
    assert_same(mt.transpose(x).reshape(-1), e.T.reshape(-1))


def test_squeeze_of_an_unknown_length_axis_in_several_chunks() -> None:
    a = np.arange(10.0).reshape(10, 1)
    x = rows_above(mt.tensor(a, chunk_size=(3, 1)), 8.5)  # one row left, four chunks
    assert_same(mt.squeeze(x, 0), np.squeeze(np_rows_above(a, 8.5), 0))
    y = rows_above(mt.tensor(a, chunk_size=(3, 1)), 5.5)  # four rows
    with pytest.raises(ValueError, match="cannot select an axis to squeeze out"):
        mt.squeeze(y, 0).execute()


def test_numpy_functions_dispatch_to_tensors() -> None:
    a = data((2, 3))
    x = mt.tensor(a, chunk_size=2)
    for got, want in [
        (np.reshape(x, (3, 2)), np.reshape(a, (3, 2))),
        (np.concatenate([x, x]), np.concatenate([a, a])),
        (np.moveaxis(x, 0, 1), np.moveaxis(a, 0, 1)),  # type: ignore[type-var]
        (np.roll(x, 1), np.roll(a, 1)),
    ]:
        assert isinstance(got, Tensor)
        assert_same(got, want)


def test_results_are_new_handles_even_when_nothing_changes() -> None:
    x = mt.tensor(data((2, 3)))
    for y in (x.reshape(2, 3), mt.transpose(x, (0, 1)), mt.squeeze(x), mt.roll(x, 0, 0)):
        assert y is not x
        assert y.key == x.key


@given(st.data())
def test_roll_split_flip_repeat_match_numpy_for_random_inputs(data_: Any) -> None:
    shape, chunks = data_.draw(shape_and_chunks(nonempty_shapes))
    axis = data_.draw(st.integers(0, len(shape) - 1))
    a = data(shape)
    x = mt.tensor(a, chunk_size=chunks)
    shift = data_.draw(st.integers(-12, 12))
    assert_same(mt.roll(x, shift, axis), np.roll(a, shift, axis))
    assert_same(mt.roll(x, shift), np.roll(a, shift))
    sections = data_.draw(st.integers(1, 6))
    assert_all_same(mt.array_split(x, sections, axis), np.array_split(a, sections, axis))
    indices = data_.draw(st.lists(st.integers(-6, 8), max_size=3))
    assert_all_same(mt.array_split(x, indices, axis), np.array_split(a, indices, axis))
    assert_same(mt.flip(x, axis), np.flip(a, axis))
    counts = data_.draw(st.lists(st.integers(0, 3), min_size=shape[axis], max_size=shape[axis]))
    assert_same(mt.repeat(x, counts, axis), np.repeat(a, counts, axis))


@given(st.data())
def test_reshape_of_random_unknown_lengths(data_: Any) -> None:
    rows = data_.draw(st.integers(1, 8))
    cols = data_.draw(st.integers(1, 4))
    a = data((rows, cols), seed=data_.draw(st.integers(0, 1000)))
    threshold = data_.draw(st.floats(0, 10))
    x = rows_above(mt.tensor(a, chunk_size=(data_.draw(axis_chunks(rows)), cols)), threshold)
    e = np_rows_above(a, threshold)
    target = data_.draw(reshape_targets(e.size))
    if e.size and -1 not in target:
        target = (-1, *target)
    elif not e.size:
        target = (0, cols)
    assert_same(x.reshape(target), e.reshape(target))


@pytest.mark.skipif(
    not hasattr(Tensor, "__getitem__"),
    reason="boolean-mask indexing (tensor/indexing.py) is not available yet; the RowsAbove "
    "operator above covers unknown lengths meanwhile",
)
def test_reshape_after_a_boolean_mask() -> None:
    a = data((6, 4))
    x: Any = mt.tensor(a, chunk_size=(4, 3))
    expected = a[a > 5.0]
    assert_same(x[x > 5.0].reshape(-1, 1), expected.reshape(-1, 1))
    assert_same(mt.roll(x[x > 5.0], 2), np.roll(expected, 2))
