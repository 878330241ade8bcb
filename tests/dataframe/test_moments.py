"""Mergeable moments of one chunk: blocked sums of powers of deviations, and the NaN
and infinity rules, against NumPy and pandas on columns longer than one block."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from jupyter_mars.dataframe.reduction import _moments
from jupyter_mars.dataframe.reduction._moments import (
    column_moments,
    deviation_sums,
    present_values,
)
from jupyter_mars.dataframe.reduction.shape_moments import column_shape_moments, finish_shape

RNG = np.random.default_rng(8)


@pytest.mark.parametrize("n", [1, 5, _moments.BLOCK, 2 * _moments.BLOCK + 17])
def test_deviation_sums_match_numpy_across_blocks(n: int) -> None:
    values = RNG.normal(size=n) * 100 + 3
    mean = float(values.mean())
    d = values - mean
    expected = [float((d**2).sum()), float((d**3).sum()), float((d**4).sum())]
    np.testing.assert_allclose(deviation_sums(values, mean, 4), expected, rtol=1e-10, atol=1e-6)
    np.testing.assert_allclose(deviation_sums(values, mean, 3), expected[:2], rtol=1e-10, atol=1e-6)
    np.testing.assert_allclose(deviation_sums(values, mean, 2), expected[:1], rtol=1e-10)


def test_long_columns_give_pandas_moments() -> None:
    column = pd.Series(RNG.normal(size=3 * _moments.BLOCK + 5) * 7 + 1e4)
    n, total, m2 = column_moments(column, skipna=True)
    assert n == len(column)
    assert math.isclose(m2 / (n - 1), column.var(), rel_tol=1e-12)
    assert column_moments(column, skipna=True, spread=False) == (n, total, 0.0)
    shape = column_shape_moments(column, skipna=True)
    assert math.isclose(finish_shape(shape, "skew"), column.skew(), rel_tol=1e-9)
    assert math.isclose(finish_shape(shape, "kurt"), column.kurt(), rel_tol=1e-9)


def test_missing_values_and_infinities() -> None:
    column = pd.Series([1.0, np.nan, 3.0])
    np.testing.assert_array_equal(present_values(column, skipna=True), [1.0, 3.0])
    assert present_values(column, skipna=False) is None
    assert column_moments(column, skipna=False)[1] != column_moments(column, skipna=False)[1]
    # opposite infinities sum to NaN without a missing value: all values are kept
    both = pd.Series([np.inf, -np.inf, 1.0])
    assert len(present_values(both, skipna=False)) == 3
    ints = pd.Series([1, 2, 4], dtype="Int64")
    assert column_moments(ints, skipna=True) == (3, 7.0, column_moments(ints, True)[2])
