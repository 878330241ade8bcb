"""Reductions of sparse tensors against NumPy on the dense equivalents (dense results)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import chunkings
from tests.tensor.sparse.helpers import check, sample

SHAPE = (7, 5)
FUNCS = ["sum", "max", "min", "mean", "prod", "var", "argmax", "nansum", "any"]


CASES = [
    (name, axis)
    for name in FUNCS
    for axis in (None, 0, 1, (0, 1))
    if not (name == "argmax" and isinstance(axis, tuple))  # argmax takes one axis
]


@pytest.mark.parametrize("chunk", chunkings(SHAPE))
@pytest.mark.parametrize(("name", "axis"), CASES)
def test_reductions_match_numpy(name, axis, chunk):
    m = sample(SHAPE)
    x = mt.tensor(m, chunk_size=chunk)
    check(getattr(mt, name)(x, axis=axis), getattr(np, name)(m.toarray(), axis=axis), sparse=False)


@pytest.mark.parametrize("dtype", ["i4", "f4", "?"])
def test_sum_max_min_keep_numpy_dtypes(dtype):
    m = sample(SHAPE, dtype=dtype)
    x = mt.tensor(m, chunk_size=3)
    dense = m.toarray()
    for name in ("sum", "max", "min", "mean"):
        for axis in (None, 0, 1):
            expected = getattr(np, name)(dense, axis=axis)
            check(getattr(x, name)(axis=axis), expected, sparse=False, rtol=1e-5)
    check(
        x.sum(axis=0, dtype="f8", keepdims=True),
        dense.sum(0, dtype="f8", keepdims=True),
        sparse=False,
    )


def test_max_of_all_negative_values_counts_the_implicit_zeros():
    m = sample(SHAPE, density=0.2)
    m.data = -abs(m.data) - 1
    x = mt.tensor(m, chunk_size=2)
    check(x.max(axis=0), m.toarray().max(axis=0), sparse=False)
    check(x.min(), m.toarray().min(), sparse=False)


def test_empty_axis_raises_numpy_error_for_max():
    x = mt.tensor(sample((0, 3)))
    with pytest.raises(ValueError, match="zero-size array"):
        x.max(axis=0).execute()


@settings(max_examples=10, deadline=None)
@given(
    rows=st.integers(1, 8),
    cols=st.integers(1, 8),
    chunk=st.integers(1, 8),
    axis=st.sampled_from([None, 0, 1]),
    name=st.sampled_from(["sum", "max", "min", "mean"]),
)
def test_reductions_over_shapes_and_chunks(rows, cols, chunk, axis, name):
    m = sample((rows, cols), seed=rows * cols)
    x = mt.tensor(m, chunk_size=chunk)
    check(getattr(mt, name)(x, axis=axis), getattr(np, name)(m.toarray(), axis=axis), sparse=False)
