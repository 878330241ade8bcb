import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from jupyter_mars.config import option_context
from jupyter_mars.engine.node import op_name_of
from jupyter_mars.engine.plan import plan_stages
from tests.conftest import assert_same, chunkings

RNG = np.random.default_rng(11)


def _data(shape, dtype=float):
    if np.dtype(dtype).kind == "b":
        return RNG.random(shape) > 0.5
    if np.dtype(dtype).kind in "iu":
        return RNG.integers(-5, 6, size=shape).astype(dtype)
    if np.dtype(dtype).kind == "c":
        return (RNG.random(shape) + 1j * RNG.random(shape)).astype(dtype)
    return RNG.random(shape).astype(dtype)


def check(result, expected):
    """``assert_same`` with a float32-sized tolerance for single precision."""
    single = np.asarray(expected).dtype in (np.float32, np.complex64)
    assert_same(result, expected, rtol=2e-5 if single else 1e-7)


def _tasks_by_op(tensor):
    """Operator name -> number of tasks in the final stage of ``tensor``'s plan."""
    stages = plan_stages([tensor.node], {})
    stage = next(stages)
    counts = {}
    for key in stage.graph:
        name = op_name_of(key)
        counts[name] = counts.get(name, 0) + 1
    return counts


# ---- Hypothesis strategies -------------------------------------------------------------------

dims = st.integers(1, 6)


@st.composite
def chunk_for(draw, shape):
    return tuple(draw(st.integers(1, max(n, 1))) for n in shape)


# ---- dot --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape_a", "shape_b"),
    [
        ((5,), (5,)),
        ((4, 5), (5, 3)),
        ((4, 5), (5,)),
        ((5,), (5, 3)),
        ((2, 3, 4), (4,)),
        ((2, 3, 4), (5, 4, 2)),
        ((3, 4), (2, 4, 3)),
    ],
)
def test_dot_matches_numpy_over_chunkings(shape_a, shape_b):
    a, b = _data(shape_a), _data(shape_b)
    for ca in chunkings(shape_a):
        for cb in chunkings(shape_b):
            check(mt.dot(mt.tensor(a, chunk_size=ca), mt.tensor(b, chunk_size=cb)), np.dot(a, b))


def test_dot_with_a_scalar_multiplies():
    a = _data((3, 4))
    check(mt.dot(mt.tensor(a, chunk_size=2), 3), np.dot(a, 3))
    check(mt.dot(np.float32(2), mt.tensor(a, chunk_size=2)), np.dot(np.float32(2), a))


@given(m=dims, k=dims, n=dims, data=st.data())
def test_dot_of_matrices_any_chunks(m, k, n, data):
    a, b = _data((m, k)), _data((k, n))
    ca = data.draw(chunk_for((m, k)))
    cb = data.draw(chunk_for((k, n)))
    check(mt.tensor(a, chunk_size=ca).dot(mt.tensor(b, chunk_size=cb)), a.dot(b))


@pytest.mark.parametrize(
    ("dt_a", "dt_b"),
    [("i4", "i4"), ("i8", "f4"), ("f4", "f4"), ("bool", "bool"), ("c16", "f8"), ("u1", "i2")],
)
def test_dot_dtype_follows_numpy(dt_a, dt_b):
    a, b = _data((4, 3), dt_a), _data((3, 5), dt_b)
    check(mt.dot(mt.tensor(a, chunk_size=2), mt.tensor(b, chunk_size=2)), np.dot(a, b))


def test_dot_shape_mismatch_raises_numpy_message():
    with pytest.raises(
        ValueError,
        match=r"shapes \(2,3\) and \(4,5\) not aligned: 3 \(dim 1\) "
        r"!= 4 \(dim 0\)",
    ):
        mt.dot(mt.tensor(np.ones((2, 3))), mt.tensor(np.ones((4, 5))))
    with pytest.raises(ValueError, match=r"shapes \(3,\) and \(4,\) not aligned"):
        mt.dot(mt.tensor(np.ones(3)), np.ones(4))


def test_dot_rejects_out():
    with pytest.raises(TypeError, match="out"):
        mt.dot(mt.tensor(np.ones(3)), np.ones(3), out=np.empty(()))


