"""Creation functions against NumPy: values, dtypes, chunk layouts and errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from jupyter_mars.config import option_context
from jupyter_mars.engine.plan import plan_stages
from jupyter_mars.tensor import creation
from tests.conftest import assert_same, chunkings

arange: Any = mt.arange  # called with a variable number of positional arguments
SHAPES = [(), (0,), (7,), (5, 4), (3, 0, 2), (4, 5, 3)]


def nsplits_of(t: Any, session: Any) -> tuple[tuple[int, ...], ...]:
    """The chunk lengths of an executed tensor."""
    t.execute()
    return tuple(tuple(int(n) for n in axis) for axis in session.engine.executed[t.key].nsplits)


def first_stage(t: Any) -> dict[Any, Any]:
    """The (fused) task graph that computes ``t`` from scratch."""
    return dict(next(plan_stages([t.node], {})).graph)


def funcs_in(graph: dict[Any, Any]) -> list[Any]:
    """Kernels of all tasks, fused ones included."""
    from jupyter_mars.engine.graph import Task

    out = []

    def visit(task: Task) -> None:
        out.append(task.func)
        for arg in (*task.args, *task.kwargs.values()):
            if isinstance(arg, Task):
                visit(arg)

    for task in graph.values():
        visit(task)
    return out


@st.composite
def shape_and_chunks(draw: Any, max_ndim: int = 3, max_len: int = 7) -> tuple[Any, Any]:
    """A shape and a chunk_size in one of the accepted forms."""
    shape = tuple(draw(st.lists(st.integers(0, max_len), min_size=0, max_size=max_ndim)))
    form = draw(st.sampled_from(["int", "per_axis", "lengths", "none"]))
    if form == "int":
        return shape, draw(st.integers(1, max_len + 1))
    if form == "none":
        return shape, None
    chunks: list[Any] = []
    for n in shape:
        if form == "per_axis":
            chunks.append(draw(st.one_of(st.none(), st.integers(1, max_len + 1))))
        elif n == 0:
            chunks.append((0,))
        else:
            cuts = sorted(draw(st.sets(st.integers(1, n - 1), max_size=n - 1))) if n > 1 else []
            bounds = [0, *cuts, n]
            chunks.append(tuple(b - a for a, b in zip(bounds[:-1], bounds[1:])))
    return shape, tuple(chunks)


# ---- ones, zeros, empty, full -------------------------------------------------------------


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [None, np.int32, np.bool_, np.complex64])
def test_ones_zeros_match_numpy_over_chunkings(shape: tuple[int, ...], dtype: Any) -> None:
    for chunk in chunkings(shape):
        assert_same(mt.ones(shape, dtype=dtype, chunk_size=chunk), np.ones(shape, dtype=dtype))
        assert_same(mt.zeros(shape, dtype=dtype, chunk_size=chunk), np.zeros(shape, dtype=dtype))


@pytest.mark.parametrize("shape", SHAPES)
def test_empty_has_numpy_shape_and_dtype(shape: tuple[int, ...]) -> None:
    for chunk in chunkings(shape):
        got = mt.empty(shape, dtype=np.float32, chunk_size=chunk).execute().fetch()
        assert got.shape == shape
        assert got.dtype == np.float32


def test_ones_accepts_int_shape_and_fortran_order() -> None:
    assert_same(mt.ones(4, chunk_size=3), np.ones(4))
    got = mt.zeros((3, 4), order="F", chunk_size=(3, 4)).execute().fetch()
    assert got.flags.f_contiguous
    assert_same(got, np.zeros((3, 4), order="F"))


@given(shape_and_chunks(), st.sampled_from([0, 2.5, -3, True, 1 + 2j]))
def test_full_matches_numpy_for_any_chunk_form(sc: Any, value: Any) -> None:
    shape, chunk = sc
    assert_same(mt.full(shape, value, chunk_size=chunk), np.full(shape, value))


@pytest.mark.parametrize("shape", [(5, 4), (3, 2, 4)])
def test_full_broadcasts_an_array_fill_value_per_chunk(shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(0)
    fill = rng.random(shape[-1])
    column = rng.random((shape[-2], 1))
    for chunk in chunkings(shape):
        assert_same(mt.full(shape, fill, chunk_size=chunk), np.full(shape, fill))
        assert_same(mt.full(shape, column, chunk_size=chunk), np.full(shape, column))


def test_full_casts_the_fill_value_as_numpy() -> None:
    assert_same(mt.full((3, 2), 2.7, dtype=np.int16, chunk_size=2), np.full((3, 2), 2.7, np.int16))
    assert_same(mt.full(3, "ab", chunk_size=2), np.full(3, "ab"))
    assert_same(mt.full(4, 300.5, dtype=np.uint8, chunk_size=3), np.full(4, 300.5, dtype=np.uint8))
    with pytest.raises(OverflowError):
        np.full(4, -1, dtype=np.uint8)
    with pytest.raises(OverflowError):
        mt.full(4, -1, dtype=np.uint8)


def test_full_with_a_tensor_fill_value_broadcasts_it() -> None:
    fill = np.arange(4.0)
    got = mt.full((5, 4), mt.tensor(fill, chunk_size=3), chunk_size=2)
    assert_same(got, np.full((5, 4), fill))
    assert_same(mt.full((2, 4), mt.tensor(fill), dtype=int), np.full((2, 4), fill, dtype=int))


def test_chunk_size_none_uses_the_byte_budget(session: Any) -> None:
    with option_context(chunk_store_limit=8 * 16):
        t = mt.ones((8, 8), chunk_size=None)
        assert nsplits_of(t, session) == ((4, 4), (4, 4))
    assert nsplits_of(mt.ones((8, 8)), session) == ((8,), (8,))


def test_chunk_size_forms_give_the_expected_layout(session: Any) -> None:
    assert nsplits_of(mt.zeros((5, 4), chunk_size=2), session) == ((2, 2, 1), (2, 2))
    assert nsplits_of(mt.zeros((5, 4), chunk_size=(3, None)), session) == ((3, 2), (4,))
    assert nsplits_of(mt.zeros((5, 4), chunk_size=((1, 4), (2, 2))), session) == (
        (1, 4),
        (2, 2),
    )


# ---- *_like --------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(7,), (5, 4)])
def test_like_functions_match_numpy_on_arrays(shape: tuple[int, ...]) -> None:
    a = np.arange(int(np.prod(shape)), dtype=np.int16).reshape(shape)
    assert_same(mt.ones_like(a), np.ones_like(a))
    assert_same(mt.zeros_like(a, dtype=float), np.zeros_like(a, dtype=float))
    assert_same(mt.full_like(a, 7.9), np.full_like(a, 7.9))
    assert_same(mt.full_like(a, 3, shape=(2, 3)), np.full_like(a, 3, shape=(2, 3)))
    got = mt.empty_like(a, chunk_size=2).execute().fetch()
    assert got.shape == a.shape
    assert got.dtype == a.dtype


def test_like_functions_keep_the_chunks_of_a_tensor(session: Any) -> None:
    x = mt.tensor(np.arange(20.0).reshape(5, 4), chunk_size=(2, 3))
    for t, expected in [
        (mt.ones_like(x), np.ones((5, 4))),
        (mt.zeros_like(x, dtype=np.int8), np.zeros((5, 4), np.int8)),
        (mt.full_like(x, [1, 2, 3, 4]), np.full((5, 4), [1.0, 2, 3, 4])),
    ]:
        assert nsplits_of(t, session) == ((2, 2, 1), (3, 1))
        assert_same(t, expected)
    got = mt.empty_like(x)
    assert nsplits_of(got, session) == ((2, 2, 1), (3, 1))


def test_like_functions_do_not_compute_the_template(session: Any) -> None:
    x = mt.tensor(np.arange(6.0), chunk_size=2) + 1
    graph = first_stage(mt.zeros_like(x))
    assert all(f is np.zeros for f in funcs_in(graph))


def test_like_chunk_size_overrides_the_tensor_chunks(session: Any) -> None:
    x = mt.tensor(np.arange(20.0).reshape(5, 4), chunk_size=(2, 3))
    t = mt.ones_like(x, chunk_size=4)
    assert nsplits_of(t, session) == ((4, 1), (4,))
    assert_same(t, np.ones((5, 4)))
    assert_same(mt.full_like(x, mt.tensor([1.0, 2, 3, 4])), np.full((5, 4), [1.0, 2, 3, 4]))


# ---- arange --------------------------------------------------------------------------------

ARANGE_CASES: list[tuple[Any, ...]] = [
    (10,),
    (0,),
    (-3,),
    (2, 11),
    (11, 2, -3),
    (0.1, 2.0, 0.3),
    (1.5,),
    (-1, 1, 0.1),
    (np.float32(0.5), 7, np.float32(0.7)),
    (np.int8(3), np.int8(50), np.int8(7)),
    (True, 3),
    (1e-300, 1, 1e300),
    (0, 5, 1 + 0j),
    (1 + 1j, 9 + 4j, 1 + 1j),
]


@pytest.mark.parametrize("args", ARANGE_CASES)
def test_arange_matches_numpy_bit_for_bit(args: tuple[Any, ...]) -> None:
    expected = np.arange(*args)
    for chunk in chunkings(expected.shape):
        got = arange(*args, chunk_size=chunk).execute().fetch()
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize(
    ("args", "dtype"),
    [
        ((0, 10, 1.5), np.int32),
        ((0.5, 5), int),
        ((0, 10), np.float16),
        ((-100, 100, 37), np.int8),
        ((0, 2), bool),
        ((3, 40, 3), np.uint64),
        ((0, 3, 0.25), np.float32),
        ((0, 5), np.complex64),
    ],
)
def test_arange_with_dtype_matches_numpy(args: tuple[Any, ...], dtype: Any) -> None:
    expected = np.arange(*args, dtype=dtype)
    got = arange(*args, dtype=dtype, chunk_size=3).execute().fetch()
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


@given(
    st.floats(-1e6, 1e6, allow_nan=False),
    st.floats(-1e6, 1e6, allow_nan=False),
    st.floats(0.01, 1e5),
    st.booleans(),
    st.integers(1, 40),
    st.sampled_from([None, np.float32, np.int64]),
)
def test_arange_hypothesis_matches_numpy(
    start: float, span: float, step: float, down: bool, chunk: int, dtype: Any
) -> None:
    step = -step if down else step
    stop = start + span
    expected = np.arange(start, stop, step, dtype=dtype)
    if expected.size > 500:
        return
    got = mt.arange(start, stop, step, dtype=dtype, chunk_size=chunk).execute().fetch()
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


def test_arange_errors_match_numpy() -> None:
    with pytest.raises(ZeroDivisionError):
        mt.arange(0, 5, 0)
    with pytest.raises(ValueError, match="cannot compute length"):
        mt.arange(0, float("nan"))
    with pytest.raises(ValueError, match="Maximum allowed size"):
        mt.arange(0, float("inf"))
    with pytest.raises(TypeError, match="booleans"):
        mt.arange(3, dtype=bool)
    with pytest.raises(TypeError, match="scalar"):
        mt.arange((1, 2))
    with pytest.raises(TypeError):
        mt.arange("a")
    with pytest.raises(TypeError, match="tensor"):
        mt.arange(mt.tensor(5))
    with pytest.raises(TypeError):
        mt.arange(5, dtype="not-a-dtype")


# ---- linspace ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"start": 0, "stop": 1, "num": 7},
        {"start": 2.5, "stop": -3, "num": 50},
        {"start": 0, "stop": 1, "num": 7, "endpoint": False},
        {"start": 0, "stop": 10, "num": 6, "dtype": int},
        {"start": -5, "stop": 5, "num": 11, "dtype": np.int16},
        {"start": np.float32(0), "stop": 1.5, "num": 9},
        {"start": 1, "stop": 1, "num": 4},
        {"start": 0, "stop": 1, "num": 1},
        {"start": 0, "stop": 1, "num": 0},
        {"start": 0, "stop": 5e-324, "num": 4},
        {"start": 0j, "stop": 3 + 3j, "num": 5},
        {"start": [0, 1, 2], "stop": 5, "num": 4},
        {"start": [0, 1, 2], "stop": [[5], [6]], "num": 3, "axis": 1},
        {"start": np.zeros(3, np.float32), "stop": 2.0, "num": 5, "axis": -1},
    ],
)
def test_linspace_matches_numpy_bit_for_bit(kwargs: dict[str, Any]) -> None:
    expected = np.linspace(**kwargs)
    for chunk in chunkings(expected.shape):
        got = mt.linspace(**kwargs, chunk_size=chunk).execute().fetch()
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)


@given(
    st.floats(-1e6, 1e6, allow_nan=False),
    st.floats(-1e6, 1e6, allow_nan=False),
    st.integers(0, 60),
    st.booleans(),
    st.integers(1, 20),
)
def test_linspace_hypothesis_matches_numpy(
    start: float, stop: float, num: int, endpoint: bool, chunk: int
) -> None:
    expected = np.linspace(start, stop, num, endpoint=endpoint)
    got = mt.linspace(start, stop, num, endpoint=endpoint, chunk_size=chunk).execute().fetch()
    np.testing.assert_array_equal(got, expected)


def test_linspace_retstep_returns_numpy_step() -> None:
    t, step = mt.linspace(0, 1, 5, retstep=True, chunk_size=2)
    expected, expected_step = np.linspace(0, 1, 5, retstep=True)
    assert step == expected_step
    assert_same(t, expected)
    _, step1 = mt.linspace(0, 1, 1, retstep=True)
    assert np.isnan(step1)


def test_linspace_errors_match_numpy() -> None:
    with pytest.raises(ValueError, match="non-negative"):
        mt.linspace(0, 1, -1)
    with pytest.raises(TypeError):
        mt.linspace(0, 1, 2.5)
    with pytest.raises(np.exceptions.AxisError):
        mt.linspace(0, 1, 5, axis=1)
    with pytest.raises(TypeError, match="tensor"):
        mt.linspace(mt.tensor(0.0), 1)
    with pytest.raises(TypeError):
        mt.linspace(0, 1, 5, dtype="nope")


# ---- eye, identity, tri ---------------------------------------------------------------------


@given(
    st.integers(0, 8),
    st.one_of(st.none(), st.integers(0, 8)),
    st.integers(-9, 9),
    st.integers(1, 9),
)
def test_eye_matches_numpy(n: int, m: int | None, k: int, chunk: int) -> None:
    assert_same(mt.eye(n, m, k=k, chunk_size=chunk), np.eye(n, m, k=k))
    assert_same(mt.tri(n, m, k=k, chunk_size=chunk), np.tri(n, m, k=k))


def test_eye_identity_and_tri_dtypes() -> None:
    assert_same(mt.eye(4, 3, 1, dtype=np.int8, chunk_size=2), np.eye(4, 3, 1, dtype=np.int8))
    assert_same(mt.identity(5, chunk_size=2), np.identity(5))
    assert_same(mt.identity(3, dtype=bool), np.identity(3, dtype=bool))
    assert_same(mt.tri(4, 5, -1, dtype=int, chunk_size=3), np.tri(4, 5, -1, dtype=int))


def test_eye_errors_match_numpy() -> None:
    with pytest.raises(ValueError, match="negative"):
        mt.eye(-1)
    with pytest.raises(TypeError):
        mt.eye(2.5)
    with pytest.raises(TypeError):
        mt.eye(3, k=0.5)
    with pytest.raises(TypeError):
        mt.identity(3, dtype="bogus")


# ---- diag --------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 5])
@pytest.mark.parametrize("k", [0, 2, -3])
def test_diag_of_a_vector_matches_numpy(n: int, k: int) -> None:
    v = np.arange(1, n + 1, dtype=np.float32)
    for chunk in chunkings(v.shape):
        assert_same(mt.diag(mt.tensor(v, chunk_size=chunk), k), np.diag(v, k))
        assert_same(mt.diag(v, k, chunk_size=chunk), np.diag(v, k))
    assert_same(mt.diag(v, k), np.diag(v, k))


@given(shape_and_chunks(max_ndim=2, max_len=8), st.integers(-9, 9))
def test_diag_of_a_matrix_matches_numpy(sc: Any, k: int) -> None:
    shape, chunk = sc
    if len(shape) != 2:
        shape, chunk = (len(shape) + 3, 5), 2
    x = np.arange(int(np.prod(shape))).reshape(shape)
    assert_same(mt.diag(mt.tensor(x, chunk_size=chunk), k), np.diag(x, k))


def test_diag_of_a_vector_reads_only_diagonal_chunks(session: Any) -> None:
    v = mt.tensor(np.arange(6.0), chunk_size=2)
    t = mt.diag(v, 1)
    funcs = funcs_in(first_stage(t))
    assert funcs.count(creation.diag_block) == 3
    assert funcs.count(creation.zeros_chunk) == 4 * 4 - 3
    assert nsplits_of(t, session) == ((2, 2, 2, 1), (1, 2, 2, 2))


def test_diag_of_a_matrix_reads_only_blocks_on_the_diagonal() -> None:
    x = mt.tensor(np.arange(36).reshape(6, 6), chunk_size=2)
    graph = first_stage(mt.diag(x))
    deps = set().union(*(task.dependencies for task in graph.values()))
    # only the 3 diagonal blocks of the 3x3 grid are read (their tasks are fused in)
    assert len(graph) == 3
    assert not deps


def test_diag_errors_match_numpy() -> None:
    with pytest.raises(ValueError, match="1- or 2-d"):
        mt.diag(np.zeros((2, 2, 2)))
    with pytest.raises(ValueError, match="1- or 2-d"):
        mt.diag(5)
    with pytest.raises(TypeError):
        mt.diag([1, 2], k=1.5)


# ---- tril, triu --------------------------------------------------------------------------------


@given(shape_and_chunks(max_len=6), st.integers(-7, 7), st.booleans())
def test_tril_triu_match_numpy(sc: Any, k: int, lower: bool) -> None:
    shape, chunk = sc
    if not shape:
        return
    x = np.arange(1, int(np.prod(shape)) + 1).reshape(shape)
    func, npfunc = (mt.tril, np.tril) if lower else (mt.triu, np.triu)
    assert_same(func(mt.tensor(x, chunk_size=chunk), k), npfunc(x, k))


def test_tril_triu_of_arrays_and_vectors() -> None:
    x = np.arange(1.0, 13.0).reshape(3, 4)
    assert_same(mt.tril(x, -1), np.tril(x, -1))
    assert_same(mt.triu(x.tolist(), 1), np.triu(x, 1))
    v = np.arange(1, 6)
    for chunk in chunkings(v.shape):
        assert_same(mt.tril(mt.tensor(v, chunk_size=chunk), 1), np.tril(v, 1))
        assert_same(mt.triu(mt.tensor(v, chunk_size=chunk)), np.triu(v))


def test_tril_reuses_lower_chunks_and_zeros_upper_ones(session: Any) -> None:
    x = mt.tensor(np.ones((6, 6)), chunk_size=2)
    x.execute()
    t = mt.tril(x)
    graph = first_stage(t)
    funcs = funcs_in(graph)
    # 3 diagonal blocks are cut, 3 upper blocks are zeros, 3 lower blocks are x's own
    assert funcs.count(creation.triangle_chunk) == 3
    assert funcs.count(creation.zeros_chunk) == 3
    assert_same(t, np.tril(np.ones((6, 6))))
    tiled = session.engine.executed[t.key]
    source = session.engine.executed[x.key]
    assert tiled.keys[2, 0] == source.keys[2, 0]


def test_tril_errors() -> None:
    with pytest.raises(ValueError, match="at least 1-d"):
        mt.tril(5)
    with pytest.raises(TypeError):
        mt.triu(np.ones((2, 2)), k="1")


# ---- meshgrid ---------------------------------------------------------------------------------


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("count", [1, 2, 3])
def test_meshgrid_matches_numpy(indexing: Any, sparse: bool, count: int) -> None:
    vectors = [np.arange(n, dtype=dt) for n, dt in zip([3, 4, 2], [float, np.int32, np.int8])]
    vectors = vectors[:count]
    expected = np.meshgrid(*vectors, indexing=indexing, sparse=sparse)
    for chunk in [1, 2, None]:
        inputs = [mt.tensor(v, chunk_size=2) for v in vectors]
        got = mt.meshgrid(*inputs, indexing=indexing, sparse=sparse, chunk_size=chunk)
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            assert_same(g, e)


def test_meshgrid_of_arrays_and_views() -> None:
    x, y = [0.5, 1.5], np.array([[1, 2], [3, 4]])
    for g, e in zip(mt.meshgrid(x, y, copy=False), np.meshgrid(x, y, copy=False)):
        assert_same(g, e)
    assert mt.meshgrid() == []


def test_meshgrid_ravels_nd_tensors() -> None:
    a, b = np.arange(6).reshape(2, 3), np.array([1.5, 2.5])
    got = mt.meshgrid(mt.tensor(a, chunk_size=1), mt.tensor(b), indexing="ij", chunk_size=4)
    for g, e in zip(got, np.meshgrid(a, b, indexing="ij")):
        assert_same(g, e)


def test_meshgrid_errors() -> None:
    with pytest.raises(ValueError, match="indexing"):
        mt.meshgrid([1, 2], indexing="yx")
    with pytest.raises(ValueError, match="chunk_size"):
        mt.meshgrid([1, 2], [3], chunk_size=(1, 2, 3))


# ---- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize("func", [mt.ones, mt.zeros, mt.empty])
def test_shape_and_dtype_errors_match_numpy(func: Any) -> None:
    with pytest.raises(ValueError, match="negative dimensions"):
        func((2, -1))
    with pytest.raises(TypeError):
        func((2, 1.5))
    with pytest.raises(TypeError):
        func("3")
    with pytest.raises(TypeError, match="data type"):
        func(3, dtype="float99")
    with pytest.raises(ValueError, match="order"):
        func(3, order="X")


def test_bad_chunk_size_raises_at_call_time() -> None:
    with pytest.raises(ValueError, match="chunk_size"):
        mt.ones((4, 4), chunk_size=0)
    with pytest.raises(ValueError, match="chunk_size"):
        mt.zeros((4, 4), chunk_size=(2, 2, 2))
    with pytest.raises(ValueError, match="chunk_size"):
        mt.full((4,), 1, chunk_size=((1, 2),))
    with pytest.raises(TypeError, match="chunk_size"):
        mt.arange(5, chunk_size=1.5)
    with pytest.raises(ValueError, match="chunk_size"):
        mt.eye(3, chunk_size=-2)


def test_full_fill_errors_match_numpy() -> None:
    with pytest.raises(ValueError, match="broadcast"):
        mt.full((2, 3), [1, 2])
    with pytest.raises(ValueError, match="broadcast"):
        mt.full((2, 3), mt.tensor([1, 2]))
    with pytest.raises(ValueError, match="convert"):
        mt.full(3, "abc", dtype=float)
    with pytest.raises(TypeError):
        mt.full(3, [object()])
    with pytest.raises(ValueError, match="broadcast"):
        mt.full_like(np.zeros(3), [1, 2])


def test_all_lists_every_creation_function() -> None:
    for name in creation.__all__:
        assert getattr(mt, name) is getattr(creation, name)
