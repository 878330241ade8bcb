"""Every reduction, arg-reduction and scan against NumPy over chunkings, shapes, axes and
fan-ins; data-dependent chunk lengths; 0-d input; methods and NumPy dispatch."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars
import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.reduction.helpers import (
    ARG_REDUCTIONS,
    MOMENTS,
    REDUCTIONS,
    SCANS,
    axes_for,
    check_like_numpy,
    data,
    keep_positive,
    tensors,
)


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("chunks", chunkings((5, 6)))
def test_reduction_matches_numpy_for_every_axis_and_chunking(
    name: str, chunks: Any, xp: Any
) -> None:
    x = data((5, 6), nans=name.startswith("nan"))
    for axis in [None, 0, 1, -1, (0, 1), (1, -2), ()]:
        for keepdims in (False, True):
            check_like_numpy(name, x, chunks, xp=xp, axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("name", REDUCTIONS)
def test_reduction_of_3d_tensor_over_axis_pairs(name: str) -> None:
    x = data((4, 3, 5), seed=1, nans=name.startswith("nan"))
    for chunks in chunkings(x.shape):
        for axis in [(0, 2), (2, 1), (-1, 0, 1)]:
            check_like_numpy(name, x, chunks, axis=axis)


@given(st.data(), st.sampled_from(REDUCTIONS))
def test_reduction_hypothesis_shapes_chunks_axes(hyp: Any, name: str) -> None:
    x, chunks = hyp.draw(tensors(nans=name.startswith("nan")))
    kwargs: dict[str, Any] = {
        "axis": hyp.draw(axes_for(x.ndim)),
        "keepdims": hyp.draw(st.booleans()),
    }
    if name in MOMENTS:
        kwargs["ddof"] = hyp.draw(st.integers(0, 2))
    check_like_numpy(name, x, chunks, **kwargs)


@pytest.mark.parametrize("name", REDUCTIONS + ARG_REDUCTIONS + SCANS)
def test_combine_size_two_and_eight_give_the_same_result(name: str) -> None:
    x = data((17, 3), seed=7, nans=name.startswith("nan"))
    x[0, :] = 1.0  # no all-NaN column
    results = []
    for size in (2, 8):
        with jupyter_mars.option_context({"combine_size": size}):
            t = getattr(mt, name)(mt.tensor(x, chunk_size=1), axis=0)
        results.append(t.execute().fetch())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-12, atol=1e-15)
    assert results[0].dtype == results[1].dtype
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = getattr(np, name)(x, axis=0)
    assert_same(results[0], expected, atol=1e-12)


def test_zero_dim_tensor_reductions_and_scans() -> None:
    x = np.array(2.5)
    for name in REDUCTIONS + ARG_REDUCTIONS:
        check_like_numpy(name, x, ())
    for name in SCANS:
        check_like_numpy(name, x, (), axis=0)
        check_like_numpy(name, x, ())
    check_like_numpy("argmax", x, (), axis=-1)


@pytest.mark.parametrize("name", REDUCTIONS + ARG_REDUCTIONS + SCANS)
def test_reductions_of_unknown_length_chunks_some_empty(name: str) -> None:
    x = np.array([-1.0, -2.0, 3.0, 0.5, -4.0, -1.0, 2.0, 2.0, 7.0, -3.0, 0.25])
    kept = x[x > 0]
    t = keep_positive(x, 2)  # chunks [-1, -2] and [-4, -1] become empty
    assert_same(getattr(mt, name)(t), getattr(np, name)(kept))


def test_min_of_unknown_length_all_empty_raises_when_executed() -> None:
    t = keep_positive(np.array([-1.0, -2.0, -3.0]), 2)
    with pytest.raises(ValueError, match="zero-size"):
        mt.min(t).execute()
    with pytest.raises(ValueError, match="empty sequence"):
        mt.argmax(t).execute()


def test_tensor_methods_follow_numpy_2_ndarray() -> None:
    x = data((5, 4), seed=10)
    t = mt.tensor(x, chunk_size=2)
    assert_same(t.var(ddof=1), x.var(ddof=1))
    assert_same(t.std(axis=0, keepdims=True), x.std(axis=0, keepdims=True))
    assert_same(t.argmax(axis=0), x.argmax(axis=0))
    assert_same(t.argmin(), x.argmin())
    assert_same(t.cumsum(), x.cumsum())
    assert_same(t.cumprod(axis=1), x.cumprod(axis=1))
    assert_same(t.sum(axis=1, dtype=np.float32), x.sum(axis=1, dtype=np.float32))
    assert_same(t.mean(), x.mean())
    assert_same(t.max(axis=-1), x.max(axis=-1))
    assert_same(t.min(initial=-2.0), x.min(initial=-2.0))
    assert_same(t.prod(axis=0), x.prod(axis=0))
    assert_same(t.any(axis=0), x.any(axis=0))
    assert_same(t.all(), x.all())
    assert not hasattr(t, "ptp")  # ndarray.ptp is gone in NumPy 2


def test_numpy_functions_dispatch_to_tensor_reductions() -> None:
    x = data((4, 4), seed=11, nans=True)
    t = mt.tensor(x, chunk_size=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = np.nanvar(x, axis=0)
    result = np.nanvar(t, axis=0)
    assert isinstance(result, mt.Tensor)
    assert_same(result, expected)
    assert_same(np.cumsum(t, axis=1), np.cumsum(x, axis=1))
    assert_same(np.count_nonzero(t, axis=0), np.count_nonzero(x, axis=0))
