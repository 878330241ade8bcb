"""Arguments of the ``mt.special`` ufuncs: broadcasting, scalars, dtypes, ``out=``/``where=``
and the errors raised at the call, each as ``scipy.special`` has them."""

import numpy as np
import pytest
import scipy.special as sc
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import assert_same

RNG = np.random.default_rng(3)

BROADCASTING = [("jv", 2), ("xlogy", 2), ("betainc", 3), ("hyp2f1", 4)]


@settings(max_examples=15)
@given(st.data())
def test_broadcasting_several_operands_with_any_chunking(data):
    name, nin = data.draw(st.sampled_from(BROADCASTING))
    ndim = data.draw(st.integers(1, 3))
    shape = tuple(data.draw(st.integers(1, 4)) for _ in range(ndim))
    arrays, tensors = [], []
    for _ in range(nin):
        own = tuple(1 if data.draw(st.booleans()) else n for n in shape)
        own = own[data.draw(st.integers(0, ndim)) :]
        a = RNG.uniform(0.1, 0.9, own)
        chunk = tuple(data.draw(st.integers(1, n)) for n in own) if own else None
        arrays.append(a)
        tensors.append(mt.tensor(a, chunk_size=chunk))
    assert_same(getattr(mt.special, name)(*tensors), getattr(sc, name)(*arrays))


def test_scalars_arrays_and_lists_mix_with_tensors():
    x = RNG.uniform(0.1, 2, (3, 4))
    t = mt.tensor(x, chunk_size=2)
    assert_same(mt.special.jv(1.5, t), sc.jv(1.5, x))
    assert_same(mt.special.xlogy(t, 2), sc.xlogy(x, 2))
    assert_same(mt.special.jv(np.arange(4), t), sc.jv(np.arange(4), x))
    assert_same(mt.special.erf([0.1, 0.2]), sc.erf([0.1, 0.2]))
    assert_same(mt.special.erf(mt.tensor(0.5)), sc.erf(0.5))
    assert_same(mt.special.gamma(3), sc.gamma(3))


def test_several_outputs_from_scalars_and_a_0d_tensor():
    for got, expected in zip(mt.special.airy(0.5), sc.airy(0.5)):
        assert_same(got, expected)
    for got, expected in zip(mt.special.sici(mt.tensor(2.0)), sc.sici(2.0)):
        assert_same(got, expected)


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("erf", (np.float32(0.5),)),
        ("erf", (np.ones(3, np.float32),)),
        ("erf", (np.ones(3, np.int8),)),
        ("erf", (np.ones(3, np.float16),)),
        ("jv", (1, np.ones(3, np.float32))),
        ("jv", (np.float64(1), np.ones(3, np.float32))),
        ("jv", (np.ones(3, np.int32), np.ones(3, np.float32))),
        ("hankel1", (1.0, np.ones(3, np.float32))),
        ("modfresnelp", (np.ones(3, np.float32),)),
        ("kn", (np.ones(3, np.int64), np.ones(3))),
        ("gammaln", (np.ones(3, bool),)),
    ],
)
def test_result_dtype_follows_scipy_and_python_scalars_are_weak(name, args):
    expected = getattr(sc, name)(*args)
    wrapped = [mt.tensor(a) if isinstance(a, np.ndarray) else a for a in args]
    got = getattr(mt.special, name)(*wrapped)
    if isinstance(expected, tuple):
        for g, e in zip(got, expected):
            assert_same(g, e)
    else:
        assert_same(got, expected)


def test_ufunc_keywords_pass_through():
    x = RNG.uniform(0.1, 2, 5)
    got = mt.special.erf(mt.tensor(x), dtype=np.float32)
    assert_same(got, sc.erf(x, dtype=np.float32))
    with pytest.raises(TypeError):
        mt.special.erf(mt.tensor(x), no_such_keyword=1)
    with pytest.raises(TypeError, match=r"erfinv\(\): argument 'y' has dtype complex128"):
        mt.special.erfinv(mt.tensor(x + 1j), casting="unsafe")


def test_tensors_of_unknown_length():
    x = np.linspace(-1, 1, 10)
    t = mt.tensor(x, chunk_size=3)
    positive = t[t > 0]
    assert_same(mt.special.erf(positive), sc.erf(x[x > 0]))
    out = positive * 0
    mt.special.erf(positive, out=out, where=positive > 0.5)
    assert_same(out, np.where(x[x > 0] > 0.5, sc.erf(x[x > 0]), 0.0))
    airy = mt.special.airy(positive).execute()
    for got, expected in zip(airy, sc.airy(x[x > 0])):
        assert_same(got, expected)


