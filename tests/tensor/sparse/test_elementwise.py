"""Element-wise operations on sparse tensors against NumPy on the dense equivalents: a
function that keeps zeros gives a sparse tensor, any other a dense one."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import chunkings
from tests.tensor.sparse.helpers import check, sample

SHAPE = (6, 5)
OTHER = sample(SHAPE, seed=1)
DENSE = np.random.default_rng(2).uniform(0.5, 2.0, SHAPE)
ROW = np.random.default_rng(3).uniform(0.5, 2.0, SHAPE[1])

# name -> (tensor expression, NumPy expression, whether the result stays sparse); ``x``
# and ``y`` are sparse, ``d`` is a dense tensor (its NumPy twin has no zeros)
CASES = {
    "mul_scalar": (lambda x, y, d: x * 2, lambda x, y, d: x * 2, True),
    "rmul_scalar": (lambda x, y, d: 3 * x, lambda x, y, d: 3 * x, True),
    "div_scalar": (lambda x, y, d: x / 4, lambda x, y, d: x / 4, True),
    "add_zero": (lambda x, y, d: x + 0, lambda x, y, d: x + 0, True),
    "add_one": (lambda x, y, d: x + 1, lambda x, y, d: x + 1, False),
    "rsub_one": (lambda x, y, d: 1 - x, lambda x, y, d: 1 - x, False),
    "neg": (lambda x, y, d: -x, lambda x, y, d: -x, True),
    "abs": (lambda x, y, d: abs(x), lambda x, y, d: abs(x), True),
    "sqrt_abs": (lambda x, y, d: mt.sqrt(mt.abs(x)), lambda x, y, d: np.sqrt(abs(x)), True),
    "sin": (lambda x, y, d: mt.sin(x), lambda x, y, d: np.sin(x), True),
    "expm1": (lambda x, y, d: mt.expm1(x), lambda x, y, d: np.expm1(x), True),
    "cos": (lambda x, y, d: mt.cos(x), lambda x, y, d: np.cos(x), False),
    "exp": (lambda x, y, d: mt.exp(x), lambda x, y, d: np.exp(x), False),
    "square": (lambda x, y, d: x**2, lambda x, y, d: x**2, True),
    "gt_zero": (lambda x, y, d: x > 0, lambda x, y, d: x > 0, True),
    "eq_zero": (lambda x, y, d: x == 0, lambda x, y, d: x == 0, False),
    "isnan": (lambda x, y, d: mt.isnan(x), lambda x, y, d: np.isnan(x), True),
    "astype": (lambda x, y, d: x.astype("f4"), lambda x, y, d: x.astype("f4"), True),
    "add_sparse": (lambda x, y, d: x + y, lambda x, y, d: x + y, True),
    "sub_sparse": (lambda x, y, d: x - y, lambda x, y, d: x - y, True),
    "mul_sparse": (lambda x, y, d: x * y, lambda x, y, d: x * y, True),
    "max_sparse": (lambda x, y, d: mt.maximum(x, y), lambda x, y, d: np.maximum(x, y), True),
    "min_sparse": (lambda x, y, d: mt.minimum(x, y), lambda x, y, d: np.minimum(x, y), True),
    "arctan2_sparse": (lambda x, y, d: mt.arctan2(x, y), lambda x, y, d: np.arctan2(x, y), True),
    "mul_dense": (lambda x, y, d: x * d, lambda x, y, d: x * d, True),
    "rmul_dense": (lambda x, y, d: d * x, lambda x, y, d: d * x, True),
    "mul_row": (lambda x, y, d: x * ROW, lambda x, y, d: x * ROW, True),
    "add_dense": (lambda x, y, d: x + d, lambda x, y, d: x + d, False),
    "div_dense": (lambda x, y, d: x / d, lambda x, y, d: x / d, False),
}


@pytest.mark.parametrize("chunk", chunkings(SHAPE))
@pytest.mark.parametrize("case", sorted(CASES))
def test_elementwise_matches_numpy_and_keeps_zeros_sparse(case, chunk):
    build, expect, sparse = CASES[case]
    m = sample(SHAPE)
    x = mt.tensor(m, chunk_size=chunk)
    y = mt.tensor(OTHER, chunk_size=chunk)
    d = mt.tensor(DENSE, chunk_size=chunk)
    with np.errstate(all="ignore"):
        expected = expect(m.toarray(), OTHER.toarray(), DENSE)
    check(build(x, y, d), expected, sparse=sparse)


def test_integer_sparse_tensors_keep_numpy_dtypes():
    m = sample(SHAPE, dtype="i8")
    x = mt.tensor(m, chunk_size=4)
    check(x * 3, m.toarray() * 3, sparse=True)
    check(x // 2, m.toarray() // 2, sparse=True)
    check(x / 2, m.toarray() / 2, sparse=True)
    check(x + x, m.toarray() * 2, sparse=True)


def test_sparse_and_dense_of_other_chunks_align():
    m = sample(SHAPE)
    x = mt.tensor(m, chunk_size=(4, 2))
    y = mt.tensor(OTHER, chunk_size=(3, 3))
    check(x + y, m.toarray() + OTHER.toarray(), sparse=True)
    check(x * mt.tensor(DENSE, chunk_size=(2, 4)), m.toarray() * DENSE, sparse=True)


def test_broadcasting_against_higher_dimensions_gives_dense():
    m = sample(SHAPE)
    cube = np.ones((2, *SHAPE))
    check(mt.tensor(m, chunk_size=3) * cube, m.toarray() * cube, sparse=False)


def test_broadcast_shapes_are_checked_at_the_call():
    x = mt.tensor(sample(SHAPE))
    with pytest.raises(ValueError, match="could not be broadcast"):
        x + np.ones((4, 4))


OPS = [
    (lambda a, b: a * b, np.multiply, True),
    (lambda a, b: a + b, np.add, True),
    (lambda a, b: a - 2 * b, lambda a, b: a - 2 * b, True),
    (lambda a, b: mt.hypot(a, b), np.hypot, True),
]


@settings(max_examples=15, deadline=None)
@given(
    rows=st.integers(1, 7),
    cols=st.integers(1, 7),
    density=st.sampled_from([0.0, 0.2, 1.0]),
    chunk=st.integers(1, 7),
    op=st.sampled_from(range(len(OPS))),
)
def test_binary_sparse_operations_over_shapes_and_chunks(rows, cols, density, chunk, op):
    build, expect, sparse = OPS[op]
    a, b = sample((rows, cols), density, seed=4), sample((rows, cols), density, seed=5)
    x, y = mt.tensor(a, chunk_size=chunk), mt.tensor(b, chunk_size=max(1, chunk - 1))
    check(build(x, y), expect(a.toarray(), b.toarray()), sparse=sparse)