# ---- matmul ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape_a", "shape_b"),
    [
        ((4, 5), (5, 3)),
        ((5,), (5, 3)),
        ((4, 5), (5,)),
        ((5,), (5,)),
        ((3, 4, 5), (3, 5, 2)),
        ((1, 4, 5), (3, 5, 2)),
        ((4, 5), (2, 5, 3)),
        ((2, 1, 3, 4), (5, 4, 2)),
        ((3, 4, 5), (5,)),
    ],
)
def test_matmul_matches_numpy_over_chunkings(shape_a, shape_b):
    a, b = _data(shape_a), _data(shape_b)
    for ca in chunkings(shape_a):
        for cb in chunkings(shape_b):
            ta, tb = mt.tensor(a, chunk_size=ca), mt.tensor(b, chunk_size=cb)
            check(mt.matmul(ta, tb), np.matmul(a, b))
    check(mt.tensor(a, chunk_size=2) @ mt.tensor(b, chunk_size=3), a @ b)


@settings(max_examples=20)
@given(
    batch=st.lists(st.integers(1, 3), min_size=0, max_size=2),
    n=dims,
    k=dims,
    m=dims,
    data=st.data(),
)
def test_matmul_batched_and_broadcast_any_chunks(batch, n, k, m, data):
    batch_b = [1 if data.draw(st.booleans()) else d for d in batch]
    shape_a, shape_b = (*batch, n, k), (*batch_b, k, m)
    a, b = _data(shape_a), _data(shape_b)
    ta = mt.tensor(a, chunk_size=data.draw(chunk_for(shape_a)))
    tb = mt.tensor(b, chunk_size=data.draw(chunk_for(shape_b)))
    check(ta @ tb, a @ b)


def test_matmul_with_numpy_operands_either_side():
    a, b = _data((3, 4)), _data((4, 2))
    t = mt.tensor(b, chunk_size=2)
    check(a @ t, a @ b)
    check(np.matmul(a, t), a @ b)
    check(mt.tensor(a, chunk_size=3) @ b, a @ b)
    check(mt.matmul(a.tolist(), b), a @ b)


def test_matmul_dtype_argument_and_bool():
    a, b = _data((3, 4), "i4"), _data((4, 2), "i4")
    check(mt.matmul(mt.tensor(a, chunk_size=2), b, dtype="f4"), np.matmul(a, b, dtype="f4"))
    x, y = _data((3, 4), bool), _data((4, 5), bool)
    check(mt.tensor(x, chunk_size=1) @ mt.tensor(y, chunk_size=2), x @ y)


def test_matmul_errors_match_numpy():
    with pytest.raises(
        ValueError,
        match=r"matmul: Input operand 1 has a mismatch in its core "
        r"dimension 0.*\(size 4 is different from 3\)",
    ):
        mt.matmul(mt.tensor(np.ones((2, 3))), np.ones((4, 5)))
    with pytest.raises(ValueError, match="does not have enough dimensions"):
        mt.matmul(mt.tensor(np.ones(())), np.ones((3, 3)))
    with pytest.raises(
        ValueError,
        match=r"could not be broadcast together with remapped shapes "
        r"\[original->remapped\]: \(2,2,3\)->\(2,newaxis,newaxis\)",
    ):
        mt.matmul(mt.tensor(np.ones((2, 2, 3))), np.ones((3, 3, 5)))
    with pytest.raises(TypeError, match="out"):
        mt.matmul(mt.tensor(np.ones((2, 2))), np.ones((2, 2)), out=np.empty((2, 2)))
    with pytest.raises(TypeError):
        mt.matmul(mt.tensor(np.array([["a"]])), np.array([["b"]]))


def _task_keys(tensor):
    return list(next(plan_stages([tensor.node], {})).graph)


def test_matmul_is_one_task_per_output_chunk_on_shared_panels():
    a = mt.tensor(_data((8, 8)), chunk_size=2)
    b = mt.tensor(_data((8, 8)), chunk_size=2)
    product = a @ b
    keys = [k for k in _task_keys(product) if op_name_of(k) == "matmul"]
    assert sum(1 for k in keys if k[0] == product.key) == 16  # one per output chunk
    panels = [k for k in keys if k[0] != product.key]
    assert all("panel" in k[0] for k in panels)
    assert len(panels) == 8  # 4 row panels of a, 4 column panels of b; no sum tree