def test_out_is_a_tensor_rebound_to_the_result():
    x = RNG.uniform(0.1, 2, (3, 4))
    out = mt.zeros((3, 4), chunk_size=2)
    result = mt.special.erf(mt.tensor(x, chunk_size=3), out=out)
    assert result is out
    assert_same(out, sc.erf(x))
    wide = mt.ones((2, 3, 4), dtype=np.float32)  # the inputs broadcast to out's shape
    mt.special.gammaln(mt.tensor(x), wide)  # positional out, as SciPy takes it
    assert_same(wide, np.broadcast_to(sc.gammaln(x), (2, 3, 4)).astype(np.float32))


def test_where_keeps_out_where_false_and_broadcasts():
    x = RNG.uniform(0.1, 2, (3, 4))
    mask = x > 1
    out_data = np.full((3, 4), -1.0)
    # not sc.erf(x, out=..., where=mask): SciPy 1.17 gets that one wrong
    expected = np.where(mask, sc.erf(x), out_data)
    out = mt.tensor(out_data, chunk_size=2)
    assert_same(mt.special.erf(mt.tensor(x, chunk_size=3), out=out, where=mask), expected)
    row_mask = np.array([True, False, True, False])
    out2 = mt.tensor(np.zeros((3, 4)))
    mt.special.erf(mt.tensor(x), out=out2, where=mt.tensor(row_mask))
    assert_same(out2, np.where(row_mask, sc.erf(x), 0.0))
    # without out, NumPy leaves the masked-out elements uninitialised: here they are 0
    assert_same(mt.special.erf(mt.tensor(x), where=mask), np.where(mask, sc.erf(x), 0.0))


def test_out_tuple_for_several_outputs():
    x = RNG.uniform(0.1, 2, 5)
    second = mt.zeros(5)
    s, c = mt.special.fresnel(mt.tensor(x, chunk_size=2), out=(None, second))
    assert c is second
    assert_same(s, sc.fresnel(x)[0])
    assert_same(second, sc.fresnel(x)[1])


def test_bad_out_and_where_raise_numpys_errors_at_the_call():
    t = mt.tensor(np.ones((2, 3)))
    with pytest.raises(TypeError, match="'out' must be a tensor"):
        mt.special.erf(t, out=np.empty((2, 3)))
    with pytest.raises(ValueError, match="non-broadcastable output operand with shape"):
        mt.special.erf(t, out=mt.zeros(3))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'erf' output from"):
        mt.special.erf(t, out=mt.zeros((2, 3), dtype=int))
    with pytest.raises(TypeError, match="'where' must be boolean"):
        mt.special.erf(t, out=mt.zeros((2, 3)), where=np.ones(3))
    with pytest.raises(ValueError, match="exactly one entry per ufunc output"):
        mt.special.fresnel(t, out=(mt.zeros((2, 3)),))
    with pytest.raises(TypeError, match="'out' must be a tuple of 2 tensors"):
        mt.special.fresnel(t, out=mt.zeros((2, 3)))
    with pytest.raises(TypeError, match="both a positional and keyword"):
        mt.special.erf(t, mt.zeros((2, 3)), out=mt.zeros((2, 3)))


def test_bad_arguments_raise_scipys_errors_at_the_call():
    t = mt.tensor(np.ones((2, 3)))
    with pytest.raises(TypeError, match=r"jv\(\) takes 2 positional arguments \(v, z\) but 1"):
        mt.special.jv(t)
    with pytest.raises(TypeError, match=r"erf\(\) takes 1 positional argument \(z\) but 0"):
        mt.special.erf()
    with pytest.raises(TypeError, match=r"erfinv\(\): argument 'y' has dtype complex128"):
        mt.special.erfinv(t * 1j)
    with pytest.raises(TypeError, match=r"jv\(\): argument 'z' has dtype <U1"):
        mt.special.jv(1, np.array(["a"]))
    with pytest.raises(TypeError, match=r"jn\(\): argument 'v'"):
        mt.special.jn(t * 1j, t)  # an alias names itself, not the ufunc it shares
    with pytest.raises(ValueError, match="could not be broadcast together"):
        mt.special.xlogy(t, mt.tensor(np.ones(4)))
