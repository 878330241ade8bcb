"""``sum``/``prod``/``min``/``max``/``any``/``all`` (and NaN forms): ``initial``, empty
input, NaN propagation."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.reduction.helpers import check_like_numpy, data


def test_sum_with_initial_is_applied_once(xp: Any) -> None:
    x = data((6, 4))
    for name in ["sum", "prod", "nansum", "nanprod", "max", "min", "nanmax", "nanmin"]:
        for chunks in chunkings(x.shape):
            check_like_numpy(name, x, chunks, xp=xp, initial=1.25)
            check_like_numpy(name, x, chunks, xp=xp, axis=0, initial=-3)


def test_min_max_with_initial_on_empty_axis_give_initial() -> None:
    x = np.empty((0, 3))
    assert_same(mt.min(mt.tensor(x), axis=0, initial=5), np.min(x, axis=0, initial=5))
    assert_same(mt.nanmax(mt.tensor(x), initial=-1), np.nanmax(x, initial=-1))


@pytest.mark.parametrize(
    "name", ["sum", "prod", "nansum", "nanprod", "any", "all", "count_nonzero"]
)
def test_reduction_with_identity_of_empty_tensor(name: str) -> None:
    x = np.empty((0, 3))
    for axis in [None, 0, 1]:
        assert_same(getattr(mt, name)(mt.tensor(x), axis=axis), getattr(np, name)(x, axis=axis))


@pytest.mark.parametrize("name", ["argmax", "argmin", "max", "min", "ptp"])
def test_nan_propagates_and_first_nan_wins(name: str, xp: Any) -> None:
    x = np.array([[1.0, np.nan, 3.0, np.nan], [5.0, 0.0, np.nan, 2.0], [1.0, 2.0, 3.0, 4.0]])
    for chunks in chunkings(x.shape):
        for axis in [None, 0, 1]:
            check_like_numpy(name, x, chunks, xp=xp, axis=axis)
