"""``map_rows``: a kernel per block of rows, its inputs aligned on the first's rows."""

from __future__ import annotations

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.learn.cluster.rowmap import map_rows
from jupyter_mars.learn.utils import fetch_all


def _stack(a: np.ndarray, b: np.ndarray, scale: float) -> np.ndarray:
    return np.column_stack([a.sum(axis=1), b * scale, np.full(len(a), len(a))])


@pytest.mark.parametrize(("chunks_a", "chunks_b"), [((3, 2), 4), (10, 10), (1, 7)])
def test_blocks_of_rows_with_a_new_width(chunks_a: object, chunks_b: object) -> None:
    a = np.arange(30.0).reshape(10, 3)
    b = np.arange(10.0)
    out = map_rows(
        _stack,
        [mt.tensor(a, chunk_size=chunks_a), mt.tensor(b, chunk_size=chunks_b)],
        2.0,
        width=3,
        dtype=np.float64,
        name="stack",
    )
    assert out.shape == (10, 3)
    (got,) = fetch_all(out)
    np.testing.assert_allclose(got[:, :2], np.column_stack([a.sum(axis=1), b * 2]))
    rows = mt.tensor(a, chunk_size=chunks_a)._layout()[0]
    # one call per block of rows of the first input: each saw that many rows
    np.testing.assert_array_equal(got[:, 2], np.repeat(rows, rows))


def test_one_value_per_row() -> None:
    a = np.arange(12.0).reshape(6, 2)
    out = map_rows(np.max, [mt.tensor(a, chunk_size=4)], 1, width=None, dtype=a.dtype, name="max")
    (got,) = fetch_all(out)
    np.testing.assert_array_equal(got, a.max(axis=1))
