"""Assignment through boolean masks (``indexing.setitem_mask``; NumPy masks go through
``indexing.setitem_array``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.conftest import assert_same, chunkings
from tests.tensor.indexing.helpers import data, run_setitem, tensor


def test_setitem_with_masks_matches_numpy(xp: Any) -> None:
    a = data((6, 5))
    mask = a > 50
    nnz = int(mask.sum())
    rows = a[:, 0] > 50
    for chunks in chunkings(a.shape):
        run_setitem(a, chunks, mask, 0.0, xp)
        run_setitem(a, chunks, tensor(mask, chunk_size=2), 0.0, xp)
        run_setitem(a, chunks, tensor(mask, chunk_size=3), -np.arange(nnz, dtype=float), xp)
        run_setitem(a, chunks, tensor(mask), tensor(-np.arange(nnz, dtype=float), chunk_size=2), xp)
        run_setitem(a, chunks, tensor(rows), np.arange(5.0), xp)
        run_setitem(a, chunks, (slice(1, 4), tensor(a[0] > 50)), -1.0, xp)


def test_assigning_a_masked_selection_of_itself_matches_numpy() -> None:
    a = data((5, 7)) / 100
    for chunks in chunkings(a.shape):
        x = tensor(a, chunk_size=chunks)
        x[x > 0.5] = x[x > 0.5] * 10
        expected = a.copy()
        expected[a > 0.5] *= 10
        assert_same(x, expected)


def test_mask_assignment_with_wrong_number_of_values_fails_at_execute() -> None:
    a = np.arange(6.0)
    x = tensor(a, chunk_size=4)
    x[x > 2] = np.arange(2.0)  # 3 elements are selected
    with pytest.raises(ValueError, match="cannot assign 2 input values to the 3 output values"):
        x.execute()