def test_matrix_vector_product_reads_chunks_without_panels():
    x, y = _data((8, 8)), _data((8,))
    product = mt.tensor(x, chunk_size=2) @ mt.tensor(y, chunk_size=2)
    keys = [k for k in _task_keys(product) if op_name_of(k) == "matmul"]
    assert len(keys) == 4  # each row of chunks is read once: no copy into a panel
    check(product, x @ y)


def test_matmul_rechunks_one_side_when_contracted_chunks_differ():
    a, b = _data((6, 9)), _data((9, 4))
    ta, tb = mt.tensor(a, chunk_size=(3, 3)), mt.tensor(b, chunk_size=(4, 2))
    check(ta @ tb, a @ b)


def test_matmul_splits_the_contraction_over_the_memory_budget():
    for shape_a, shape_b in [((4, 40), (40, 3)), ((8, 40), (40, 8))]:
        a, b = _data(shape_a), _data(shape_b)
        ta, tb = mt.tensor(a, chunk_size=4), mt.tensor(b, chunk_size=4)
        with option_context(chunk_store_limit=64):
            product = ta @ tb
            keys = [k for k in _task_keys(product) if op_name_of(k) == "matmul"]
            assert any("-part" in k[0] for k in keys)  # partial products
            assert any("-sum" in k[0] for k in keys)  # summed by a tree
            check(product, a @ b)


def test_vector_dot_splits_for_parallelism(monkeypatch):
    from jupyter_mars.tensor import products

    monkeypatch.setattr(products, "_MIN_GROUP_WORK", 1)
    v = _data((30,))
    t = mt.tensor(v, chunk_size=3)
    with option_context(n_cpu=4):
        result = mt.dot(t, t)
        assert _tasks_by_op(result)["dot"] > 1
    check(result, v @ v)


def test_large_single_chunk_product_is_split_across_threads():
    a, b = _data((512, 256)), _data((256, 512))
    with option_context(n_cpu=4):
        product = mt.tensor(a, chunk_size=-1) @ mt.tensor(b, chunk_size=-1)
        outputs = [k for k in _task_keys(product) if k[0] == product.key]
        assert len(outputs) == 4
        check(product, a @ b)
    small = mt.tensor(_data((8, 8)), chunk_size=-1)
    with option_context(n_cpu=4):
        tiny = small @ small  # too little work to be worth splitting
        assert len([k for k in _task_keys(tiny) if k[0] == tiny.key]) == 1


def test_products_with_unknown_lengths():
    x = np.arange(12.0)
    t = mt.tensor(x, chunk_size=5)
    picked = t[t > 3]
    assert np.isnan(picked.shape[0])
    check(mt.dot(picked, picked), x[x > 3] @ x[x > 3])
    outer = mt.outer(picked, mt.tensor(x[:3], chunk_size=2))
    check(outer, np.outer(x[x > 3], x[:3]))


# ---- tensordot -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape_a", "shape_b", "axes"),
    [
        ((3, 4, 5), (4, 5, 2), 2),
        ((3, 4), (4, 2), 1),
        ((3, 4), (2, 5), 0),
        ((3, 4, 5), (5, 3, 2), ([0, 2], [1, 0])),
        ((4, 3), (4, 2), ([0], [0])),
        ((4, 3), (2, 3), (1, 1)),
        ((2, 3), (3, 2), ([], [])),
    ],
)
def test_tensordot_matches_numpy_over_chunkings(shape_a, shape_b, axes):
    a, b = _data(shape_a), _data(shape_b)
    for ca in chunkings(shape_a):
        for cb in chunkings(shape_b):
            got = mt.tensordot(mt.tensor(a, chunk_size=ca), mt.tensor(b, chunk_size=cb), axes)
            check(got, np.tensordot(a, b, axes))


