"""``assemble``: chunk arrays put back together, in the memory order the chunks share."""

import numpy as np

from jupyter_mars.engine.assemble import assemble
from jupyter_mars.engine.node import Tiled, key_grid


def tiled(nsplits):
    return Tiled(nsplits, key_grid("x", [len(axis) for axis in nsplits]))


def chunks_of(whole, nsplits, order):
    rows = np.cumsum([0, *nsplits[0]])
    cols = np.cumsum([0, *nsplits[1]])
    return [
        np.asarray(whole[rows[i] : rows[i + 1], cols[j] : cols[j + 1]], order=order)
        for i in range(len(nsplits[0]))
        for j in range(len(nsplits[1]))
    ]


def test_c_ordered_chunks_give_a_c_ordered_array():
    whole = np.arange(20.0).reshape(4, 5)
    nsplits = ((2, 2), (3, 2))
    out = assemble(tiled(nsplits).numblocks, chunks_of(whole, nsplits, "C"), whole.dtype)
    np.testing.assert_array_equal(out, whole)
    assert out.flags.c_contiguous


def test_fortran_ordered_chunks_give_a_fortran_ordered_array():
    whole = np.arange(20.0).reshape(4, 5)
    nsplits = ((2, 2), (3, 2))
    out = assemble(tiled(nsplits).numblocks, chunks_of(whole, nsplits, "F"), whole.dtype)
    np.testing.assert_array_equal(out, whole)
    assert out.flags.f_contiguous
    assert not out.flags.c_contiguous


def test_chunks_both_c_and_fortran_ordered_give_c_order():
    whole = np.arange(20.0).reshape(4, 5)
    nsplits = ((1,) * 4, (1,) * 5)
    out = assemble(tiled(nsplits).numblocks, chunks_of(whole, nsplits, "F"), whole.dtype)
    np.testing.assert_array_equal(out, whole)
    assert out.flags.c_contiguous


def test_a_0d_result_is_a_numpy_scalar_as_numpy_gives_it():
    out = assemble(tiled(()).numblocks, [np.array(2.5)], np.dtype(np.float64))
    assert type(out) is np.float64
    assert out == 2.5


def test_threads_give_the_same_array():
    whole = np.arange(3_000_000.0).reshape(3000, 1000)
    nsplits = ((1000, 1000, 1000), (600, 400))
    for order in ("C", "F"):
        out = assemble(
            tiled(nsplits).numblocks, chunks_of(whole, nsplits, order), whole.dtype, threads=2
        )
        np.testing.assert_array_equal(out, whole)
