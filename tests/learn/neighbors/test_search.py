"""The brute-force search operator: one task per pair of blocks, shared by the results of
one search, and its order of ties."""

from __future__ import annotations

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.engine.plan import plan_stages
from jupyter_mars.learn.neighbors.search import Query, search
from jupyter_mars.learn.utils import fetch_all


def _tasks(*tensors: mt.Tensor) -> list[str]:
    """The names of the tasks that compute ``tensors`` together, before fusion."""
    stages = plan_stages([t.node for t in tensors], {}, 1)
    stage = next(stages)
    return [str(key[0] if isinstance(key, tuple) else key) for key in stage.graph]


def test_one_task_per_pair_of_blocks_shared_by_the_results() -> None:
    rows = np.random.RandomState(1).rand(10, 3)
    queries = mt.tensor(rows[:7], chunk_size=3)  # 3 blocks
    fitted = mt.tensor(rows, chunk_size=4)  # 3 blocks
    query = Query("euclidean", n_neighbors=2)
    distances, indices, graph = search(queries, fitted, query, ("distances", "indices", "distance"))
    names = _tasks(distances, indices, graph)
    assert sum(name.endswith("-pair") for name in names) == 3 * 3
    # a pair task holds one block of each: 3 x 4 distances at most, never all 7 x 10
    got_d, got_i, got_g = fetch_all(distances, indices, graph)
    assert got_d.shape == got_i.shape == (7, 2)
    np.testing.assert_allclose(got_g.toarray()[np.arange(7)[:, None], got_i], got_d)


@pytest.mark.parametrize("chunks", [1, 3, 10])
def test_ties_keep_the_lower_index_first(chunks: int) -> None:
    # four copies of each of three points: each query has four equal nearest
    points = np.tile([[0.0], [1.0], [3.0]], (4, 1))
    fitted = mt.tensor(points, chunk_size=chunks)
    query = Query("euclidean", n_neighbors=6)
    distances, indices = search(mt.tensor(points[:3]), fitted, query, ("distances", "indices"))
    got_d, got_i = fetch_all(distances, indices)
    full = np.abs(points[:3] - points.T)
    expected = np.argsort(full, axis=1, kind="stable")[:, :6]
    np.testing.assert_array_equal(got_i, expected)
    np.testing.assert_allclose(got_d, np.take_along_axis(full, expected, axis=1))


def test_excluding_each_row_itself_drops_the_nearest_when_duplicates_crowd_it_out() -> None:
    points = np.array([[0.0], [0.0], [0.0], [0.0], [5.0]])
    fitted = mt.tensor(points, chunk_size=2)
    query = Query("euclidean", n_neighbors=3, exclude_self=True)  # two reported
    (indices,) = search(fitted, fitted, query, ("indices",))
    (got,) = fetch_all(indices)
    # the three nearest of rows 0 to 3 are rows 0, 1 and 2 (equal distances, lower
    # index first): rows 0 to 2 drop themselves; row 3 is crowded out and drops row 0
    np.testing.assert_array_equal(got, [[1, 2], [0, 2], [0, 1], [1, 2], [0, 1]])


def test_radius_results_come_in_index_order_or_sorted() -> None:
    points = np.array([[0.0], [0.5], [0.2], [3.0], [0.1]])
    fitted = mt.tensor(points, chunk_size=2)
    for sort, expected in ((False, [0, 1, 2, 4]), (True, [0, 4, 2, 1])):
        query = Query("euclidean", radius=0.6, sort_results=sort)
        counts, indices, distances = search(
            mt.tensor(points[:1]), fitted, query, ("counts", "indices", "distances")
        )
        got_c, got_i, got_d = fetch_all(counts, indices, distances)
        np.testing.assert_array_equal(got_c, [4])
        np.testing.assert_array_equal(got_i, expected)
        np.testing.assert_allclose(got_d, np.abs(points[expected, 0]))
