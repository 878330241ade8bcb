"""Arguments every creation function shares: shape, dtype, order, chunk_size."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.config import option_context
from jupyter_mars.engine.chunks import offsets
from jupyter_mars.tensor.creation import common
from tests.tensor.creation.helpers import nsplits_of


def test_chunk_size_none_uses_the_byte_budget(session: Any) -> None:
    with option_context(chunk_store_limit=8 * 16):
        t = mt.ones((8, 8), chunk_size=None)
        assert nsplits_of(t, session) == ((4, 4), (4, 4))
    assert nsplits_of(mt.ones((8, 8)), session) == ((8,), (8,))


def test_chunk_size_forms_give_the_expected_layout(session: Any) -> None:
    assert nsplits_of(mt.zeros((5, 4), chunk_size=2), session) == ((2, 2, 1), (2, 2))
    assert nsplits_of(mt.zeros((5, 4), chunk_size=(3, None)), session) == ((3, 2), (4,))
    assert nsplits_of(mt.zeros((5, 4), chunk_size=((1, 4), (2, 2))), session) == (
        (1, 4),
        (2, 2),
    )


@pytest.mark.parametrize("func", [mt.ones, mt.zeros, mt.empty])
def test_shape_and_dtype_errors_match_numpy(func: Any) -> None:
    with pytest.raises(ValueError, match="negative dimensions"):
        func((2, -1))
    with pytest.raises(TypeError):
        func((2, 1.5))
    with pytest.raises(TypeError):
        func("3")
    with pytest.raises(TypeError, match="data type"):
        func(3, dtype="float99")
    with pytest.raises(ValueError, match="order"):
        func(3, order="X")


def test_bad_chunk_size_raises_at_call_time() -> None:
    with pytest.raises(ValueError, match="chunk_size"):
        mt.ones((4, 4), chunk_size=0)
    with pytest.raises(ValueError, match="chunk_size"):
        mt.zeros((4, 4), chunk_size=(2, 2, 2))
    with pytest.raises(ValueError, match="chunk_size"):
        mt.full((4,), 1, chunk_size=((1, 2),))
    with pytest.raises(TypeError, match="chunk_size"):
        mt.arange(5, chunk_size=1.5)
    with pytest.raises(ValueError, match="chunk_size"):
        mt.eye(3, chunk_size=-2)


def test_chunk_region_cuts_the_part_of_a_parameter_a_chunk_covers() -> None:
    nsplits = ((1, 1), (2, 1), (3, 1))  # an output of shape (2, 3, 4)
    starts = [offsets(axis) for axis in nsplits]
    value = np.arange(12).reshape(3, 4)  # broadcast against the last two axes
    got = common.chunk_region(value, starts, (1, 1, 0), common.chunk_shape(nsplits, (1, 1, 0)))
    np.testing.assert_array_equal(got, value[2:3, 0:3])
    row = np.arange(4).reshape(1, 4)  # an axis of length 1 is kept whole
    np.testing.assert_array_equal(
        common.chunk_region(row, starts, (0, 1, 1), (1, 1, 1)), row[:, 3:4]
    )
    assert common.chunk_region(2.5, starts, (0, 0, 0), (1, 2, 3)) == 2.5


def test_grid_helpers_walk_the_chunks_in_c_order() -> None:
    nsplits = ((2, 1), (3,), (1, 1))
    assert common.numblocks(nsplits) == [2, 1, 2]
    assert list(common.block_indices(nsplits)) == [(0, 0, 0), (0, 0, 1), (1, 0, 0), (1, 0, 1)]
    assert common.chunk_shape(nsplits, (1, 0, 1)) == (1, 3, 1)


def test_broadcasts_to_follows_numpy() -> None:
    assert common.broadcasts_to((3, 1), (2, 3, 4))
    assert common.broadcasts_to((), (2,))
    assert not common.broadcasts_to((2,), (3,))
    assert not common.broadcasts_to((3, 4), (4,))
