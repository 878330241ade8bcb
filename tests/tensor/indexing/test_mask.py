"""Boolean masks (``indexing.mask``; NumPy masks go through ``indexing.fancy``)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.indexing.helpers import data, tensor, tile


@pytest.mark.parametrize("where", ["numpy", "tensor"])
def test_boolean_masks_match_numpy(where: str, xp: Any) -> None:
    a = data((5, 4, 3))
    cases = [
        (a[:, 0, 0] > 50,),
        (slice(None), a[0, :, 0] > 50),
        (a[:, :, 0] > 50,),
        (a > 50,),
        (a[:, :, 0] > 50, 1),
        (slice(1, 3), a[0] > 50),
        (0, slice(None), a[0, 0] > 50),
        (Ellipsis, a[0, 0] > 50),
    ]
    for chunks in chunkings(a.shape):
        x = on(xp, tensor(a, chunk_size=chunks))
        for index in cases:
            mt_index = tuple(
                tensor(i, chunk_size=2) if where == "tensor" and isinstance(i, np.ndarray) else i
                for i in index
            )
            assert_same(x[mt_index], a[index])


def test_tensor_mask_has_nan_length_one_chunk_per_input_chunk() -> None:
    a = data((7, 3))
    x = tensor(a, chunk_size=(3, 2))
    y = x[x[:, 0] > 50]
    assert math.isnan(y.shape[0])
    assert y.shape[1] == 3
    tiled, _ = tile(y)
    assert len(tiled.nsplits[0]) == 3
    assert all(math.isnan(n) for n in tiled.nsplits[0])
    assert_same(y, a[a[:, 0] > 50])
    assert y.shape == a[a[:, 0] > 50].shape


@pytest.mark.parametrize("chunks", [1, (2, 3), (5, 7)])
def test_masked_sum_and_slice_of_masked_tensor_match_numpy(chunks: Any) -> None:
    a = data((5, 7)) / 100
    x = tensor(a, chunk_size=chunks)
    assert_same(x[x > 0.5].sum(), a[a > 0.5].sum())
    assert_same(x[x > 0.5][:3], a[a > 0.5][:3])
    assert_same(x[x > 0.5][::-2], a[a > 0.5][::-2])
    assert_same(x[x > 0.5][-1], a[a > 0.5][-1])
    assert_same(x[x > 0.5][[0, 2]], a[a > 0.5][[0, 2]])
    y = x[x[:, 0] > 0.2]
    assert_same(y[1:, ::3], a[a[:, 0] > 0.2][1:, ::3])
    assert_same(y[y > 0.5], a[a[:, 0] > 0.2][a[a[:, 0] > 0.2] > 0.5])


def test_mask_of_unknown_length_that_does_not_match_fails_at_execute() -> None:
    a = np.arange(6.0)
    x = tensor(a, chunk_size=2)
    y = x[x > 2]  # 3 elements, unknown until executed
    with pytest.raises(IndexError, match="boolean index did not match"):
        x[y > 0].execute()
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 0 with size 3"):
        y[5].execute()
