"""``percentile``, ``quantile``, ``median`` and the ``nan`` forms against NumPy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from jupyter_mars.tensor.gpu_kernels import NotOnGPU
from tests.conftest import assert_same, chunkings, needs_gpu, to_numpy
from tests.tensor.conftest import on
from tests.tensor.statistics.helpers import METHODS, RNG, executed_nsplits


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2), (0, 1, 2)])
def test_percentile_over_chunkings_axes_and_keepdims(axis: Any, xp: Any) -> None:
    a = RNG.random((5, 6, 4))
    q = [0, 12.5, 50, 99, 100]
    for chunks in chunkings(a.shape):
        x = on(xp, mt.tensor(a, chunk_size=chunks))
        for keepdims in (False, True):
            assert_same(
                mt.percentile(x, q, axis=axis, keepdims=keepdims),
                np.percentile(a, q, axis=axis, keepdims=keepdims),
            )


@pytest.mark.parametrize("method", METHODS)
def test_percentile_and_quantile_methods(method: str, xp: Any) -> None:
    a = RNG.integers(0, 100, size=(7, 5))
    x = on(xp, mt.tensor(a, chunk_size=(3, 2)))
    for axis in (None, 0, 1):
        assert_same(
            mt.percentile(x, 37, axis=axis, method=method),
            np.percentile(a, 37, axis=axis, method=method),  # type: ignore[call-overload]
        )
        assert_same(
            mt.quantile(x, [0.1, 0.75], axis=axis, method=method),
            np.quantile(a, [0.1, 0.75], axis=axis, method=method),  # type: ignore[call-overload]
        )


def test_quantile_keeps_numpy_dtypes() -> None:
    a32 = RNG.random(10).astype(np.float32)
    assert_same(mt.quantile(mt.tensor(a32, chunk_size=3), 0.5), np.quantile(a32, 0.5))
    ints = np.arange(10, dtype=np.int16)
    result = mt.percentile(mt.tensor(ints, chunk_size=4), 30, method="lower")
    assert_same(result, np.percentile(ints, 30, method="lower"))


def test_median_and_nan_variants() -> None:
    a = RNG.random((6, 5))
    a[1, 2] = a[4, 0] = np.nan
    for chunks in chunkings(a.shape):
        x = mt.tensor(a, chunk_size=chunks)
        for axis in (None, 0, 1, (0, 1)):
            assert_same(mt.median(x, axis=axis), np.median(a, axis=axis))
            assert_same(mt.nanmedian(x, axis=axis), np.nanmedian(a, axis=axis))
            assert_same(mt.nanpercentile(x, [5, 60], axis=axis), np.nanpercentile(a, [5, 60], axis))
            assert_same(mt.nanquantile(x, 0.3, axis=axis), np.nanquantile(a, 0.3, axis=axis))
        assert_same(mt.median(x, axis=1, keepdims=True), np.median(a, axis=1, keepdims=True))


def test_percentile_with_tensor_q_and_lazy_input_of_unknown_length() -> None:
    a = RNG.integers(0, 40, size=50).astype(float)
    x = mt.tensor(a, chunk_size=8)
    q = mt.tensor([10.0, 75.0], chunk_size=1)
    assert_same(mt.percentile(x, q), np.percentile(a, [10.0, 75.0]))
    u = mt.unique(x)
    assert_same(mt.median(u), np.median(np.unique(a)))
    assert_same(
        mt.quantile(u, [0.2, 0.9], method="nearest"),
        np.quantile(np.unique(a), [0.2, 0.9], method="nearest"),
    )


def test_percentile_keeps_other_axes_chunks(session: Any) -> None:
    a = RNG.random((6, 8))
    result = mt.percentile(mt.tensor(a, chunk_size=(2, 3)), [10, 90], axis=0).execute()
    assert executed_nsplits(session, result) == ((2,), (3, 3, 2))


@st.composite
def reduction_case(draw: Any) -> tuple[np.ndarray, tuple[int, ...], Any]:
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(1, 6), min_size=ndim, max_size=ndim)))
    chunks = tuple(draw(st.integers(1, n)) for n in shape)
    axes = draw(
        st.one_of(
            st.none(),
            st.integers(-ndim, ndim - 1),
            st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True).map(tuple),
        )
    )
    return RNG.normal(size=shape), chunks, axes


@given(reduction_case(), st.lists(st.floats(0, 100), min_size=0, max_size=3), st.booleans())
def test_percentile_hypothesis(
    case: tuple[np.ndarray, tuple[int, ...], Any], q: list[float], keepdims: bool
) -> None:
    a, chunks, axis = case
    x = mt.tensor(a, chunk_size=chunks)
    expected = np.percentile(a, q, axis=axis, keepdims=keepdims)
    result = mt.percentile(x, q, axis=axis, keepdims=keepdims)
    assert result.shape == expected.shape
    assert_same(result, expected)
    assert_same(mt.median(x, axis=axis), np.median(a, axis=axis))


def test_percentile_bad_arguments_raise_at_call() -> None:
    x = mt.tensor(RNG.random((3, 4)), chunk_size=2)
    with pytest.raises(ValueError, match=r"Percentiles must be in the range \[0, 100\]"):
        mt.percentile(x, 101)
    with pytest.raises(ValueError, match=r"Percentiles must be in the range"):
        mt.percentile(x, [-1, 50])
    with pytest.raises(ValueError, match=r"Quantiles must be in the range \[0, 1\]"):
        mt.quantile(x, 1.5)
    with pytest.raises(np.exceptions.AxisError):
        mt.percentile(x, 50, axis=2)
    with pytest.raises(np.exceptions.AxisError):
        mt.median(x, axis=(0, -3))
    with pytest.raises(ValueError, match="method"):
        mt.quantile(x, 0.5, method="bogus")
    with pytest.raises(TypeError, match="out"):
        mt.median(x, out=np.empty(4))
    with pytest.raises(NotImplementedError, match="weights"):
        mt.quantile(x, 0.5, method="inverted_cdf", weights=np.ones((3, 4)))


@needs_gpu
def test_what_cupy_lacks_raises_at_the_call_on_a_gpu() -> None:
    x = mt.tensor(RNG.random((4, 3)), chunk_size=2).to_gpu()
    with pytest.raises(NotOnGPU, match=r"nanpercentile\(\) does not run on a GPU.*to_cpu"):
        mt.nanpercentile(x, 50)
    with pytest.raises(NotOnGPU, match=r"nanquantile\(\) does not run on a GPU"):
        mt.nanquantile(x, 0.5)
    with pytest.raises(NotOnGPU, match=r"quantile\(method='hazen'\) does not run on a GPU"):
        mt.quantile(x, 0.5, method="hazen")
    assert_same(mt.nanmedian(x, axis=0), np.nanmedian(to_numpy(x.execute().fetch()), axis=0))