@settings(max_examples=20)
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=3), data=st.data())
def test_tensordot_any_axes_and_chunks(shape, data):
    ncontract = data.draw(st.integers(0, len(shape)))
    contracted = data.draw(st.permutations(range(len(shape))))[:ncontract]
    extra = data.draw(st.lists(st.integers(1, 3), max_size=2))
    order = data.draw(st.permutations(range(ncontract + len(extra))))
    b_dims = [shape[ax] for ax in contracted] + extra
    shape_b = tuple(b_dims[i] for i in order)
    axes_b = [order.index(i) for i in range(ncontract)]
    a, b = _data(tuple(shape)), _data(shape_b)
    ta = mt.tensor(a, chunk_size=data.draw(chunk_for(tuple(shape))))
    tb = mt.tensor(b, chunk_size=data.draw(chunk_for(shape_b)))
    axes = (list(contracted), axes_b)
    check(mt.tensordot(ta, tb, axes), np.tensordot(a, b, axes))


def test_tensordot_bad_axes():
    a, b = mt.tensor(np.ones((2, 3))), mt.tensor(np.ones((4, 5)))
    with pytest.raises(ValueError, match="shape-mismatch for sum"):
        mt.tensordot(a, b, axes=1)
    with pytest.raises(ValueError, match="shape-mismatch for sum"):
        mt.tensordot(a, b, axes=([1], [0, 1]))
    with pytest.raises(np.exceptions.AxisError):
        mt.tensordot(a, b, axes=([2], [0]))
    with pytest.raises(ValueError, match="axes=3"):
        mt.tensordot(a, b, axes=3)
    with pytest.raises(TypeError, match="axes"):
        mt.tensordot(a, b, axes="x")


# ---- inner, vdot, outer --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape_a", "shape_b"), [((5,), (5,)), ((3, 5), (4, 5)), ((2, 3, 4), (4,)), ((3, 4), (2, 2, 4))]
)
def test_inner_matches_numpy(shape_a, shape_b):
    a, b = _data(shape_a), _data(shape_b)
    for ca in chunkings(shape_a):
        check(mt.inner(mt.tensor(a, chunk_size=ca), mt.tensor(b, chunk_size=2)), np.inner(a, b))
    check(mt.inner(mt.tensor(a, chunk_size=2), 2.0), np.inner(a, 2.0))


def test_inner_of_a_tensor_with_itself_computes_half_the_chunks():
    a = _data((7, 5))
    for chunk in chunkings(a.shape):
        t = mt.tensor(a, chunk_size=chunk)
        check(mt.inner(t, t), np.inner(a, a))
    t = mt.tensor(a, chunk_size=2)  # 4 x 4 output chunks, 3 chunks to contract
    result = mt.inner(t, t)
    keys = [k for k in _task_keys(result) if op_name_of(k) == "inner"]
    outputs = [k for k in keys if k[0] == result.key]
    assert len(outputs) == 16  # 10 products + 6 transposed views
    assert len(keys) - len(outputs) == 4  # one shared panel per row of chunks
    x = _data((2, 3, 4))
    tx = mt.tensor(x, chunk_size=2)
    check(mt.inner(tx, tx), np.inner(x, x))
    c = _data((4, 3), "c16")
    tc = mt.tensor(c, chunk_size=2)
    check(mt.inner(tc, tc), np.inner(c, c))


def test_inner_shape_mismatch():
    with pytest.raises(ValueError, match="not aligned"):
        mt.inner(mt.tensor(np.ones((2, 3))), np.ones((4, 5)))


def test_vdot_conjugates_and_flattens():
    a, b = _data((3, 4), "c16"), _data((4, 3), "c16")
    for chunk in chunkings(a.shape):
        check(mt.vdot(mt.tensor(a, chunk_size=chunk), mt.tensor(b, chunk_size=2)), np.vdot(a, b))
    x = _data((6,), "i4")
    check(mt.vdot(mt.tensor(x, chunk_size=4), x), np.vdot(x, x))
    with pytest.raises(ValueError, match="same size"):
        mt.vdot(mt.tensor(np.ones(3)), np.ones(4))


def test_outer_flattens_its_inputs():
    a, b = _data((2, 3)), _data((4,))
    for chunk in chunkings(a.shape):
        check(mt.outer(mt.tensor(a, chunk_size=chunk), mt.tensor(b, chunk_size=3)), np.outer(a, b))
    check(mt.outer(mt.tensor(np.float64(2.0)), b), np.outer(2.0, b))
    x, y = _data((3,), bool), _data((2,), bool)
    check(mt.outer(x, mt.tensor(y)), np.outer(x, y))


