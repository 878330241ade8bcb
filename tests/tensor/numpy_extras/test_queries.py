"""Shape and dtype answers, without executing anything."""

from __future__ import annotations

import math

import numpy as np
import pytest

import jupyter_mars.tensor as mt


def test_size_matches_numpy() -> None:
    a = np.ones((2, 3, 4))
    x = mt.tensor(a, chunk_size=2)
    assert mt.size(x) == np.size(a) == 24
    assert mt.size(x, 1) == np.size(a, 1)
    assert mt.size(x, -1) == 4
    assert mt.size(x, (0, 2)) == 8
    assert mt.size([[1, 2, 3]]) == 3
    with pytest.raises(np.exceptions.AxisError):
        mt.size(x, 3)
    filtered = x[x > 0]
    assert math.isnan(mt.size(filtered))


@pytest.mark.parametrize(
    "dtype", [np.int8, np.uint16, np.int64, np.float32, np.float64, np.complex64, np.bool_]
)
def test_dtype_questions_match_numpy(dtype: type) -> None:
    a = np.zeros(3, dtype=dtype)
    x = mt.tensor(a)
    assert mt.iscomplexobj(x) is bool(np.iscomplexobj(a))
    assert mt.isrealobj(x) is bool(np.isrealobj(a))
    if dtype is not np.bool_:
        assert mt.common_type(x) is np.common_type(a)
        assert mt.common_type(x, mt.ones(2, np.float32)) is np.common_type(
            a, np.ones(2, np.float32)
        )


def test_broadcast_shapes_matches_numpy() -> None:
    for shapes in [((2, 1), (3,)), (5, (5,)), ((), (1, 4)), ((3, 1, 2), (4, 1))]:
        assert mt.broadcast_shapes(*shapes) == np.broadcast_shapes(*shapes)
    with pytest.raises(ValueError, match="could not be broadcast"):
        mt.broadcast_shapes((2,), (3,))
