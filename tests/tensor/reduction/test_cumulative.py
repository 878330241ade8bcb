"""Scans (``cumsum``, ``cumprod`` and NaN forms): values, C-order flattening, tiling."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from jupyter_mars.engine.plan import plan_stages
from tests.conftest import assert_same, chunkings
from tests.tensor.reduction.helpers import SCANS, check_like_numpy, data, tensors


@pytest.mark.parametrize("name", SCANS)
@pytest.mark.parametrize("chunks", chunkings((5, 6)))
def test_scan_matches_numpy_for_every_axis(name: str, chunks: Any, xp: Any) -> None:
    x = data((5, 6), seed=3, nans=name.startswith("nan"))
    for axis in [None, 0, 1, -1, -2]:
        check_like_numpy(name, x, chunks, xp=xp, axis=axis)


@pytest.mark.parametrize("name", SCANS)
def test_scan_of_3d_tensor_flattens_in_c_order(name: str) -> None:
    x = data((3, 4, 5), seed=4, nans=name.startswith("nan"))
    for chunks in [*chunkings(x.shape), (2, 3, 2)]:
        check_like_numpy(name, x, chunks)
        check_like_numpy(name, x, chunks, axis=1)


@given(st.data(), st.sampled_from(SCANS))
def test_scan_hypothesis_shapes_chunks_axes(hyp: Any, name: str) -> None:
    x, chunks = hyp.draw(tensors(nans=name.startswith("nan")))
    axis = hyp.draw(st.one_of(st.none(), st.integers(-x.ndim, x.ndim - 1)))
    check_like_numpy(name, x, chunks, axis=axis)


def test_scans_of_empty_tensor() -> None:
    x = np.empty((0, 3))
    for name in SCANS:
        for axis in [None, 0, 1]:
            check_like_numpy(name, x, (1, 2), axis=axis)


def test_scan_tasks_grow_linearly_and_read_at_most_two_chunks() -> None:
    x = np.arange(64.0).reshape(16, 4)
    t = mt.cumsum(mt.tensor(x, chunk_size=(2, 2)), axis=0)  # 8 x 2 chunks
    stage = next(plan_stages([t.node], {}))
    assert len(stage.graph) <= 4 * 16
    assert max(len(task.dependencies) for task in stage.graph.values()) <= 2
    result = t.execute()
    assert_same(result, np.cumsum(x, axis=0))


def test_flattening_scan_keeps_chunks_no_bigger_than_input_chunks(session: Any) -> None:
    x = np.arange(120.0).reshape(2, 6, 10)
    for chunks, biggest in [((1, 3, 4), 12), ((2, 6, 10), 120), ((1, 6, 5), 30)]:
        t = mt.cumsum(mt.tensor(x, chunk_size=chunks))
        assert_same(t, np.cumsum(x))
        (lengths,) = session.engine.executed[t.key].nsplits
        assert sum(lengths) == 120
        assert max(lengths) <= biggest
