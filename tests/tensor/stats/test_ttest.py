"""The t tests of ``mt.stats`` against SciPy's."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.stats as sps
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import chunkings
from tests.tensor.stats.helpers import RNG, assert_result

A = RNG.normal(size=(10, 3))
B = RNG.normal(size=(8, 3)) + 0.4


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_ttest_1samp_and_rel(alternative: str) -> None:
    for chunks in chunkings(A.shape):
        a = mt.tensor(A, chunk_size=chunks)
        assert_result(
            mt.stats.ttest_1samp(a, 0.2, alternative=alternative),
            sps.ttest_1samp(A, 0.2, alternative=alternative),
            ("df",),
        )
        assert_result(
            mt.stats.ttest_1samp(a, 0.1, axis=1, alternative=alternative),
            sps.ttest_1samp(A, 0.1, axis=1, alternative=alternative),
            ("df",),
        )
        assert_result(
            mt.stats.ttest_rel(a[:8], B, alternative=alternative),
            sps.ttest_rel(A[:8], B, alternative=alternative),
            ("df",),
        )


@pytest.mark.parametrize("equal_var", [True, False])
@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_ttest_ind(equal_var: bool, alternative: str) -> None:
    for chunks in chunkings(A.shape):
        result = mt.stats.ttest_ind(
            mt.tensor(A, chunk_size=chunks), B, equal_var=equal_var, alternative=alternative
        )
        expected = sps.ttest_ind(A, B, equal_var=equal_var, alternative=alternative)
        assert_result(result, expected, ("df",))


def test_axis_none_keepdims_and_dtypes() -> None:
    a = mt.tensor(A, chunk_size=4)
    assert_result(mt.stats.ttest_1samp(a, 0, axis=None), sps.ttest_1samp(A, 0, axis=None), ("df",))
    assert_result(mt.stats.ttest_ind(a, B, axis=None), sps.ttest_ind(A, B, axis=None), ("df",))
    assert_result(
        mt.stats.ttest_1samp(a, 0, keepdims=True), sps.ttest_1samp(A, 0, keepdims=True), ("df",)
    )
    popmean = np.array([[0.1, 0.2, 0.3]])
    assert_result(mt.stats.ttest_1samp(a, popmean), sps.ttest_1samp(A, popmean), ("df",))
    a32, b32 = A.astype(np.float32), B.astype(np.float32)
    for equal_var in (True, False):
        assert_result(
            mt.stats.ttest_ind(a32, b32, equal_var=equal_var),
            sps.ttest_ind(a32, b32, equal_var=equal_var),
            ("df",),
            rtol=1e-5,
        )
    assert_result(mt.stats.ttest_1samp(a32, 0.5), sps.ttest_1samp(a32, 0.5), ("df",), rtol=1e-5)
    ints = RNG.integers(0, 9, size=12)
    assert_result(mt.stats.ttest_1samp(ints, 4), sps.ttest_1samp(ints, 4), ("df",))


def test_ttest_ind_from_stats() -> None:
    means = RNG.normal(size=4)
    for equal_var in (True, False):
        for alternative in ("two-sided", "less", "greater"):
            args: tuple[Any, ...] = (means, np.full(4, 1.5), 12, 0.3, 2.0, np.arange(5, 9))
            assert_result(
                mt.stats.ttest_ind_from_stats(
                    mt.tensor(means, chunk_size=1),
                    *args[1:],
                    equal_var=equal_var,
                    alternative=alternative,
                ),
                sps.ttest_ind_from_stats(*args, equal_var=equal_var, alternative=alternative),
            )
    assert_result(
        mt.stats.ttest_ind_from_stats(1, 2, 3, 1.5, 2, 4),
        sps.ttest_ind_from_stats(1, 2, 3, 1.5, 2, 4),
    )


def test_nan_policies() -> None:
    a = A.copy()
    a[2, 1] = np.nan
    t = mt.tensor(a, chunk_size=3)
    # SciPy's df turns float with NaN where a slice holds one: a dtype the data decides
    assert_result(mt.stats.ttest_1samp(t, 0.1), sps.ttest_1samp(a, 0.1))
    for equal_var in (True, False):
        assert_result(
            mt.stats.ttest_ind(t, B, nan_policy="omit", equal_var=equal_var),
            sps.ttest_ind(a, B, nan_policy="omit", equal_var=equal_var),
            ("df",),
        )
    assert_result(
        mt.stats.ttest_1samp(t, 0.1, nan_policy="omit"),
        sps.ttest_1samp(a, 0.1, nan_policy="omit"),
        ("df",),
    )
    assert_result(
        mt.stats.ttest_rel(t[:8], B, nan_policy="omit"),
        sps.ttest_rel(a[:8], B, nan_policy="omit"),
        ("df",),
    )
    # SciPy raises at once; the NaN is in the data, found when executed
    with pytest.raises(ValueError, match="The input contains nan values"):
        mt.stats.ttest_1samp(t, 0.1, nan_policy="raise").execute()


def test_result_objects_unpack_like_scipy() -> None:
    result = mt.stats.ttest_ind(A, B)
    statistic, pvalue = result
    assert statistic is result.statistic
    assert pvalue is result.pvalue
    assert isinstance(result.df, mt.Tensor)
    assert "TtestResult(statistic=" in repr(result)
    fetched = result.execute().fetch()
    np.testing.assert_allclose(fetched.pvalue, sps.ttest_ind(A, B).pvalue)
    np.testing.assert_allclose(fetched.df, sps.ttest_ind(A, B).df)


def test_bad_arguments_fail_at_the_call() -> None:
    with pytest.raises(ValueError, match="`alternative` must be"):
        mt.stats.ttest_1samp(A, 0, alternative="both")
    with pytest.raises(ValueError, match="nan_policy must be one of"):
        mt.stats.ttest_ind(A, B, nan_policy="skip")
    with pytest.raises(np.exceptions.AxisError):
        mt.stats.ttest_1samp(A, 0, axis=2)
    with pytest.raises(ValueError, match=r"popmean.shape\[axis\]"):
        mt.stats.ttest_1samp(A, np.zeros((2, 3)))
    with pytest.raises(ValueError, match="could not be broadcast"):
        mt.stats.ttest_ind(A, np.ones((8, 2)))
    with pytest.raises(ValueError, match="incompatible"):
        mt.stats.ttest_rel(A, B)
    with pytest.raises(NotImplementedError, match="trim"):
        mt.stats.ttest_ind(A, B, trim=0.2)


@settings(max_examples=10)
@given(
    st.integers(2, 9),
    st.integers(2, 7),
    st.integers(1, 3),
    st.integers(1, 4),
    st.integers(0, 1),
    st.booleans(),
)
def test_ttest_shapes(n1: int, n2: int, cols: int, chunk: int, axis: int, equal_var: bool) -> None:
    a = RNG.normal(size=(n1, cols))
    b = RNG.normal(size=(n2, cols))
    if axis == 1:
        a, b = a.T, b.T
    result = mt.stats.ttest_ind(
        mt.tensor(a, chunk_size=chunk),
        mt.tensor(b, chunk_size=chunk),
        axis=axis,
        equal_var=equal_var,
    )
    assert_result(result, sps.ttest_ind(a, b, axis=axis, equal_var=equal_var), ("df",))


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_confidence_intervals(alternative: str) -> None:
    a = mt.tensor(A, chunk_size=3)
    cases = [
        (
            mt.stats.ttest_1samp(a, 0.1, alternative=alternative),
            sps.ttest_1samp(A, 0.1, alternative=alternative),
        ),
        (
            mt.stats.ttest_ind(a, B, equal_var=False, alternative=alternative),
            sps.ttest_ind(A, B, equal_var=False, alternative=alternative),
        ),
        (
            mt.stats.ttest_rel(a[:8], B, alternative=alternative, keepdims=True),
            sps.ttest_rel(A[:8], B, alternative=alternative, keepdims=True),
        ),
    ]
    for result, expected in cases:
        for level in (0.95, 0.5):
            assert_result(result.confidence_interval(level), expected.confidence_interval(level))
    with pytest.raises(ValueError, match="`confidence_level` must be a number between 0 and 1"):
        cases[0][0].confidence_interval(1.5)


def test_samples_whose_length_a_filter_decides() -> None:
    t = mt.tensor(A, chunk_size=4)
    kept = t[t[:, 0] > 0]
    data = A[A[:, 0] > 0]
    assert np.isnan(kept.shape[0])
    assert_result(mt.stats.ttest_1samp(kept, 0.1), sps.ttest_1samp(data, 0.1), ("df",))
    assert_result(mt.stats.ttest_ind(kept, B), sps.ttest_ind(data, B), ("df",))
    assert_result(
        mt.stats.ttest_rel(kept[:, 1], kept[:, 2]), sps.ttest_rel(data[:, 1], data[:, 2]), ("df",)
    )
    assert_result(mt.stats.chisquare(kept[:, 1] + 5), sps.chisquare(data[:, 1] + 5))
    assert_result(
        mt.stats.ks_2samp(B[:, 0], kept[:, 1]),
        sps.ks_2samp(B[:, 0], data[:, 1]),
        ("statistic_location", "statistic_sign"),
    )
