"""Where an index falls in a chunk grid (``indexing.locate``)."""

from __future__ import annotations

import numpy as np
import pytest

from jupyter_mars.tensor.indexing import slice_plan
from jupyter_mars.tensor.indexing.locate import chunk_starts, groups, int_plan, locate


def test_slice_plan_lists_only_intersecting_chunks_in_visit_order() -> None:
    assert slice_plan((3, 3, 2), slice(4, 7)) == [(1, slice(1, 3, 1), 2), (2, slice(0, 1, 1), 1)]
    assert slice_plan((3, 3), slice(None, None, -2)) == [
        (1, slice(2, None, -2), 2),
        (0, slice(1, None, -2), 1),
    ]
    assert slice_plan((3, 3), slice(5, 2)) == [(0, slice(0, 0, 1), 0)]


def test_int_plan_gives_chunk_and_local_position_or_numpy_error() -> None:
    assert int_plan((3, 3, 2), 4, 0) == (1, 1)
    assert int_plan((3, 3, 2), -1, 0) == (2, 1)
    with pytest.raises(IndexError, match="index 8 is out of bounds for axis 1 with size 8"):
        int_plan((3, 3, 2), 8, 1)


def test_locate_places_each_index_in_its_chunk_and_groups_them_by_chunk() -> None:
    rows, cols = np.array([0, 4, -1, 2]), np.array([1, 1, 0, 3])
    at = locate([rows, cols], [chunk_starts((2, 3)), chunk_starts((2, 2))], [0, 1], 4)
    assert at.grid == (2, 2)
    assert [b.tolist() for b in at.bids] == [[0, 1, 1, 1], [0, 0, 0, 1]]
    assert [loc.tolist() for loc in at.local] == [[0, 2, 2, 0], [1, 1, 0, 1]]
    assert at.gid.tolist() == [0, 2, 2, 3]
    assert [(g, sel.tolist()) for g, sel in groups(at.gid)] == [(0, [0]), (2, [1, 2]), (3, [3])]
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 0 with size 5"):
        locate([np.array([5])], [chunk_starts((2, 3))], [0], 1)
