"""Indexing against NumPy: ``x[index]``, ``x[index] = value``, ``take``, ``compress``,
``nonzero``, ``argwhere``, ``flatnonzero``, ``extract``."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from jupyter_mars.engine.node import TILE_RULES, TileContext, Tiled, walk
from jupyter_mars.tensor.indexing import slice_plan
from tests.conftest import assert_same, chunkings

RNG = np.random.default_rng(20240531)


def tensor(a: Any, chunk_size: Any = None) -> Any:
    """``mt.tensor``, typed loosely: comparison operators are attached to Tensor at import."""
    return mt.tensor(a, chunk_size=chunk_size)


def data(shape: tuple[int, ...], dtype: Any = float) -> np.ndarray[Any, Any]:
    return np.asarray(RNG.random(shape) * 100).astype(dtype)


def tile(t: mt.Tensor) -> tuple[Tiled, TileContext]:
    """Tile ``t`` and its inputs (all sizes known) without running anything."""
    ctx = TileContext()
    tiled: dict[str, Tiled] = {}
    for node in walk([t.node], stop=lambda n: False):
        rule = TILE_RULES[type(node.op)]
        tiled[node.key] = rule(node, [tiled[i.key] for i in node.inputs], ctx)
    return tiled[t.node.key], ctx


def own_tasks(t: mt.Tensor, ctx: TileContext) -> list[Any]:
    return [k for k in ctx.graph if isinstance(k, tuple) and k[0] == t.key]


def index_np(index: Any) -> Any:
    """The same index with tensors replaced by their NumPy values."""
    if isinstance(index, tuple):
        return tuple(index_np(i) for i in index)
    if isinstance(index, mt.Tensor):
        return index.execute().fetch()
    return index


# ---- basic indexing ---------------------------------------------------------------------------

BASIC_INDICES = [
    (),
    1,
    -1,
    (slice(None), 2),
    (slice(1, None, 2), slice(None, None, -1)),
    (slice(-2, -10, -3), 0),
    (slice(100, -100, -1),),
    (slice(-100, 100),),
    (slice(5, 2),),
    (None, Ellipsis, None),
    (Ellipsis, 1),
    (1, None, slice(None, None, 2)),
    (np.int64(2), -3),
]


@pytest.mark.parametrize("index", BASIC_INDICES, ids=repr)
def test_basic_index_matches_numpy_over_chunkings(index: Any) -> None:
    a = data((5, 6))
    for chunks in chunkings(a.shape):
        assert_same(tensor(a, chunk_size=chunks)[index], a[index])


def test_basic_index_of_0d_and_empty_tensors() -> None:
    a = np.array(3.5)
    x = tensor(a)
    indices: list[Any] = [(), Ellipsis, None, (None, None)]
    for index in indices:
        assert_same(x[index], a[index])
    e = data((0, 3))
    for index in [(slice(None), 1), (slice(None, None, -1),), (None, Ellipsis)]:
        assert_same(tensor(e, chunk_size=2)[index], e[index])


@st.composite
def basic_cases(draw: st.DrawFn) -> tuple[np.ndarray[Any, Any], Any, tuple[Any, ...]]:
    shape = tuple(draw(st.lists(st.integers(0, 6), max_size=3)))
    chunks = tuple(draw(st.integers(1, max(n, 1))) for n in shape)
    entries: list[Any] = []
    axis = 0
    ellipsis = False
    while axis < len(shape) and draw(st.booleans()) | (len(entries) < 1):
        n = shape[axis]
        kind = draw(st.sampled_from(["slice", "int", "none", "ellipsis"]))
        if kind == "int" and n > 0:
            entries.append(draw(st.integers(-n, n - 1)))
            axis += 1
        elif kind == "none":
            entries.append(None)
        elif kind == "ellipsis" and not ellipsis:
            entries.append(Ellipsis)
            ellipsis = True
            axis = len(shape)
        else:
            bound = st.none() | st.integers(-n - 3, n + 3)
            step = st.none() | st.integers(-4, 4).filter(lambda s: s != 0)
            entries.append(slice(draw(bound), draw(bound), draw(step)))
            axis += 1
    return data(shape), chunks, tuple(entries)


@given(basic_cases())
def test_random_basic_indices_match_numpy(case: Any) -> None:
    a, chunks, index = case
    x = tensor(a, chunk_size=chunks)
    assert_same(x[index], a[index])


def test_slice_plan_lists_only_intersecting_chunks_in_visit_order() -> None:
    assert slice_plan((3, 3, 2), slice(4, 7)) == [(1, slice(1, 3, 1), 2), (2, slice(0, 1, 1), 1)]
    assert slice_plan((3, 3), slice(None, None, -2)) == [
        (1, slice(2, None, -2), 2),
        (0, slice(1, None, -2), 1),
    ]
    assert slice_plan((3, 3), slice(5, 2)) == [(0, slice(0, 0, 1), 0)]


def test_basic_index_reuses_whole_chunks_and_slices_the_others() -> None:
    x = tensor(np.arange(10.0), chunk_size=2)
    y = x[2:5]
    tiled, ctx = tile(y)
    source, _ = tile(x)
    assert tiled.nsplits == ((2, 1),)
    assert tiled.keys[0] == source.keys[1]  # chunk [2:4] is input chunk 1, no task
    assert own_tasks(y, ctx) == [(y.key, 1)]  # one slicing task, reading one chunk
    assert ctx.graph[(y.key, 1)].dependencies == {source.keys[2]}
    assert_same(y, np.arange(10.0)[2:5])


# ---- fancy indexing with NumPy arrays ---------------------------------------------------------

FANCY_INDICES = [
    [0, 3, 3, -1],
    ([[0, 1], [2, 0]],),
    (slice(None), [5, 0, 2]),
    ([0, 2], [1, 5]),
    ([0, 2], slice(1, 4), [1, -1]),  # separated: broadcast dims go first
    (slice(None), [[0], [2]], [1, 2]),
    (1, slice(None), [0, 2]),  # an int counts as advanced: dims go first
    ([1, 2], None, [0, 1]),
    ([1, 2], Ellipsis, [0, 1]),
    (slice(None, None, -1), [4, 1]),
    (np.array([], dtype=int),),
    ([],),
    (Ellipsis, np.array([2, 0], dtype=np.uint8)),
    (True,),
    (False,),
    (0, True),
]


@pytest.mark.parametrize("index", FANCY_INDICES, ids=repr)
def test_fancy_index_with_arrays_matches_numpy(index: Any) -> None:
    a = data((4, 6, 3))
    for chunks in chunkings(a.shape):
        assert_same(tensor(a, chunk_size=chunks)[index], a[index])


@given(st.data())
def test_random_integer_array_indices_match_numpy(d: st.DataObject) -> None:
    shape = tuple(d.draw(st.lists(st.integers(1, 6), min_size=1, max_size=3)))
    chunks = tuple(d.draw(st.integers(1, n)) for n in shape)
    a = data(shape)
    axes = d.draw(st.lists(st.integers(0, len(shape) - 1), min_size=1, max_size=2, unique=True))
    b_shape = tuple(d.draw(st.lists(st.integers(0, 4), max_size=2)))
    index: list[Any] = [slice(None)] * len(shape)
    for ax in axes:
        index[ax] = RNG.integers(-shape[ax], shape[ax], size=b_shape)
    assert_same(tensor(a, chunk_size=chunks)[tuple(index)], a[tuple(index)])


def test_sorted_index_is_cut_at_input_chunks_and_reuses_whole_chunks() -> None:
    a = np.arange(9.0)
    x = tensor(a, chunk_size=3)
    y = x[[0, 1, 3, 4, 5, 8]]
    tiled, ctx = tile(y)
    source, _ = tile(x)
    assert tiled.nsplits == ((2, 3, 1),)
    assert tiled.keys[1] == source.keys[1]
    assert_same(y, a[[0, 1, 3, 4, 5, 8]])


def test_unsorted_index_reads_only_the_chunks_it_needs() -> None:
    x = tensor(np.arange(12.0), chunk_size=3)
    y = x[[7, 1]]
    _, ctx = tile(y)
    source, _ = tile(x)
    ours = [k for k in ctx.graph if isinstance(k, tuple) and str(k[0]).startswith(y.key)]
    deps = set().union(*(ctx.graph[k].dependencies for k in ours))
    assert source.keys[3] not in deps
    assert source.keys[1] not in deps
    assert_same(y, np.arange(12.0)[[7, 1]])


# ---- boolean masks ----------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["numpy", "tensor"])
def test_boolean_masks_match_numpy(where: str) -> None:
    a = data((5, 4, 3))
    cases = [
        (a[:, 0, 0] > 50,),
        (slice(None), a[0, :, 0] > 50),
        (a[:, :, 0] > 50,),
        (a > 50,),
        (a[:, :, 0] > 50, 1),
        (slice(1, 3), a[0] > 50),
        (0, slice(None), a[0, 0] > 50),
        (Ellipsis, a[0, 0] > 50),
    ]
    for chunks in chunkings(a.shape):
        x = tensor(a, chunk_size=chunks)
        for index in cases:
            mt_index = tuple(
                tensor(i, chunk_size=2) if where == "tensor" and isinstance(i, np.ndarray) else i
                for i in index
            )
            assert_same(x[mt_index], a[index])


def test_tensor_mask_has_nan_length_one_chunk_per_input_chunk() -> None:
    a = data((7, 3))
    x = tensor(a, chunk_size=(3, 2))
    y = x[x[:, 0] > 50]
    assert math.isnan(y.shape[0])
    assert y.shape[1] == 3
    tiled, _ = tile(y)
    assert len(tiled.nsplits[0]) == 3
    assert all(math.isnan(n) for n in tiled.nsplits[0])
    assert_same(y, a[a[:, 0] > 50])
    assert y.shape == a[a[:, 0] > 50].shape


@pytest.mark.parametrize("chunks", [1, (2, 3), (5, 7)])
def test_masked_sum_and_slice_of_masked_tensor_match_numpy(chunks: Any) -> None:
    a = data((5, 7)) / 100
    x = tensor(a, chunk_size=chunks)
    assert_same(x[x > 0.5].sum(), a[a > 0.5].sum())
    assert_same(x[x > 0.5][:3], a[a > 0.5][:3])
    assert_same(x[x > 0.5][::-2], a[a > 0.5][::-2])
    assert_same(x[x > 0.5][-1], a[a > 0.5][-1])
    assert_same(x[x > 0.5][[0, 2]], a[a > 0.5][[0, 2]])
    y = x[x[:, 0] > 0.2]
    assert_same(y[1:, ::3], a[a[:, 0] > 0.2][1:, ::3])
    assert_same(y[y > 0.5], a[a[:, 0] > 0.2][a[a[:, 0] > 0.2] > 0.5])


def test_mask_of_unknown_length_that_does_not_match_fails_at_execute() -> None:
    a = np.arange(6.0)
    x = tensor(a, chunk_size=2)
    y = x[x > 2]  # 3 elements, unknown until executed
    with pytest.raises(IndexError, match="boolean index did not match"):
        x[y > 0].execute()
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 0 with size 3"):
        y[5].execute()


# ---- integer tensors as indices --------------------------------------------------------------


def test_integer_tensor_indices_match_numpy() -> None:
    a = data((5, 6))
    i = np.array([[4, 0, -1], [2, 2, 3]])
    j = np.array([5, -6, 1])
    for chunks in chunkings(a.shape):
        x = tensor(a, chunk_size=chunks)
        ti, tj = tensor(i, chunk_size=2), tensor(j, chunk_size=2)
        assert_same(x[ti], a[i])
        assert_same(x[:, tj], a[:, j])
        assert_same(x[ti, tj], a[i, j])
        assert_same(x[ti, j], a[i, j])
        assert_same(x[2, tj], a[2, j])
        assert_same(x[ti[0], 1:4], a[i[0], 1:4])
        assert_same(x[tensor(3)], a[3])
        assert_same(x[mt.nonzero(x > 50)], a[np.nonzero(a > 50)])
        assert_same(x[x[:, 0] > 50, tj[:1]], a[a[:, 0] > 50, j[:1]])


def test_out_of_bounds_tensor_index_fails_at_execute_with_numpy_message() -> None:
    x = tensor(np.arange(12.0).reshape(3, 4), chunk_size=2)
    y = x[:, tensor([0, 4])]  # builds fine: the values are not known yet
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 1 with size 4"):
        y.execute()
    with pytest.raises(IndexError, match="index -4 is out of bounds for axis 0 with size 3"):
        x[tensor([-4])].execute()


# ---- bad indices ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("index", "error", "message"),
    [
        (1.0, IndexError, "only integers, slices"),
        ("a", IndexError, "only integers, slices"),
        ([1.5], IndexError, "only integers, slices"),
        ((0, 0, 0), IndexError, "too many indices for array: array is 2-dimensional, but 3"),
        (np.ones((3, 4, 1), bool), IndexError, "too many indices"),
        (5, IndexError, "index 5 is out of bounds for axis 0 with size 3"),
        ((slice(None), -5), IndexError, "index -5 is out of bounds for axis 1 with size 4"),
        ((slice(None), [0, 4]), IndexError, "index 4 is out of bounds for axis 1 with size 4"),
        (np.ones(4, bool), IndexError, "boolean index did not match indexed array along axis 0"),
        ((slice(None), np.ones(3, bool)), IndexError, "along axis 1; size of axis is 4"),
        (([0, 1], [0, 1, 2]), IndexError, "shape mismatch: indexing arrays could not be"),
        ((Ellipsis, Ellipsis), IndexError, "an index can only have a single ellipsis"),
        (slice(None, None, 0), ValueError, "slice step cannot be zero"),
        (slice(1.0, 2), TypeError, "slice indices must be integers"),
        (tensor(np.ones(4, bool)), IndexError, "boolean index did not match"),
        (tensor([1.0]), IndexError, "only integers, slices"),
    ],
    ids=repr,
)
def test_bad_indices_raise_numpy_errors_at_build_time(index: Any, error: Any, message: str) -> None:
    a = np.zeros((3, 4))
    with pytest.raises(error):
        a[index_np(index)]
    with pytest.raises(error, match=message):
        tensor(a, chunk_size=2)[index]


# ---- setitem ----------------------------------------------------------------------------------


def run_setitem(a: np.ndarray[Any, Any], chunks: Any, index: Any, value: Any) -> None:
    x = tensor(a, chunk_size=chunks)
    old = x.node
    x[index] = value
    assert x.node is not old
    assert x.shape == a.shape
    assert x.dtype == a.dtype
    expected = a.copy()
    expected[index_np(index)] = index_np(value)
    assert_same(x, expected)


SET_CASES = [
    ((1, slice(None)), 7.0),
    ((slice(None, None, -2), 1), np.arange(3.0)),
    ((slice(1, None), slice(None, 2)), np.arange(8.0).reshape(4, 2)),
    ((slice(1, None), slice(None, 2)), np.arange(2.0)),
    ((None, 0), np.ones((1, 1, 4))),
    ((Ellipsis, -1), -5),
    (([0, 4, 4], slice(None)), np.arange(12.0).reshape(3, 4)),
    (([0, 2], [3, 1]), [10.0, 20.0]),
    (([0, 2], Ellipsis, [3, 1]), np.arange(2.0)),
    ((1, None, [0, 3]), np.arange(2.0).reshape(2, 1)),  # separated: broadcast dims first
    ((slice(None), [[0], [3]]), 1.5),
    ((True,), 9.0),
]


@pytest.mark.parametrize(("index", "value"), SET_CASES, ids=repr)
def test_setitem_matches_numpy_assignment(index: Any, value: Any) -> None:
    a = data((5, 4))
    for chunks in chunkings(a.shape):
        run_setitem(a, chunks, index, value)
        if isinstance(value, np.ndarray):
            run_setitem(a, chunks, index, tensor(value, chunk_size=1))


@given(basic_cases(), st.sampled_from(["scalar", "array", "tensor", "broadcast"]))
def test_random_basic_setitem_matches_numpy(case: Any, kind: str) -> None:
    a, chunks, index = case
    shape = a[index].shape
    if kind == "scalar":
        value: Any = -1.0
    elif kind == "broadcast":
        value = -np.arange(shape[-1], dtype=float) if shape else np.float64(-2.0)
    else:
        value = -np.arange(math.prod(shape), dtype=float).reshape(shape)
        if kind == "tensor":
            value = tensor(value, chunk_size=2)
    run_setitem(a, chunks, index, value)


def test_setitem_with_masks_and_tensor_indices_matches_numpy() -> None:
    a = data((6, 5))
    mask = a > 50
    nnz = int(mask.sum())
    rows = a[:, 0] > 50
    for chunks in chunkings(a.shape):
        run_setitem(a, chunks, mask, 0.0)
        run_setitem(a, chunks, tensor(mask, chunk_size=2), 0.0)
        run_setitem(a, chunks, tensor(mask, chunk_size=3), -np.arange(nnz, dtype=float))
        run_setitem(a, chunks, tensor(mask), tensor(-np.arange(nnz, dtype=float), chunk_size=2))
        run_setitem(a, chunks, tensor(rows), np.arange(5.0))
        run_setitem(a, chunks, (slice(1, 4), tensor(a[0] > 50)), -1.0)
        run_setitem(a, chunks, tensor([5, 0, 5]), np.arange(5.0))
        run_setitem(a, chunks, (slice(None), tensor([4, 1])), tensor(-np.ones((6, 2))))
        run_setitem(a, chunks, (tensor([1, 2]), tensor([[0], [4]])), np.arange(4.0).reshape(2, 2))


def test_assigning_a_masked_selection_of_itself_matches_numpy() -> None:
    a = data((5, 7)) / 100
    for chunks in chunkings(a.shape):
        x = tensor(a, chunk_size=chunks)
        x[x > 0.5] = x[x > 0.5] * 10
        expected = a.copy()
        expected[a > 0.5] *= 10
        assert_same(x, expected)


def test_setitem_touches_only_intersecting_chunks() -> None:
    x = tensor(np.zeros((6, 6)), chunk_size=2)
    source, _ = tile(x)
    x[1:3, 4] = 1.0
    tiled, ctx = tile(x)
    touched = sorted(own_tasks(x, ctx))
    assert touched == [(x.key, 0, 2), (x.key, 1, 2)]
    for index in np.ndindex(3, 3):
        if index not in ((0, 2), (1, 2)):
            assert tiled.keys[index] == source.keys[index]


def test_setitem_leaves_earlier_expressions_alone() -> None:
    a = data((4, 4))
    x = tensor(a, chunk_size=3)
    before = x + 0
    x[0] = -1.0
    assert_same(before, a)


def test_setitem_casts_values_like_numpy() -> None:
    x = tensor(np.zeros(4, dtype=np.int64), chunk_size=3)
    x[:2] = 1.7
    x[2:] = tensor([2.5, -3.5])
    assert_same(x, np.array([1, 1, 2, -3]))
    u = tensor(np.zeros(3, dtype=np.uint8), chunk_size=2)
    u[:] = np.array([300, -1, 2])
    assert_same(u, np.array([300, -1, 2]).astype(np.uint8))
    with pytest.raises(OverflowError):
        u[0] = -1
    f = tensor(np.zeros(3), chunk_size=2)
    with pytest.raises(ValueError, match="could not convert string to float"):
        f[0] = "abc"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        f[:] = tensor(np.array([1 + 2j, 3j, 4]))
    assert_same(f, np.array([1.0, 0.0, 4.0]))
    with pytest.warns(np.exceptions.ComplexWarning):
        f[0] = np.array(1 + 1j)


def test_bad_setitem_raises_at_build_time() -> None:
    x = tensor(np.zeros((3, 4)), chunk_size=2)
    with pytest.raises(ValueError, match=r"could not broadcast input array from shape \(3,\)"):
        x[0] = np.ones(3)
    with pytest.raises(ValueError, match=r"value array of shape \(3, 3\) could not be broad"):
        x[:, [0, 1]] = tensor(np.ones((3, 3)))
    with pytest.raises(ValueError, match="setting an array element with a sequence"):
        x[0, 1] = [1.0]
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 1 with size 4"):
        x[0, 4] = 1
    with pytest.raises(IndexError, match="only integers, slices"):
        x[0.5] = 1
    with pytest.raises(IndexError, match="boolean index did not match"):
        x[np.ones(2, bool)] = 1


def test_mask_assignment_with_wrong_number_of_values_fails_at_execute() -> None:
    a = np.arange(6.0)
    x = tensor(a, chunk_size=4)
    x[x > 2] = np.arange(2.0)  # 3 elements are selected
    with pytest.raises(ValueError, match="cannot assign 2 input values to the 3 output values"):
        x.execute()


# ---- nonzero family ---------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(7,), (4, 5), (3, 4, 2), (0, 3)])
def test_nonzero_argwhere_flatnonzero_give_global_indices(shape: tuple[int, ...]) -> None:
    a = (data(shape) > 60) * data(shape)
    for chunks in chunkings(shape):
        x = tensor(a, chunk_size=chunks)
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


# ---- take, compress, extract ------------------------------------------------------------------


def test_take_matches_numpy() -> None:
    a = data((4, 5))
    i = np.array([[3, -1], [19, 0]])
    for chunks in chunkings(a.shape):
        x = tensor(a, chunk_size=chunks)
        assert_same(mt.take(x, i), np.take(a, i))
        assert_same(mt.take(x, tensor(i, chunk_size=1)), np.take(a, i))
        assert_same(mt.take(x, [1, -1], axis=1), np.take(a, [1, -1], axis=1))
        assert_same(x.take(2, axis=-2), np.take(a, 2, axis=-2))
        assert_same(
            mt.take(x, [[7, -9]], axis=0, mode="wrap"), np.take(a, [[7, -9]], axis=0, mode="wrap")
        )
        assert_same(mt.take(x, [30, -30], mode="clip"), np.take(a, [30, -30], mode="clip"))
        assert_same(mt.take(x, tensor([30, -30]), mode="wrap"), np.take(a, [30, -30], mode="wrap"))
        assert_same(
            mt.take(x, tensor([7]), axis=1, mode="clip"), np.take(a, [7], axis=1, mode="clip")
        )
        assert_same(mt.take(x, [1.7, True]), np.take(a, [1.7, True]))  # type: ignore[arg-type]
    assert_same(mt.take(tensor(np.array(5.0)), [0, 0]), np.take(np.array(5.0), [0, 0]))


def test_take_rejects_bad_input_like_numpy() -> None:
    x = tensor(np.zeros((2, 3)), chunk_size=2)
    with pytest.raises(TypeError, match="Cannot cast array data from dtype\\('float64'\\)"):
        mt.take(x, np.array([1.0]))
    with pytest.raises(ValueError, match="clipmode must be one of"):
        mt.take(x, [0], mode="nearest")
    with pytest.raises(np.exceptions.AxisError):
        mt.take(x, [0], axis=2)
    with pytest.raises(IndexError, match="index 6 is out of bounds for axis 0 with size 6"):
        mt.take(x, [6])
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 1 with size 3"):
        mt.take(x, tensor([3]), axis=1).execute()
    with pytest.raises(IndexError, match="cannot do a non-empty take from an empty axes"):
        mt.take(tensor(np.zeros((0, 2))), [0], axis=0, mode="wrap")


def test_compress_matches_numpy() -> None:
    a = data((4, 5))
    for chunks in chunkings(a.shape):
        x = tensor(a, chunk_size=chunks)
        for cond, axis in [([1, 0, 1, 1, 0], 1), ([0, 1], 0), ([1, 0, 0, 1, 1, 0, 1], None)]:
            expected = np.compress(np.array(cond, dtype=bool), a, axis=axis)
            assert_same(mt.compress(cond, x, axis=axis), expected)
            assert_same(mt.compress(tensor(np.array(cond), chunk_size=2), x, axis=axis), expected)
        assert_same(x.compress([True, False, True, True]), a.compress([True, False, True, True]))
    with pytest.raises(ValueError, match="condition must be a 1-d array"):
        mt.compress([[1]], tensor(a))
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 0 with size 4"):
        mt.compress([0, 0, 0, 0, 1], tensor(a), axis=0)


def test_extract_matches_numpy() -> None:
    a = data((4, 5))
    for chunks in chunkings(a.shape):
        x = tensor(a, chunk_size=chunks)
        assert_same(mt.extract(a > 50, x), np.extract(a > 50, a))
        assert_same(mt.extract(x > 50, x), np.extract(a > 50, a))
        assert_same(mt.extract(tensor(a % 2 > 1), x), np.extract(a % 2 > 1, a))
        assert_same(mt.extract([0, 1, 0, 3], x), np.extract([0, 1, 0, 3], a))
        assert_same(mt.extract(tensor([0, 1, 0, 3]), x), np.extract([0, 1, 0, 3], a))
