"""``copy_all``: chunks copied into their places, shared out among threads."""

import threading

import numpy as np
import pytest

from jupyter_mars.engine import copies
from jupyter_mars.engine.copies import PARALLEL_BYTES, copy_all


def _pieces(n_pieces, rows, width=1):
    sources = [np.full((rows, width), float(i)) for i in range(n_pieces)]
    out = np.zeros((n_pieces * rows, width))
    pairs = [(out[i * rows : (i + 1) * rows], s) for i, s in enumerate(sources)]
    return out, sources, pairs


@pytest.fixture
def copying_threads(monkeypatch):
    """The threads that run copies, filled in as they run."""
    seen = set()
    real = copies._run

    def spy(run):
        seen.add(threading.get_ident())
        real(run)

    monkeypatch.setattr(copies, "_run", spy)
    return seen


@pytest.mark.parametrize("threads", [1, 2, 3, 8])
def test_every_source_lands_in_its_place(threads):
    rows = PARALLEL_BYTES // 8 // 5 + 1  # big enough for several threads
    out, sources, pairs = _pieces(7, rows)
    copy_all(pairs, threads)
    np.testing.assert_array_equal(out, np.concatenate(sources))


def test_small_copies_stay_on_the_calling_thread(copying_threads):
    seen = copying_threads
    out, sources, pairs = _pieces(4, 10)
    copy_all(pairs, 4)
    assert seen == {threading.get_ident()}
    np.testing.assert_array_equal(out, np.concatenate(sources))


def test_large_copies_use_no_more_threads_than_given(copying_threads):
    seen = copying_threads
    rows = PARALLEL_BYTES // 8 // 3 + 1
    out, sources, pairs = _pieces(9, rows)
    copy_all(pairs, 2)
    assert 1 <= len(seen) <= 2  # a pool thread done with its share may take the next
    assert threading.get_ident() not in seen
    np.testing.assert_array_equal(out, np.concatenate(sources))


def test_shares_are_consecutive_and_about_even():
    _, _, pairs = _pieces(10, 100)
    runs = copies._shares(pairs, 3)
    assert [p for run in runs for p in run] == pairs
    assert len(runs) == 3
    assert max(len(r) for r in runs) - min(len(r) for r in runs) <= 1


def test_a_failed_copy_raises_in_the_caller():
    rows = PARALLEL_BYTES // 8 + 1
    out = np.zeros(2 * rows)
    pairs = [(out[:rows], np.ones(rows)), (out[rows:], np.ones(rows + 1))]
    with pytest.raises(ValueError, match="broadcast"):
        copy_all(pairs, 2)
