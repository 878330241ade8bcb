"""Every NumPy ufunc and Python operator against NumPy, over several chunkings."""

import operator
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from jupyter_mars.tensor.gpu_kernels import NotOnGPU
from jupyter_mars.tensor.ufuncs import UFUNC_NAMES
from tests.conftest import assert_same, chunkings, gpu
from tests.tensor.conftest import on

RNG = np.random.default_rng(42)
SHAPE = (5, 6)


def _operand(ufunc: np.ufunc, i: int) -> np.ndarray:
    """Input data valid for the ufunc's first loop type."""
    types = [t for t in ufunc.types if "O" not in t and "M" not in t and "m" not in t]
    code = types[-1 if ufunc.__name__ in {"ldexp"} else 0][i] if types else "d"
    for candidate in ufunc.types:
        if candidate[i] in "d":
            code = "d"
            break
    dtype = np.dtype(code)
    if dtype.kind == "b":
        return RNG.random(SHAPE) > 0.5
    if dtype.kind in "iu":
        return RNG.integers(1, 6, SHAPE).astype(dtype)
    if dtype.kind == "f":
        return RNG.uniform(0.1, 0.9, SHAPE).astype(dtype)
    if dtype.kind == "c":
        return (RNG.random(SHAPE) + 1j * RNG.random(SHAPE)).astype(dtype)
    return RNG.random(SHAPE).astype(dtype)


@pytest.mark.parametrize("name", UFUNC_NAMES)
def test_every_ufunc_matches_numpy(name, xp):
    ufunc = getattr(np, name)
    data = [_operand(ufunc, i) for i in range(ufunc.nin)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            expected = ufunc(*data)
        except TypeError:
            pytest.skip(f"numpy.{name} has no loop for these inputs")
    if gpu(xp) and not hasattr(xp, name):
        with pytest.raises(NotOnGPU, match=rf"{name}\(\) does not run on a GPU.*to_cpu"):
            getattr(mt, name)(*(on(xp, mt.tensor(d)) for d in data))
        return
    for chunk in chunkings(SHAPE):
        # on a GPU: the first input there, the others read from host memory
        tensors = [mt.tensor(d, chunk_size=chunk) for d in data]
        tensors[0] = on(xp, tensors[0])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = getattr(mt, name)(*tensors)
            if ufunc.nout == 1:
                assert_same(result, expected)
            else:
                for r, e in zip(result, expected):
                    assert_same(r, e)


BINARY = [
    operator.add,
    operator.sub,
    operator.mul,
    operator.truediv,
    operator.floordiv,
    operator.mod,
    operator.pow,
    operator.lt,
    operator.le,
    operator.gt,
    operator.ge,
    operator.eq,
    operator.ne,
]


@pytest.mark.parametrize("op", BINARY, ids=lambda f: f.__name__)
def test_python_operators_match_numpy(op, xp):
    a = RNG.uniform(1, 3, SHAPE)
    b = RNG.uniform(1, 3, SHAPE)
    for chunk in chunkings(SHAPE):
        ta, tb = on(xp, mt.tensor(a, chunk_size=chunk)), mt.tensor(b, chunk_size=2)
        assert_same(op(ta, tb), op(a, b))
        assert_same(op(ta, 2), op(a, 2))
        assert_same(op(2, ta), op(2, a))
        assert_same(op(ta, b), op(a, b))


@pytest.mark.parametrize(
    "op",
    [operator.and_, operator.or_, operator.xor, operator.lshift, operator.rshift],
    ids=lambda f: f.__name__,
)
def test_bitwise_operators_match_numpy(op):
    a = RNG.integers(0, 8, SHAPE)
    b = RNG.integers(0, 3, SHAPE)
    assert_same(op(mt.tensor(a, chunk_size=2), mt.tensor(b, chunk_size=3)), op(a, b))


def test_unary_operators_match_numpy():
    a = RNG.integers(-5, 5, SHAPE)
    t = mt.tensor(a, chunk_size=2)
    assert_same(-t, -a)
    assert_same(+t, +a)
    assert_same(abs(t), abs(a))
    assert_same(~t, ~a)
    q, r = divmod(t, 3)
    assert_same(q, a // 3)
    assert_same(r, a % 3)


@pytest.mark.parametrize(
    ("left", "right"),
    [
        (np.int8, np.int64),
        (np.int32, np.float32),
        (np.uint8, np.int8),
        (np.bool_, np.int16),
        (np.float32, np.complex64),
        (np.int64, np.float16),
    ],
)
def test_dtype_promotion_matches_numpy(left, right):
    a = np.ones(SHAPE, dtype=left)
    b = np.ones(SHAPE, dtype=right)
    result = mt.tensor(a, chunk_size=2) + mt.tensor(b, chunk_size=3)
    assert result.dtype == (a + b).dtype
    assert_same(result, a + b)


def test_python_scalars_promote_weakly_like_numpy():
    a = np.ones(4, dtype=np.float32)
    assert (mt.tensor(a) * 2.5).dtype == (a * 2.5).dtype == np.float32
    assert (mt.tensor(np.ones(3, np.int8)) + 1).dtype == np.int8


@given(st.data())
def test_broadcasting_with_any_chunking(data):
    ndim = data.draw(st.integers(1, 3))
    shape = tuple(data.draw(st.integers(1, 5)) for _ in range(ndim))
    other = tuple(1 if data.draw(st.booleans()) else n for n in shape)
    other = other[data.draw(st.integers(0, ndim)) :]
    a = RNG.random(shape)
    b = RNG.random(other)
    ca = tuple(data.draw(st.integers(1, n)) for n in shape)
    cb = tuple(data.draw(st.integers(1, n)) for n in other) if other else None
    assert_same(mt.tensor(a, chunk_size=ca) * mt.tensor(b, chunk_size=cb) - 1, a * b - 1)


def test_broadcast_mismatch_is_a_value_error_at_build_time():
    with pytest.raises(
        ValueError, match=r"could not be broadcast together with shapes \(3,\) \(4,\)"
    ):
        mt.tensor(np.ones(3)) + mt.tensor(np.ones(4))


def test_ufunc_rejects_numpy_out_and_wrong_arity():
    t = mt.tensor(np.ones(3))
    # a lazy result cannot be written into a NumPy array
    with pytest.raises(TypeError, match="'out' must be a tensor"):
        mt.add(t, t, out=np.empty(3))
    with pytest.raises(TypeError, match="takes 2 positional"):
        mt.add(t)


def test_numpy_ufunc_on_tensor_stays_lazy():
    t = mt.tensor(np.arange(4.0), chunk_size=2)
    result = np.sqrt(t) + np.add(t, 1)
    assert isinstance(result, mt.Tensor)
    assert_same(result, np.sqrt(np.arange(4.0)) + np.arange(4.0) + 1)


def test_unsupported_operand_type_raises_type_error():
    with pytest.raises(TypeError):
        mt.tensor(np.ones(2)) + object()
