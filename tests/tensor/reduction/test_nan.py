"""NaN-skipping reductions and scans on all-NaN slices."""

from __future__ import annotations

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings


@pytest.mark.parametrize("name", ["nanmin", "nanmax", "nanmean", "nanvar", "nanstd"])
def test_all_nan_slice_gives_nan_without_warning_from_kernels(name: str) -> None:
    x = np.array([[np.nan, 1.0, np.nan], [np.nan, np.nan, 2.0], [np.nan, 4.0, np.nan]])
    with pytest.warns(RuntimeWarning):
        expected = getattr(np, name)(x, axis=0)
    for chunks in chunkings(x.shape):
        got = getattr(mt, name)(mt.tensor(x, chunk_size=chunks), axis=0)
        assert_same(got, expected)  # warnings are errors here: none may leak from kernels


@pytest.mark.parametrize("name", ["nansum", "nanprod", "nancumsum", "nancumprod"])
def test_nan_sum_product_of_all_nan_is_identity(name: str) -> None:
    x = np.full((3, 4), np.nan)
    for chunks in chunkings(x.shape):
        assert_same(
            getattr(mt, name)(mt.tensor(x, chunk_size=chunks), axis=0), getattr(np, name)(x, axis=0)
        )
