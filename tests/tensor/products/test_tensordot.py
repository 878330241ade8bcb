"""``tensordot`` against NumPy over chunkings and Hypothesis-chosen axes, and bad ``axes``."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import chunkings
from tests.tensor.conftest import on
from tests.tensor.products.helpers import check, chunk_for, sample


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
def test_tensordot_matches_numpy_over_chunkings(shape_a, shape_b, axes, xp):
    a, b = sample(shape_a), sample(shape_b)
    for ca in chunkings(shape_a):
        for cb in chunkings(shape_b):
            ta, tb = on(xp, mt.tensor(a, chunk_size=ca)), on(xp, mt.tensor(b, chunk_size=cb))
            got = mt.tensordot(ta, tb, axes)
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
    a, b = sample(tuple(shape)), sample(shape_b)
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
