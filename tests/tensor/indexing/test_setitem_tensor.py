"""Assignment through integer tensors (``indexing.setitem_tensor``) against NumPy."""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.conftest import chunkings
from tests.tensor.indexing.helpers import data, run_setitem, tensor


def test_setitem_with_tensor_indices_matches_numpy(xp: Any) -> None:
    a = data((6, 5))
    for chunks in chunkings(a.shape):
        run_setitem(a, chunks, tensor([5, 0, 5]), np.arange(5.0), xp)
        run_setitem(a, chunks, (slice(None), tensor([4, 1])), tensor(-np.ones((6, 2))), xp)
        run_setitem(
            a, chunks, (tensor([1, 2]), tensor([[0], [4]])), np.arange(4.0).reshape(2, 2), xp
        )
