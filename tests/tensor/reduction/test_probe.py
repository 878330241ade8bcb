"""What is decided when a reduction is built: result dtypes (with values) as NumPy's, and
NumPy's error for an empty axis without identity."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.reduction.helpers import check_like_numpy

DTYPE_CASES = [
    ("sum", np.int32, {}),
    ("sum", np.uint8, {}),
    ("sum", np.bool_, {}),
    ("sum", np.int8, {"dtype": np.int8}),
    ("sum", np.float32, {}),
    ("sum", np.int64, {"dtype": np.float32}),
    ("prod", np.int16, {}),
    ("prod", np.float32, {"dtype": np.float64}),
    ("max", np.int8, {}),
    ("min", np.uint16, {}),
    ("max", np.bool_, {}),
    ("any", np.int64, {}),
    ("all", np.float32, {}),
    ("count_nonzero", np.float32, {}),
    ("ptp", np.int8, {}),
    ("mean", np.int32, {}),
    ("mean", np.bool_, {}),
    ("mean", np.float16, {}),
    ("mean", np.int32, {"dtype": np.int32}),
    ("mean", np.complex64, {}),
    ("var", np.int16, {}),
    ("var", np.float32, {}),
    ("var", np.complex128, {}),
    ("var", np.complex64, {"ddof": 1}),
    ("var", np.int64, {"dtype": np.float32}),
    ("std", np.uint8, {"ddof": 1}),
    ("std", np.float16, {}),
    ("nansum", np.int32, {}),
    ("nanprod", np.int8, {}),
    ("nanmax", np.int32, {}),
    ("nanmean", np.int16, {}),
    ("nanmean", np.float32, {}),
    ("nanvar", np.bool_, {}),
    ("nanstd", np.float32, {}),
    ("argmax", np.bool_, {}),
    ("argmin", np.uint8, {}),
    ("nanargmax", np.int32, {}),
    ("cumsum", np.int32, {}),
    ("cumsum", np.bool_, {}),
    ("cumsum", np.int64, {"dtype": np.float32}),
    ("cumprod", np.float16, {}),
    ("nancumsum", np.int8, {}),
    ("nancumprod", np.float32, {}),
]


@pytest.mark.parametrize(("name", "dtype", "kwargs"), DTYPE_CASES)
def test_result_dtype_and_values_match_numpy(name: str, dtype: Any, kwargs: dict[str, Any]) -> None:
    rng = np.random.default_rng(5)
    x = (rng.integers(0, 4, size=(6, 5)) + (1j if np.dtype(dtype).kind == "c" else 0)).astype(dtype)
    if np.dtype(dtype) == np.int8 and name in {"sum", "ptp"}:
        x[0, :] = [-100, 100, 90, 80, -70]  # wraps around, as in NumPy
    tol = 2e-3 if np.dtype(dtype) == np.float16 else 1e-5
    for chunks in chunkings(x.shape):
        check_like_numpy(name, x, chunks, tol=tol, **kwargs)
        if not name.startswith(("arg", "nanarg", "cum", "nancum")):
            check_like_numpy(name, x, chunks, tol=tol, axis=0, **kwargs)


@pytest.mark.parametrize(
    "name", ["min", "max", "nanmin", "nanmax", "ptp", "argmin", "argmax", "nanargmax"]
)
def test_reduction_without_identity_of_empty_axis_raises_at_build(name: str) -> None:
    t = mt.tensor(np.empty((0, 3)))
    with pytest.raises(ValueError, match="empty|zero-size"):
        getattr(mt, name)(t, axis=0)
    with pytest.raises(ValueError, match="empty|zero-size"):
        getattr(mt, name)(t)
    # reducing the non-empty axis of an empty tensor is fine
    assert_same(getattr(mt, name)(t, axis=1), getattr(np, name)(np.empty((0, 3)), axis=1))
