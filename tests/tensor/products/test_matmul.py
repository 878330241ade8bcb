"""``dot``, ``matmul`` and ``@`` (``Tensor.dot``, ``__matmul__``, ``__rmatmul__``)
against NumPy: values, dtypes, batching and broadcasting, errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import chunkings
from tests.tensor.conftest import on
from tests.tensor.products.helpers import check, chunk_for, dims, sample


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
def test_dot_matches_numpy_over_chunkings(shape_a, shape_b, xp):
    a, b = sample(shape_a), sample(shape_b)
    for ca in chunkings(shape_a):
        for cb in chunkings(shape_b):
            ta, tb = on(xp, mt.tensor(a, chunk_size=ca)), on(xp, mt.tensor(b, chunk_size=cb))
            check(mt.dot(ta, tb), np.dot(a, b))


def test_dot_with_a_scalar_multiplies():
    a = sample((3, 4))
    check(mt.dot(mt.tensor(a, chunk_size=2), 3), np.dot(a, 3))
    check(mt.dot(np.float32(2), mt.tensor(a, chunk_size=2)), np.dot(np.float32(2), a))


@given(m=dims, k=dims, n=dims, data=st.data())
def test_dot_of_matrices_any_chunks(m, k, n, data):
    a, b = sample((m, k)), sample((k, n))
    ca = data.draw(chunk_for((m, k)))
    cb = data.draw(chunk_for((k, n)))
    check(mt.tensor(a, chunk_size=ca).dot(mt.tensor(b, chunk_size=cb)), a.dot(b))


@pytest.mark.parametrize(
    ("dt_a", "dt_b"),
    [("i4", "i4"), ("i8", "f4"), ("f4", "f4"), ("bool", "bool"), ("c16", "f8"), ("u1", "i2")],
)
def test_dot_dtype_follows_numpy(dt_a, dt_b, xp):
    a, b = sample((4, 3), dt_a), sample((3, 5), dt_b)
    # on a GPU: one operand there, the other copied to it chunk by chunk
    check(mt.dot(on(xp, mt.tensor(a, chunk_size=2)), mt.tensor(b, chunk_size=2)), np.dot(a, b))


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
    a, b = sample(shape_a), sample(shape_b)
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
    a, b = sample(shape_a), sample(shape_b)
    ta = mt.tensor(a, chunk_size=data.draw(chunk_for(shape_a)))
    tb = mt.tensor(b, chunk_size=data.draw(chunk_for(shape_b)))
    check(ta @ tb, a @ b)


def test_matmul_with_numpy_operands_either_side():
    a, b = sample((3, 4)), sample((4, 2))
    t = mt.tensor(b, chunk_size=2)
    check(a @ t, a @ b)
    check(np.matmul(a, t), a @ b)
    check(mt.tensor(a, chunk_size=3) @ b, a @ b)
    check(mt.matmul(a.tolist(), b), a @ b)


def test_matmul_dtype_argument_and_bool():
    a, b = sample((3, 4), "i4"), sample((4, 2), "i4")
    check(mt.matmul(mt.tensor(a, chunk_size=2), b, dtype="f4"), np.matmul(a, b, dtype="f4"))
    x, y = sample((3, 4), bool), sample((4, 5), bool)
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
