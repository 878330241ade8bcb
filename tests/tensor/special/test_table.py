"""Every ufunc of ``mt.special`` against ``scipy.special`` on the same data, over chunkings."""

import pickle
import re

import numpy as np
import pytest
import scipy.special as sc

import jupyter_mars.tensor as mt
from jupyter_mars.tensor.special import UFUNC_NAMES
from tests.conftest import assert_same, chunkings

SHAPE = (5, 6)


def _spheroidal(kind: str, coordinate: tuple[float, float], with_cv: bool):
    def make(rng, shape):
        m = rng.integers(0, 3, shape).astype(float)
        n = m + rng.integers(0, 2, shape)
        c = rng.uniform(0.1, 2, shape)
        x = rng.uniform(*coordinate, shape)
        if not with_cv:
            return [m, n, c, x]
        return [m, n, c, getattr(sc, f"{kind}_cv")(m, n, c), x]

    return make


def _integer_order(first: int, ranges: list[tuple[float, float]]):
    def make(rng, shape):
        order = rng.integers(first, first + 3, shape).astype(float)
        return [order, *(rng.uniform(lo, hi, shape) for lo, hi in ranges)]

    return make


# functions whose plain (0.1, 0.9) data lies outside their domain, where SciPy gives
# NaN everywhere: integer-valued orders, coordinates past 1, negative logs
DOMAINS = {
    "lpmv": _integer_order(0, [(0.5, 2), (-0.9, 0.9)]),
    "mathieu_a": _integer_order(0, [(0.1, 2)]),
    "mathieu_b": _integer_order(1, [(0.1, 2)]),
    "mathieu_cem": _integer_order(0, [(0.1, 2), (0, 90)]),
    "mathieu_sem": _integer_order(1, [(0.1, 2), (0, 90)]),
    "mathieu_modcem1": _integer_order(0, [(0.1, 2), (0.1, 1)]),
    "mathieu_modcem2": _integer_order(0, [(0.1, 2), (0.1, 1)]),
    "mathieu_modsem1": _integer_order(1, [(0.1, 2), (0.1, 1)]),
    "mathieu_modsem2": _integer_order(1, [(0.1, 2), (0.1, 1)]),
    "ndtri_exp": lambda rng, shape: [rng.uniform(-3, -0.1, shape)],
    **{
        f"{kind}_{part}{suffix}": _spheroidal(
            kind, (-0.9, 0.9) if part == "ang1" else (1.1, 2), suffix == "_cv"
        )
        for kind in ("obl", "pro")
        for part in ("ang1", "rad1", "rad2")
        for suffix in ("", "_cv")
    },
    "obl_cv": lambda rng, shape: _spheroidal("obl", (0, 1), False)(rng, shape)[:3],
    "pro_cv": lambda rng, shape: _spheroidal("pro", (0, 1), False)(rng, shape)[:3],
}


def operands(ufunc: np.ufunc, shape=SHAPE, seed=0) -> list[np.ndarray]:
    """Data for the ufunc's plainest loop: integers (1-3) where a loop takes ``long``,
    floats in (0.1, 0.9) where it takes ``double``, complex numbers where it needs them
    (or the function's own domain, ``DOMAINS``)."""
    rng = np.random.default_rng(seed)
    if ufunc.__name__ in DOMAINS:
        return DOMAINS[ufunc.__name__](rng, shape)
    loops = [t.split("->")[0] for t in ufunc.types if "g" not in t]
    real = [loop for loop in loops if set(loop) <= {"l", "d"}]
    loop = max(real, key=lambda codes: codes.count("l")) if real else loops[-1]
    data = []
    for code in loop:
        if code == "l":
            data.append(rng.integers(1, 4, shape))
        elif code in "df":
            data.append(rng.uniform(0.1, 0.9, shape))
        else:
            data.append(rng.uniform(0.1, 0.9, shape) + 1j * rng.uniform(0.1, 0.9, shape))
    return data


def test_the_table_holds_every_public_scipy_special_ufunc():
    public = {n for n in sc.__all__ if isinstance(getattr(sc, n), np.ufunc)}
    assert set(UFUNC_NAMES) == public
    assert len(UFUNC_NAMES) > 200
    assert all(callable(getattr(mt.special, n)) for n in mt.special.__all__)


@pytest.mark.parametrize("name", UFUNC_NAMES)
def test_every_special_ufunc_matches_scipy(name):
    ufunc = getattr(sc, name)
    data = operands(ufunc)
    expected = ufunc(*data)
    for values in expected if ufunc.nout > 1 else [expected]:
        assert np.isfinite(values).any(), "the test data lies outside the function's domain"
    # atol: a few Fortran routines (obl_rad2) differ in the last bits of subnormal results
    # from one thread to another
    for chunk in chunkings(SHAPE):
        tensors = [mt.tensor(d, chunk_size=chunk) for d in data]
        result = getattr(mt.special, name)(*tensors)
        if ufunc.nout == 1:
            assert_same(result, expected, rtol=1e-12, atol=1e-300)
        else:
            assert isinstance(result, tuple)
            assert len(result) == ufunc.nout
            result.execute()  # all outputs in one run, from one call per chunk
            for r, e in zip(result, expected):
                assert_same(r, e, rtol=1e-12, atol=1e-300)


CASTS = [np.bool_, np.int8, np.int32, np.float16, np.float32, np.complex64]


@pytest.mark.parametrize("name", UFUNC_NAMES)
def test_result_dtypes_are_scipys_for_every_input_dtype(name):
    ufunc = getattr(sc, name)
    base = operands(ufunc, shape=(3,))
    for dtype in CASTS:
        # integer operands stay integers: they are orders such as kn's n
        data = [
            d if d.dtype.kind in "iu" else (d if dtype is np.complex64 else d.real).astype(dtype)
            for d in base
        ]
        try:
            expected = ufunc(*(np.empty(0, d.dtype) for d in data))
        except TypeError:
            with pytest.raises(TypeError, match=name):
                getattr(mt.special, name)(*(mt.tensor(d) for d in data))
            continue
        result = getattr(mt.special, name)(*(mt.tensor(d) for d in data))
        if ufunc.nout == 1:
            assert result.dtype == expected.dtype, dtype
        else:
            assert [r.dtype for r in result] == [e.dtype for e in expected], dtype


_whichmodule = pickle.whichmodule


def _no_module_search(obj, name):
    if getattr(obj, "__module__", None) is None:
        raise AssertionError(f"pickle searched the loaded modules for {name}")
    return _whichmodule(obj, name)


def test_every_kernel_pickles_by_reference_and_keys_are_words_as_a_cluster_needs(
    monkeypatch,
):
    # a kernel holding a ufunc object (which has no __module__) would make pickle search
    # every loaded module for it, slowly, touching deprecated modules on the way; the
    # pure-Python pickler shows whether it does
    monkeypatch.setattr(pickle, "whichmodule", _no_module_search)
    for name in UFUNC_NAMES:
        ufunc = getattr(sc, name)
        result = getattr(mt.special, name)(*(mt.tensor(d) for d in operands(ufunc, (2,))))
        for tensor in result if ufunc.nout > 1 else [result]:
            # a remote session fetches a result at /tensors/<key>/data
            assert re.fullmatch(r"[\w-]+", tensor.key), tensor.key
            ops = [tensor.op, *(i.op for i in tensor.inputs)]
            assert all(pickle.loads(pickle._dumps(op)).label() == op.label() for op in ops)
