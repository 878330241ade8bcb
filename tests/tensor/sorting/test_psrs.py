"""The parallel sample sort: chunks kept, ties spread over buckets, many chunks."""

from __future__ import annotations

from typing import Any

import numpy as np

import jupyter_mars.tensor as mt
from jupyter_mars.tensor.sorting import psrs
from tests.conftest import assert_same, needs_gpu
from tests.tensor.sorting.helpers import RNG, awkward_floats, executed_nsplits


def test_sort_along_split_axis_keeps_the_input_chunks(session: Any) -> None:
    a = awkward_floats((9, 8))
    x = mt.tensor(a, chunk_size=(4, 3))
    s = mt.sort(x, axis=0).execute()
    assert executed_nsplits(session, s) == ((4, 4, 1), (3, 3, 2))
    flat = mt.sort(x, axis=None).execute()
    # one output chunk per input chunk, same sizes, in grid order
    assert executed_nsplits(session, flat) == ((12, 12, 8, 12, 12, 8, 3, 3, 2),)
    np.testing.assert_array_equal(flat.fetch(), np.sort(a, axis=None))


def test_sort_of_all_equal_values_spreads_over_buckets() -> None:
    """Ties are broken by position, so one value does not end up in a single bucket."""
    chunks = [np.zeros((1, 50)) for _ in range(4)]
    locals_ = [psrs.psrs_local_axis(c, 1, 50 * i, False) for i, c in enumerate(chunks)]
    samples = [psrs.psrs_sample(loc, 10) for loc in locals_]
    pivots = psrs.psrs_pivots(4, *samples)
    cuts = [psrs.psrs_cuts(loc, pivots) for loc in locals_]
    bucket_sizes = np.diff(psrs.psrs_offsets(*cuts), axis=1)[0]
    assert bucket_sizes.sum() == 200
    assert bucket_sizes.max() <= 2 * 200 // 4


def test_sort_of_many_chunks_with_heavy_duplicates() -> None:
    a = RNG.integers(0, 3, size=300)
    x = mt.tensor(a, chunk_size=13)
    assert_same(mt.sort(x), np.sort(a))
    assert_same(mt.argsort(x), np.argsort(a, kind="stable"))


@needs_gpu
def test_gpu_chunks_sorted_on_the_host_come_back_to_the_gpu() -> None:
    import cupy

    a = awkward_floats((6, 7))
    x = mt.tensor(a, chunk_size=(3, 2)).to_gpu()
    for result, expected in [
        (mt.sort(x, axis=1), np.sort(a, axis=1)),
        (mt.argsort(x, axis=None), np.argsort(a, axis=None, kind="stable")),
        (mt.unique(x), np.unique(a)),
    ]:
        value = result.execute().fetch()
        assert isinstance(value, cupy.ndarray)
        assert_same(value, expected)
