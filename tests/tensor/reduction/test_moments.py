"""``mean``/``var``/``std`` (and NaN forms): precision, ``ddof``/``correction``, NumPy's
warnings for empty slices and too few items."""

from __future__ import annotations

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same
from tests.tensor.reduction.helpers import data


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
def test_variance_keeps_precision_with_large_offset(name: str) -> None:
    rng = np.random.default_rng(6)
    x = 1e9 + rng.standard_normal((400, 3))
    for chunks in [(7, 3), (1, 1), (400, 3)]:
        for axis in [None, 0]:
            got = getattr(mt, name)(mt.tensor(x, chunk_size=chunks), axis=axis, ddof=1)
            expected = getattr(np, name)(x, axis=axis, ddof=1)
            np.testing.assert_allclose(got.execute().fetch(), expected, rtol=1e-6)
    # the naive sum-of-squares formula would lose every digit here
    naive = (np.sum(x**2) - np.sum(x) ** 2 / x.size) / (x.size - 1)
    assert not np.isclose(naive, np.var(x, ddof=1), rtol=1e-2)


@pytest.mark.parametrize("name", ["mean", "nanmean", "var", "std", "nanvar", "nanstd"])
def test_mean_and_variance_of_empty_slice_warn_like_numpy(name: str) -> None:
    x = np.empty((0, 3))
    with pytest.warns(RuntimeWarning):
        got = getattr(mt, name)(mt.tensor(x), axis=0)
    with pytest.warns(RuntimeWarning):
        expected = getattr(np, name)(x, axis=0)
    assert_same(got, expected)
    assert_same(getattr(mt, name)(mt.tensor(x), axis=1), getattr(np, name)(x, axis=1))


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
def test_ddof_not_below_count_warns_like_numpy(name: str) -> None:
    x = np.array([[1.0, 2.0], [3.0, 5.0]])
    for ddof in (2, 3):
        with pytest.warns(RuntimeWarning) as record:
            got = getattr(mt, name)(mt.tensor(x, chunk_size=1), axis=0, ddof=ddof)
        assert any("Degrees of freedom" in str(w.message) for w in record)
        with pytest.warns(RuntimeWarning):
            expected = getattr(np, name)(x, axis=0, ddof=ddof)
        assert_same(got, expected)


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
def test_bad_ddof(name: str) -> None:
    t = mt.tensor(np.ones((2, 3)))
    for ddof in ("1", None, [1]):
        with pytest.raises(TypeError, match="ddof"):
            getattr(mt, name)(t, ddof=ddof)
    with pytest.raises(ValueError, match="ddof and correction"):
        getattr(mt, name)(t, ddof=1, correction=1)


def test_correction_is_ddof() -> None:
    x = data((5, 3), seed=12)
    assert_same(mt.var(mt.tensor(x, chunk_size=2), correction=1), np.var(x, correction=1))
    assert_same(mt.nanstd(mt.tensor(x), axis=0, correction=1.5), np.nanstd(x, axis=0, ddof=1.5))
