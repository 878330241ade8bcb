"""``reduce``, ``accumulate``, ``outer`` and ``at`` of ``mt``'s ufuncs, and NumPy's ufunc
methods called on tensors, against NumPy over three chunkings."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from jupyter_mars.tensor.gpu_kernels import NotOnGPU
from tests.conftest import assert_same, chunkings, gpu
from tests.tensor.conftest import on

X = np.arange(1, 25, dtype=np.float64).reshape(4, 6) / 5
INTS = np.arange(24).reshape(4, 6) % 7
# Bases and exponents near one, so that a row's chained powers stay finite.
NEAR_ONE = X / 4


@pytest.mark.parametrize("chunks", chunkings(X.shape))
@pytest.mark.parametrize(
    ("name", "data", "kwargs"),
    [
        ("add", X, {"axis": 0}),
        ("add", INTS, {"axis": None}),
        ("multiply", X, {"axis": (0, 1), "keepdims": True}),
        ("maximum", X, {"axis": 1}),
        ("bitwise_or", INTS, {"axis": 0, "dtype": np.int16}),
        ("logical_and", INTS, {"axis": 1}),
        ("add", INTS, {"axis": 1, "initial": 5}),
        ("subtract", X, {"axis": 1}),
        ("divide", X, {"axis": 0, "keepdims": True}),
        ("power", NEAR_ONE, {"axis": 1}),
    ],
)
def test_reduce(chunks, name, data, kwargs, xp):
    t = on(xp, mt.tensor(data, chunk_size=chunks))
    if gpu(xp) and name not in {"add", "multiply"}:
        with pytest.raises(NotOnGPU, match=rf"{name}\.reduce\(\) does not run on a GPU"):
            getattr(mt, name).reduce(t, **kwargs)
        return
    assert_same(getattr(mt, name).reduce(t, **kwargs), getattr(np, name).reduce(data, **kwargs))


@pytest.mark.parametrize("chunks", chunkings(X.shape))
@pytest.mark.parametrize(
    ("name", "data", "axis"),
    [("add", INTS, 0), ("multiply", X, 1), ("subtract", X, 1), ("maximum", X, 0), ("divide", X, 0)],
)
def test_accumulate(chunks, name, data, axis, xp):
    t = on(xp, mt.tensor(data, chunk_size=chunks))
    if gpu(xp) and name not in {"add", "multiply"}:
        with pytest.raises(NotOnGPU, match=rf"{name}\.accumulate\(\) does not run on a GPU"):
            getattr(mt, name).accumulate(t, axis=axis)
        return
    got = getattr(mt, name).accumulate(t, axis=axis)
    assert_same(got, getattr(np, name).accumulate(data, axis=axis))


@pytest.mark.parametrize("chunks", chunkings(X.shape))
def test_outer(chunks, xp):
    t = on(xp, mt.tensor(X, chunk_size=chunks))
    v = mt.tensor(X[0], chunk_size=2)
    assert_same(mt.multiply.outer(t, v), np.multiply.outer(X, X[0]))
    assert_same(mt.subtract.outer(v, [1, 2]), np.subtract.outer(X[0], [1, 2]))


@pytest.mark.parametrize("chunks", chunkings(X.shape))
@pytest.mark.parametrize(
    ("name", "index", "values"),
    [
        ("add", ([0, 0, 3, 1], [1, 1, 5, 0]), [1.0, 2.0, 3.0, 4.0]),
        ("subtract", [0, 0, 2], 1.5),
        ("multiply", (slice(1, 3), [2, 2]), 2.0),
        ("maximum", (np.array([3, 3]), np.array([0, 0])), np.array([9.0, 10.0])),
        ("negative", (1, slice(None, None, 2)), None),
    ],
)
def test_at_updates_in_place_with_repeated_indices(chunks, name, index, values, xp):
    expected = X.copy()
    t = on(xp, mt.tensor(X, chunk_size=chunks))
    args = () if values is None else (values,)
    if gpu(xp) and name not in {"add", "maximum", "minimum"}:
        with pytest.raises(NotOnGPU, match=rf"{name}\.at\(\) does not run on a GPU"):
            getattr(mt, name).at(t, index, *args)
        return
    getattr(np, name).at(expected, index, *args)
    assert getattr(mt, name).at(t, index, *args) is None
    assert_same(t, expected)


def test_numpy_ufunc_methods_dispatch_to_tensors():
    t = mt.tensor(X, chunk_size=(3, 4))
    assert_same(np.add.reduce(t, axis=1), np.add.reduce(X, axis=1))
    assert_same(np.add.accumulate(t, axis=0), np.add.accumulate(X, axis=0))
    assert_same(np.multiply.outer(t, t[0]), np.multiply.outer(X, X[0]))
    expected = X.copy()
    np.add.at(expected, [0, 0], 1)
    np.add.at(t, [0, 0], 1)
    assert_same(t, expected)


def test_errors_are_numpys_at_the_call():
    t = mt.tensor(X, chunk_size=3)
    with pytest.raises(ValueError, match="reduce only supported for binary functions"):
        mt.sqrt.reduce(t)
    with pytest.raises(ValueError, match="not reorderable"):
        mt.subtract.reduce(t, axis=None)
    with pytest.raises(IndexError, match="out of bounds"):
        mt.add.at(t, [7], 1)
    with pytest.raises(ValueError, match="outer product only supported for binary"):
        mt.sqrt.outer(t, t)


def test_reduce_out():
    t = mt.tensor(X, chunk_size=3)
    out = mt.zeros(6, dtype=np.float32)
    assert mt.add.reduce(t, axis=0, out=out) is out
    assert_same(out, np.add.reduce(X, axis=0).astype(np.float32))


@settings(max_examples=10)
@given(
    shape=st.lists(st.integers(1, 5), min_size=1, max_size=3),
    chunk=st.integers(1, 4),
    data=st.data(),
)
def test_add_reduce_and_accumulate_over_any_shape(shape, chunk, data):
    x = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape) - 3
    axis = data.draw(st.integers(0, len(shape) - 1))
    t = mt.tensor(x, chunk_size=chunk)
    assert_same(mt.add.reduce(t, axis=axis), np.add.reduce(x, axis=axis))
    assert_same(mt.subtract.accumulate(t, axis=axis), np.subtract.accumulate(x, axis=axis))


def test_at_on_a_zero_dimensional_tensor():
    expected = np.array(3.0)
    np.add.at(expected, (), 2)
    t = mt.tensor(np.array(3.0))
    mt.add.at(t, (), 2)
    assert_same(t, expected)
