"""Index validation (``indexing.normalize``): NumPy's errors, raised when building."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.tensor.indexing.helpers import index_np, tensor


@pytest.mark.parametrize(
    ("index", "error", "message"),
    [
        (1.0, IndexError, "only integers, slices"),
        ("a", IndexError, "only integers, slices"),
        ([1.5], IndexError, "only integers, slices"),
        ((0, 0, 0), IndexError, "too many indices for array: array is 2-dimensional, but 3"),
        (np.ones((3, 4, 1), bool), IndexError, "too many indices"),
        (5, IndexError, "index 5 is out of bounds for axis 0 with size 3"),
        ((slice(None), -5), IndexError, "index -5 is out of bounds for axis 1 with size 4"),
        ((slice(None), [0, 4]), IndexError, "index 4 is out of bounds for axis 1 with size 4"),
        (np.ones(4, bool), IndexError, "boolean index did not match indexed array along axis 0"),
        ((slice(None), np.ones(3, bool)), IndexError, "along axis 1; size of axis is 4"),
        (([0, 1], [0, 1, 2]), IndexError, "shape mismatch: indexing arrays could not be"),
        ((Ellipsis, Ellipsis), IndexError, "an index can only have a single ellipsis"),
        (slice(None, None, 0), ValueError, "slice step cannot be zero"),
        (slice(1.0, 2), TypeError, "slice indices must be integers"),
        (tensor(np.ones(4, bool)), IndexError, "boolean index did not match"),
        (tensor([1.0]), IndexError, "only integers, slices"),
    ],
    ids=repr,
)
def test_bad_indices_raise_numpy_errors_at_build_time(index: Any, error: Any, message: str) -> None:
    a = np.zeros((3, 4))
    with pytest.raises(error):
        a[index_np(index)]
    with pytest.raises(error, match=message):
        tensor(a, chunk_size=2)[index]
