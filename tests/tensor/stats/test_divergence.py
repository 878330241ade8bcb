"""``entropy``, ``power_divergence`` and ``chisquare`` against SciPy."""

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

P = RNG.random((5, 4))
Q = RNG.random((5, 4))
F = RNG.integers(1, 20, size=(6, 3))


@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_entropy(axis: Any) -> None:
    for chunks in chunkings(P.shape):
        p = mt.tensor(P, chunk_size=chunks)
        assert_same(mt.stats.entropy(p, axis=axis), sps.entropy(P, axis=axis))
        assert_same(mt.stats.entropy(p, Q, base=2, axis=axis), sps.entropy(P, Q, base=2, axis=axis))


def test_entropy_dtypes_broadcasting_nans_and_errors() -> None:
    p32 = P.astype(np.float32)
    assert_same(mt.stats.entropy(p32), sps.entropy(p32), rtol=1e-6)
    assert_same(mt.stats.entropy([1, 2, 3]), sps.entropy([1, 2, 3]))
    assert_same(mt.stats.entropy(P, Q[:1]), sps.entropy(P, Q[:1]))
    assert_same(mt.stats.entropy(P, keepdims=True), sps.entropy(P, keepdims=True))
    p = P.copy()
    p[1, 2] = np.nan
    assert_same(mt.stats.entropy(p, Q), sps.entropy(p, Q))
    assert_same(
        mt.stats.entropy(mt.tensor(p, chunk_size=2), Q, nan_policy="omit"),
        sps.entropy(p, Q, nan_policy="omit"),
    )
    with pytest.raises(ValueError, match="`base` must be a positive number"):
        mt.stats.entropy(P, base=-1)
    with pytest.raises(ValueError, match="could not be broadcast"):
        mt.stats.entropy(P, Q[:3])


@pytest.mark.parametrize(
    "lambda_", [None, "log-likelihood", "mod-log-likelihood", "neyman", "cressie-read", 0.3]
)
def test_power_divergence(lambda_: Any) -> None:
    expected_freq = np.broadcast_to(F.sum(axis=0) / F.shape[0], F.shape)
    for chunks in chunkings(F.shape):
        f = mt.tensor(F, chunk_size=chunks)
        for f_exp in (None, expected_freq):
            assert_result(
                mt.stats.power_divergence(f, f_exp, lambda_=lambda_),
                sps.power_divergence(F, f_exp, lambda_=lambda_),
            )
        assert_result(
            mt.stats.power_divergence(f, ddof=1, axis=1, lambda_=lambda_),
            sps.power_divergence(F, ddof=1, axis=1, lambda_=lambda_),
        )


def test_chisquare() -> None:
    for chunks in chunkings(F.shape):
        f = mt.tensor(F, chunk_size=chunks)
        assert_result(mt.stats.chisquare(f), sps.chisquare(F))
        assert_result(mt.stats.chisquare(f, axis=None, ddof=2), sps.chisquare(F, axis=None, ddof=2))
        ddof = np.array([0, 1, 2])
        assert_result(mt.stats.chisquare(f, ddof=ddof), sps.chisquare(F, ddof=ddof))
    f32 = F.astype(np.float32)
    assert_result(mt.stats.chisquare(f32), sps.chisquare(f32), rtol=1e-5)
    assert_result(mt.stats.chisquare(F, keepdims=True), sps.chisquare(F, keepdims=True))
    f = F.astype(float)
    f[1, 1] = np.nan
    assert_result(
        mt.stats.chisquare(mt.tensor(f, chunk_size=2), nan_policy="omit"),
        sps.chisquare(f, nan_policy="omit"),
    )
    assert_result(mt.stats.chisquare(f), sps.chisquare(f))


def test_power_divergence_checks() -> None:
    with pytest.raises(ValueError, match="invalid string for lambda_"):
        mt.stats.power_divergence(F, lambda_="pearsons")
    # the sums of the frequencies are data: compared when executed, unless asked not to
    with pytest.raises(ValueError, match="sum of the observed frequencies must agree"):
        mt.stats.chisquare(F, F * 1.1).execute()
    assert_result(
        mt.stats.chisquare(F, F * 1.1, sum_check=False), sps.chisquare(F, F * 1.1, sum_check=False)
    )


@settings(max_examples=10)
@given(st.integers(1, 8), st.integers(1, 4), st.integers(1, 4), st.integers(0, 1))
def test_divergence_shapes(rows: int, cols: int, chunk: int, axis: int) -> None:
    f = RNG.integers(1, 9, size=(rows, cols))
    t = mt.tensor(f, chunk_size=chunk)
    assert_result(
        mt.stats.power_divergence(t, axis=axis, lambda_=0.5),
        sps.power_divergence(f, axis=axis, lambda_=0.5),
    )
    assert_same(mt.stats.entropy(t, axis=axis), sps.entropy(f, axis=axis))