# ---- einsum ------------------------------------------------------------------------------------

EINSUM_CASES = [
    ("ij,jk->ik", [(4, 5), (5, 3)]),
    ("ij,kj->ik", [(4, 5), (3, 5)]),
    ("ij,jk->ki", [(4, 5), (5, 3)]),
    ("ij,jk", [(4, 5), (5, 3)]),
    ("ji", [(4, 5)]),
    ("ij->ji", [(4, 5)]),
    ("ii->i", [(4, 4)]),
    ("ii", [(4, 4)]),
    ("ij->", [(4, 5)]),
    ("ij->j", [(4, 5)]),
    ("ijk->ik", [(3, 4, 5)]),
    ("i,j->ij", [(4,), (3,)]),
    ("i,i->", [(5,), (5,)]),
    ("i,i", [(5,), (5,)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("bij,bjk->bki", [(2, 3, 4), (2, 4, 5)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)]),
    ("ij,ij->ij", [(3, 4), (3, 4)]),
    ("ij,ij->i", [(3, 4), (3, 4)]),
    ("ij,jk,kl->il", [(3, 4), (4, 5), (5, 2)]),
    ("ijk,jil->kl", [(3, 4, 5), (4, 3, 2)]),
    ("i...->...", [(3, 4, 2)]),
    ("ij,ij->ij", [(1, 4), (3, 4)]),
    ("Ba,aC", [(2, 3), (3, 4)]),
]


@pytest.mark.parametrize(("spec", "shapes"), EINSUM_CASES)
def test_einsum_matches_numpy(spec, shapes):
    arrays = [_data(s) for s in shapes]
    expected = np.einsum(spec, *arrays)
    for chunking_index in range(3):
        operands = [mt.tensor(x, chunk_size=chunkings(x.shape)[chunking_index]) for x in arrays]
        check(mt.einsum(spec, *operands), expected)


def test_einsum_interleaved_form_and_dtype():
    a, b = _data((3, 4), "i4"), _data((4, 2), "i4")
    ta, tb = mt.tensor(a, chunk_size=2), mt.tensor(b, chunk_size=3)
    check(mt.einsum(ta, [0, 1], tb, [1, 2], [0, 2]), np.einsum(a, [0, 1], b, [1, 2], [0, 2]))
    check(mt.einsum(ta, [0, 1], tb, [1, 2]), np.einsum(a, [0, 1], b, [1, 2]))
    check(mt.einsum("ij,jk->ik", ta, tb, dtype="f8"), np.einsum("ij,jk->ik", a, b, dtype="f8"))
    check(
        mt.einsum("ij->i", ta, dtype="f8", casting="unsafe"),
        np.einsum("ij->i", a, dtype="f8", casting="unsafe"),
    )


@settings(max_examples=20)
@given(i=dims, j=dims, k=dims, data=st.data())
def test_einsum_batched_product_any_chunks(i, j, k, data):
    a, b = _data((2, i, j)), _data((2, j, k))
    ta = mt.tensor(a, chunk_size=data.draw(chunk_for(a.shape)))
    tb = mt.tensor(b, chunk_size=data.draw(chunk_for(b.shape)))
    check(mt.einsum("bij,bjk->bik", ta, tb), np.einsum("bij,bjk->bik", a, b))
    check(mt.einsum("bij,bij->j", ta, ta), np.einsum("bij,bij->j", a, a))


def test_einsum_errors():
    a = mt.tensor(np.ones((2, 3)))
    with pytest.raises(ValueError, match="does not match"):
        mt.einsum("ij,jk", a, np.ones((4, 5)))
    with pytest.raises(ValueError, match="operands"):
        mt.einsum("ij,jk->ik", a)
    with pytest.raises(ValueError, match="x"):
        mt.einsum("ij->x", a)
    with pytest.raises(ValueError, match="dimensions"):
        mt.einsum("i->i", a)
    with pytest.raises(TypeError, match="out"):
        mt.einsum("ij", a, out=np.empty((2, 3)))
    with pytest.raises(TypeError):
        mt.einsum("ij,jk", a, np.ones((3, 2)), dtype="i4")  # float -> int is not safe
