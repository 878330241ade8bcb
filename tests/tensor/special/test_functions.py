"""The functions SciPy writes in Python (polygamma, multigammaln, zeta, the ellipsoidal
harmonics) against ``scipy.special``, over chunkings; and the names Mars exposes."""

import warnings

import numpy as np
import pytest
import scipy.special as sc

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings

RNG = np.random.default_rng(7)
SHAPE = (4, 5)

# mars.tensor.special's public names ("scipy", the module it imports, left out)
MARS_NAMES = (
    "airy airye beta betainc betaincinv betaln dawsn digamma ellip_harm ellip_harm_2 "
    "ellip_normal ellipe ellipeinc ellipk ellipkinc ellipkm1 elliprc elliprd elliprf elliprg "
    "elliprj entr erf erfc erfcinv erfcx erfi erfinv fresnel gamma gammainc gammaincc "
    "gammainccinv gammaincinv gammaln gammasgn hankel1 hankel1e hankel2 hankel2e hyp0f1 "
    "hyp1f1 hyp2f1 hyperu itairy iv ive jv jve kl_div kn kv kve loggamma modfresnelm "
    "modfresnelp multigammaln poch polygamma psi rel_entr rgamma voigt_profile wofz xlogy "
    "yn yv yve"
).split()


def test_every_mars_special_name_exists():
    missing = [n for n in MARS_NAMES if n not in mt.special.__all__]
    assert missing == []
    assert all(callable(getattr(mt.special, n)) for n in MARS_NAMES)


def _check(func, scipy_func, arrays, *scalars):
    """``func`` on tensors of ``arrays`` (then ``scalars``) equals SciPy's on the arrays."""
    expected = scipy_func(*arrays, *scalars)
    for chunk in chunkings(SHAPE):
        tensors = [mt.tensor(a, chunk_size=chunk) for a in arrays]
        assert_same(func(*tensors, *scalars), expected)


def test_polygamma_matches_scipy():
    n = RNG.integers(0, 4, SHAPE)
    x = RNG.uniform(0.5, 3, SHAPE)
    _check(mt.special.polygamma, sc.polygamma, [n, x])
    assert_same(mt.special.polygamma(2, mt.tensor(x, chunk_size=2)), sc.polygamma(2, x))
    x32 = x.astype(np.float32)
    assert mt.special.polygamma(1, mt.tensor(x32)).dtype == sc.polygamma(1, x32).dtype


def test_multigammaln_matches_scipy():
    a = RNG.uniform(2, 6, SHAPE)
    for d in (1, 3):
        expected = sc.multigammaln(a, d)
        for chunk in chunkings(SHAPE):
            assert_same(mt.special.multigammaln(mt.tensor(a, chunk_size=chunk), d), expected)


def test_zeta_riemann_and_hurwitz_match_scipy():
    x = RNG.uniform(1.5, 4, SHAPE)
    q = RNG.uniform(0.5, 2, SHAPE)
    _check(mt.special.zeta, sc.zeta, [x])
    _check(mt.special.zeta, sc.zeta, [x, q])
    assert_same(mt.special.zeta(mt.tensor(x, chunk_size=3), 2.0), sc.zeta(x, 2.0))


def test_ellip_harm_matches_scipy():
    s = RNG.uniform(2.5, 4, SHAPE)
    n = RNG.integers(1, 4, SHAPE)
    expected = sc.ellip_harm(5.0, 8.0, n, 1, s)
    for chunk in chunkings(SHAPE):
        args = [mt.tensor(n, chunk_size=chunk), 1, mt.tensor(s, chunk_size=chunk)]
        assert_same(mt.special.ellip_harm(5.0, 8.0, *args), expected)
    assert_same(
        mt.special.ellip_harm(5.0, 8.0, 2, 1, mt.tensor(s), signm=-1, signn=-1),
        sc.ellip_harm(5.0, 8.0, 2, 1, s, signm=-1, signn=-1),
    )


def test_ellip_harm_2_and_ellip_normal_match_scipy():
    # each element is a numerical integration: few elements, and quad's accuracy
    # warnings are SciPy's own
    s = np.array([[2.5, 3.0], [10.0, 4.0]])
    h2 = np.array([[5.0, 4.0], [5.0, 3.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for chunk in chunkings(s.shape):
            assert_same(
                mt.special.ellip_harm_2(5.0, 8.0, 2, 1, mt.tensor(s, chunk_size=chunk)),
                sc.ellip_harm_2(5.0, 8.0, 2, 1, s),
            )
            assert_same(
                mt.special.ellip_normal(mt.tensor(h2, chunk_size=chunk), 8.0, 3, 2),
                sc.ellip_normal(h2, 8.0, 3, 2),
            )


def test_python_functions_reject_bad_input_at_the_call():
    t = mt.tensor(RNG.uniform(2, 3, SHAPE))
    with pytest.raises(TypeError, match="polygamma\\(\\): argument 'x' must be numeric"):
        mt.special.polygamma(1, "a")
    with pytest.raises(TypeError, match="ellip_harm\\(\\): argument 's' must be numeric"):
        mt.special.ellip_harm(5.0, 8.0, 1, 1, np.array(["x"]))
    with pytest.raises(ValueError, match="d should be a positive integer"):
        mt.special.multigammaln(t, 2.5)
    with pytest.raises(ValueError, match="d should be a positive integer"):
        mt.special.multigammaln(t, mt.tensor([1, 2]))
    with pytest.raises(ValueError, match=r"condition a .* > 0\.5 \* \(d-1\)"):
        mt.special.multigammaln(np.full(3, 0.5), 3)
    with pytest.raises(TypeError, match="zeta\\(\\): argument 'q' must be numeric"):
        mt.special.zeta(t, "2")
    with pytest.raises(ValueError, match="could not be broadcast"):
        mt.special.polygamma(mt.tensor(np.ones(3, int)), mt.tensor(np.ones(4)))


def test_multigammaln_checks_a_tensor_when_its_chunks_run():
    lazy = mt.special.multigammaln(mt.tensor(np.full(3, 0.5)), 3)
    with pytest.raises(ValueError, match=r"condition a .* not met"):
        lazy.execute()
