"""``inner`` (and the symmetric half of ``inner(a, a)``), ``vdot`` and ``outer`` against NumPy."""

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.engine.node import op_name_of
from tests.conftest import chunkings
from tests.tensor.conftest import on
from tests.tensor.products.helpers import check, sample, task_keys


@pytest.mark.parametrize(
    ("shape_a", "shape_b"), [((5,), (5,)), ((3, 5), (4, 5)), ((2, 3, 4), (4,)), ((3, 4), (2, 2, 4))]
)
def test_inner_matches_numpy(shape_a, shape_b, xp):
    a, b = sample(shape_a), sample(shape_b)
    for ca in chunkings(shape_a):
        ta = on(xp, mt.tensor(a, chunk_size=ca))
        check(mt.inner(ta, mt.tensor(b, chunk_size=2)), np.inner(a, b))
    check(mt.inner(on(xp, mt.tensor(a, chunk_size=2)), 2.0), np.inner(a, 2.0))


def test_inner_of_a_tensor_with_itself_computes_half_the_chunks():
    a = sample((7, 5))
    for chunk in chunkings(a.shape):
        t = mt.tensor(a, chunk_size=chunk)
        check(mt.inner(t, t), np.inner(a, a))
    t = mt.tensor(a, chunk_size=2)  # 4 x 4 output chunks, 3 chunks to contract
    result = mt.inner(t, t)
    keys = [k for k in task_keys(result) if op_name_of(k) == "inner"]
    outputs = [k for k in keys if k[0] == result.key]
    assert len(outputs) == 16  # 10 products + 6 transposed views
    assert len(keys) - len(outputs) == 4  # one shared panel per row of chunks
    x = sample((2, 3, 4))
    tx = mt.tensor(x, chunk_size=2)
    check(mt.inner(tx, tx), np.inner(x, x))
    c = sample((4, 3), "c16")
    tc = mt.tensor(c, chunk_size=2)
    check(mt.inner(tc, tc), np.inner(c, c))


def test_inner_shape_mismatch():
    with pytest.raises(ValueError, match="not aligned"):
        mt.inner(mt.tensor(np.ones((2, 3))), np.ones((4, 5)))


def test_vdot_conjugates_and_flattens():
    a, b = sample((3, 4), "c16"), sample((4, 3), "c16")
    for chunk in chunkings(a.shape):
        check(mt.vdot(mt.tensor(a, chunk_size=chunk), mt.tensor(b, chunk_size=2)), np.vdot(a, b))
    x = sample((6,), "i4")
    check(mt.vdot(mt.tensor(x, chunk_size=4), x), np.vdot(x, x))
    with pytest.raises(ValueError, match="same size"):
        mt.vdot(mt.tensor(np.ones(3)), np.ones(4))


def test_outer_flattens_its_inputs():
    a, b = sample((2, 3)), sample((4,))
    for chunk in chunkings(a.shape):
        check(mt.outer(mt.tensor(a, chunk_size=chunk), mt.tensor(b, chunk_size=3)), np.outer(a, b))
    check(mt.outer(mt.tensor(np.float64(2.0)), b), np.outer(2.0, b))
    x, y = sample((3,), bool), sample((2,), bool)
    check(mt.outer(x, mt.tensor(y)), np.outer(x, y))
