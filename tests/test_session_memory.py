"""The embedded runtime's memory limit: chunks past it go to disk and come back, tasks
start only while they fit, the figures say where the bytes are, bad limits fail early."""

import os

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.engine.storage.admission import physical_memory, process_rss
from jupyter_mars.session import new_session
from tests.peak_rss import PeakRss

MIB = 2**20


def test_results_equal_numpy_and_spilled_chunks_come_back(tmp_path):
    data = np.random.default_rng(0).random((5000, 500))  # 20 MB in 20 chunks
    with new_session(memory_limit=4 * MIB, spill_dir=tmp_path, default=False) as session:
        x = mt.tensor(data, chunk_size=(250, 500))
        y = (x * 2 + 1).execute(session=session)
        info = session.memory_info()
        assert info["memory_limit"] == 4 * MIB
        assert info["spilled_bytes"] > 0
        assert info["spill_writes"] > 0
        assert info["memory_bytes"] + info["spilled_bytes"] == data.nbytes
        assert info["memory_bytes"] <= 4 * MIB
        assert list(tmp_path.glob("*/*.chunk"))  # in the given directory
        total = y.sum().execute(session=session).fetch(session=session)
        np.testing.assert_allclose(total, (data * 2 + 1).sum())
        biggest = y.max().execute(session=session).fetch(session=session)
        np.testing.assert_array_equal(biggest, data.max() * 2 + 1)
        np.testing.assert_array_equal(y.fetch(session=session), data * 2 + 1)
        assert session.memory_info()["spill_reads"] > 0
    assert not list(tmp_path.glob("*/*.chunk"))  # removed at close


def test_memory_stays_near_the_limit():
    limit = 16 * MIB
    with new_session(memory_limit=limit, default=False) as session:
        before = process_rss()
        with PeakRss() as rss:
            x = mt.random.rand(12 * 1024, 1024, chunk_size=(256, 1024))  # 96 MiB of 2 MiB chunks
            x.execute(session=session)
            total = x.sum().execute(session=session).fetch(session=session)
            biggest = x.max().execute(session=session).fetch(session=session)
        info = session.memory_info()
    assert 0.49 < total / x.size < 0.51
    assert 0.99 < biggest <= 1
    assert info["spilled_bytes"] >= 64 * MIB  # most of it lives on disk
    # a few chunks of slack: tasks running on each thread, and the allocator's own
    assert rss.peak - before < limit + 12 * MIB


DRAWN = {
    "rand": lambda rs: rs.rand(4096, 1024, chunk_size=(256, 1024)),
    "normal": lambda rs: rs.normal(3.0, 2.0, size=(4096, 1024), chunk_size=(512, 512)),
    "arange": lambda rs: mt.arange(4 * 2**20, chunk_size=2**18),
    "ones": lambda rs: mt.ones((4096, 1024), dtype="f4", chunk_size=(256, 1024)),
}


@pytest.mark.parametrize("name", sorted(DRAWN))
def test_chunks_drawn_again_are_dropped_not_written_and_come_back_the_same(tmp_path, name):
    make = DRAWN[name]
    with new_session(memory_limit=8 * MIB, spill_dir=tmp_path, default=False) as session:
        x = make(mt.random.RandomState(7))
        x.execute(session=session)
        info = session.memory_info()
        assert info["drops"] + info["undrawn"] > 0
        # kernels that say what they make are not drawn at all past the limit
        assert (info["undrawn"] > 0) == (name in ("rand", "ones"))
        assert info["spill_writes"] == 0
        assert not list(tmp_path.glob("*/*.chunk"))
        total = x.sum().execute(session=session).fetch(session=session)
        got = x.fetch(session=session)
        assert session.memory_info()["recomputes"] > 0
        y = (x * 2).execute(session=session)  # computed from x: written, not dropped
        assert session.memory_info()["spill_writes"] > 0
        np.testing.assert_array_equal(y.fetch(session=session), got * 2)
    with new_session(default=False) as plain:
        expected = make(mt.random.RandomState(7)).execute(session=plain).fetch(session=plain)
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_allclose(total, expected.sum(), rtol=1e-9)


def test_a_pass_over_a_held_array_past_the_limit_draws_each_dropped_chunk_once():
    # 128 MiB in 64 chunks of 2 MiB under a 64 MiB limit: about half stays in memory. A
    # pass that read back the chunks out of memory by pushing out the least recently
    # used would push out the very chunks it reads next, and draw all 64 again
    with new_session(memory_limit=64 * MIB, default=False) as session:
        x = mt.random.RandomState(0).rand(64 * 256, 1024, chunk_size=(256, 1024))
        x.execute(session=session)
        for reduction in (x.sum(), x.max(), x.mean(axis=0)):
            info = session.memory_info()
            assert 16 < info["n_memory"] < 48
            reduction.execute(session=session)
            drawn = session.memory_info()["recomputes"] - info["recomputes"]
            assert drawn <= info["n_spilled"] + 4, (drawn, info["n_spilled"])


def test_temporary_spill_directory_is_removed_at_close():
    session = new_session(memory_limit="1MiB", default=False)
    spill_dir = session._runtime._own_spill_dir
    assert spill_dir is not None
    assert os.path.isdir(spill_dir)
    x = mt.ones((1000, 1000), chunk_size=100).execute(session=session)
    assert session.memory_info()["spilled_bytes"] > 0
    del x
    session.close()
    assert not os.path.exists(spill_dir)


def test_limit_takes_the_worker_sizes():
    with new_session(memory_limit="512MiB", default=False) as session:
        assert session.memory_limit == 512 * MIB
        assert "memory_limit=536870912" in repr(session)
    with new_session(memory_limit=5 * MIB, default=False) as session:
        assert session.memory_limit == 5 * MIB
    with new_session(memory_limit="10%", default=False) as session:
        assert session.memory_limit == physical_memory() // 10
    with new_session(default=False) as session:
        assert session.memory_limit is None
        assert session.memory_info()["memory_limit"] is None


@pytest.mark.parametrize(
    ("value", "error"),
    [
        (True, TypeError),
        (1.5e9, TypeError),
        ([1], TypeError),
        ("lots", ValueError),
        ("-1GiB", ValueError),
        (-5, ValueError),
        (0, ValueError),
        ("0", ValueError),
        ("200%", ValueError),
        (2**62, ValueError),
    ],
)
def test_bad_limits_fail_naming_memory_limit(value, error):
    with pytest.raises(error, match="memory_limit"):
        new_session(memory_limit=value, default=False)


def test_spill_dir_needs_a_limit_and_a_path(tmp_path):
    with pytest.raises(ValueError, match="spill_dir"):
        new_session(spill_dir=tmp_path, default=False)
    with pytest.raises(TypeError, match="spill_dir"):
        new_session(memory_limit="1GiB", spill_dir=3, default=False)
    with pytest.raises(TypeError, match="memory_limit"):
        new_session("http://127.0.0.1:1", memory_limit="1GiB", default=False)
