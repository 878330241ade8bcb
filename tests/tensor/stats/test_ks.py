"""``ks_1samp``, ``ks_2samp`` and ``rankdata`` against SciPy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.stats as sps
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.stats.helpers import RNG, assert_result

X = RNG.normal(size=(12, 3))
Y = RNG.normal(size=(9, 3)) + 0.5
EXTRAS = ("statistic_location", "statistic_sign")


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
@pytest.mark.parametrize("method", ["auto", "exact", "asymp"])
def test_ks_tests(alternative: str, method: str) -> None:
    kwargs: dict[str, Any] = {"alternative": alternative, "method": method}
    for chunks in chunkings(X.shape):
        x = mt.tensor(X, chunk_size=chunks)
        assert_result(
            mt.stats.ks_1samp(x, sps.norm.cdf, **kwargs),
            sps.ks_1samp(X, sps.norm.cdf, **kwargs),
            EXTRAS,
        )
        assert_result(mt.stats.ks_2samp(x, Y, **kwargs), sps.ks_2samp(X, Y, **kwargs), EXTRAS)


def test_ks_axes_args_and_nans() -> None:
    x = mt.tensor(X, chunk_size=5)
    assert_result(
        mt.stats.ks_1samp(x, sps.norm.cdf, args=(0.5, 2), axis=1),
        sps.ks_1samp(X, sps.norm.cdf, args=(0.5, 2), axis=1),
        EXTRAS,
    )
    assert_result(mt.stats.ks_2samp(x[:, 0], Y[:, 1]), sps.ks_2samp(X[:, 0], Y[:, 1]), EXTRAS)
    assert_result(
        mt.stats.ks_2samp(x, Y[:, :1], keepdims=True),
        sps.ks_2samp(X, Y[:, :1], keepdims=True),
        EXTRAS,
    )
    assert_result(mt.stats.ks_2samp(x, Y, axis=None), sps.ks_2samp(X, Y, axis=None), EXTRAS)
    nan = X.copy()
    nan[3, 1] = np.nan
    result = mt.stats.ks_1samp(mt.tensor(nan, chunk_size=4), sps.norm.cdf, nan_policy="omit")
    expected = sps.ks_1samp(nan, sps.norm.cdf, nan_policy="omit")
    assert_result(result, expected, ("statistic_location",))
    # SciPy's sign is float64 when NaNs were left out, int8 otherwise: the data decides
    np.testing.assert_array_equal(result.statistic_sign.fetch(), expected.statistic_sign)
    with pytest.raises(ValueError, match="nan"):
        mt.stats.ks_2samp(nan, Y, nan_policy="raise").execute()


def test_bad_arguments_fail_at_the_call() -> None:
    with pytest.raises(ValueError, match="alternative"):
        mt.stats.ks_1samp(X, sps.norm.cdf, alternative="both")
    with pytest.raises(ValueError, match="mode"):
        mt.stats.ks_2samp(X, Y, method="fast")
    with pytest.raises(ValueError, match="nan_policy"):
        mt.stats.ks_2samp(X, Y, nan_policy="skip")
    with pytest.raises(np.exceptions.AxisError):
        mt.stats.ks_2samp(X, Y, axis=3)
    with pytest.raises(ValueError, match="unknown method"):
        mt.stats.rankdata(X, "middle")


@pytest.mark.parametrize("method", ["average", "min", "max", "dense", "ordinal"])
def test_rankdata(method: str) -> None:
    data = RNG.integers(0, 5, size=(7, 4))
    for chunks in chunkings(data.shape):
        t = mt.tensor(data, chunk_size=chunks)
        for axis in (None, 0, 1, -1):
            assert_same(
                mt.stats.rankdata(t, method, axis=axis), sps.rankdata(data, method, axis=axis)
            )
    nan = X.copy()
    nan[2, 0] = np.nan
    assert_same(
        mt.stats.rankdata(nan, axis=0, nan_policy="omit"),
        sps.rankdata(nan, axis=0, nan_policy="omit"),
    )
    assert_same(mt.stats.rankdata(nan, axis=0), sps.rankdata(nan, axis=0))


@settings(max_examples=10)
@given(st.integers(1, 9), st.integers(1, 7), st.integers(1, 3), st.integers(1, 4))
def test_ks_2samp_shapes(n1: int, n2: int, cols: int, chunk: int) -> None:
    a = RNG.normal(size=(n1, cols))
    b = RNG.normal(size=(n2, cols))
    result = mt.stats.ks_2samp(mt.tensor(a, chunk_size=chunk), mt.tensor(b, chunk_size=chunk))
    assert_result(result, sps.ks_2samp(a, b), EXTRAS)


@settings(max_examples=10)
@given(
    st.integers(1, 30),
    st.integers(1, 3),
    st.integers(1, 8),
    st.sampled_from(["two-sided", "less", "greater"]),
    st.booleans(),
)
def test_ks_1samp_shapes_and_ties(
    n: int, cols: int, chunk: int, alternative: str, ties: bool
) -> None:
    x = RNG.normal(size=(n, cols))
    if ties:
        x = np.round(x, 1).astype(np.float32)
    result = mt.stats.ks_1samp(
        mt.tensor(x, chunk_size=chunk), sps.norm.cdf, alternative=alternative
    )
    assert_result(result, sps.ks_1samp(x, sps.norm.cdf, alternative=alternative), EXTRAS, rtol=1e-6)


def test_ks_1samp_three_dims_and_integers() -> None:
    x = RNG.normal(size=(4, 9, 3))
    for axis in (0, 1, -1, None):
        assert_result(
            mt.stats.ks_1samp(mt.tensor(x, chunk_size=2), sps.norm.cdf, axis=axis),
            sps.ks_1samp(x, sps.norm.cdf, axis=axis),
            EXTRAS,
        )
    ints = RNG.integers(-3, 3, size=25)
    assert_result(
        mt.stats.ks_1samp(mt.tensor(ints, chunk_size=6), sps.norm.cdf),
        sps.ks_1samp(ints, sps.norm.cdf),
        EXTRAS,
    )


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_ks_2samp_over_parallel_sorts(alternative: str) -> None:
    # 1-d samples tested asymptotically: sorted in parallel rather than gathered
    a, b = np.round(X[:, 0], 1), np.round(Y[:, 1], 1)
    for chunks in chunkings(a.shape):
        result = mt.stats.ks_2samp(
            mt.tensor(a, chunk_size=chunks), b, alternative=alternative, method="asymp"
        )
        expected = sps.ks_2samp(a, b, alternative=alternative, method="asymp")
        assert_result(result, expected, EXTRAS)
    # "auto" is asymptotic past 10,000 values, in SciPy too
    big = RNG.normal(size=10_050)
    small = RNG.normal(size=300, loc=0.1).astype(np.float32)
    assert_result(
        mt.stats.ks_2samp(mt.tensor(big, chunk_size=2_500), small, alternative=alternative),
        sps.ks_2samp(big, small, alternative=alternative),
        EXTRAS,
    )
    with pytest.raises(ValueError, match="nan"):
        mt.stats.ks_2samp(np.r_[a, np.nan], b, method="asymp", nan_policy="raise").execute()


def test_marss_mode_keyword() -> None:
    assert_result(mt.stats.ks_2samp(X, Y, mode="asymp"), sps.ks_2samp(X, Y, method="asymp"), EXTRAS)
    assert_result(
        mt.stats.ks_1samp(X, sps.norm.cdf, mode="asymp"),
        sps.ks_1samp(X, sps.norm.cdf, method="asymp"),
        EXTRAS,
    )
