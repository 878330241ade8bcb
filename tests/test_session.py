"""Sessions, futures, eager mode and the lifetime of results, on the embedded runtime."""

import asyncio
import concurrent.futures
import gc
import threading
import time

import numpy as np
import pandas as pd
import pytest

import jupyter_mars as mars
import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt

CALLS: list[int] = []


def counting_double(block):
    CALLS.append(1)
    return block * 2


def sleepy(block, seconds):
    time.sleep(seconds)
    return block


def fail_on_negative(block):
    if (block < 0).any():
        raise ValueError("negative value in chunk")
    return block


def _held_keys(session):
    return set(session.engine.runtime.store.keys())


def test_execute_returns_the_tensor_and_its_repr_shows_data():
    t = mt.tensor(np.arange(6), chunk_size=4) + 1
    assert t.execute() is t
    assert repr(t) == repr(np.arange(6) + 1)
    np.testing.assert_array_equal(t.fetch(), np.arange(6) + 1)


def test_a_lazy_tensor_shows_its_shape_dtype_chunks_and_how_to_run_it():
    t = mt.ones((10, 7), chunk_size=(4, 5)) * 2
    assert repr(t) == (
        "Tensor <op=multiply, shape=(10, 7), dtype=float64, chunks=3x2; "
        "lazy: .execute() computes it>"
    )


def test_an_embedded_session_has_an_id_and_no_web_endpoint():
    # Mars's session_id and get_web_endpoint(): a session in this process has no web
    with mars.new_session(default=False) as first, mars.new_session(default=False) as second:
        assert first.session_id != second.session_id
        assert first.session_id == first.session_id
        assert first.get_web_endpoint() is None


def test_fetch_before_execute_is_an_error():
    t = mt.tensor(np.arange(3)) * 2
    with pytest.raises(ValueError, match="unexecuted"):
        t.fetch()


def test_session_execute_and_fetch_several_tensors(session):
    a = mt.tensor(np.arange(5), chunk_size=2)
    b = a * 3
    out = session.execute(a, b)
    assert isinstance(out, mars.ExecutableTuple)
    assert out[1] is b
    data = session.fetch(a, b)
    np.testing.assert_array_equal(data[1], np.arange(5) * 3)
    np.testing.assert_array_equal(mars.fetch(b), np.arange(5) * 3)


def test_numpy_functions_stay_lazy_and_asarray_computes():
    t = mt.tensor(np.arange(4.0), chunk_size=3)
    lazy = np.sum(np.exp(t))
    assert isinstance(lazy, mt.Tensor)
    assert float(np.asarray(lazy)) == pytest.approx(np.exp(np.arange(4.0)).sum())


def test_results_are_reused_not_recomputed():
    CALLS.clear()
    x = mt.elemwise(counting_double, mt.tensor(np.arange(8), chunk_size=2), dtype=np.int64)
    x.execute()
    assert len(CALLS) == 4
    (x + 1).execute()
    x.sum().execute()
    assert len(CALLS) == 4


def test_intermediate_chunks_are_freed_after_execution(session):
    before = _held_keys(session)
    x = mt.tensor(np.arange(100), chunk_size=10)
    y = ((x + 1) * 2).sum()
    y.execute()
    new = _held_keys(session) - before
    assert new == set(session.engine.executed[y.key].flat_keys())
    assert len(new) == 1


def test_results_are_released_when_the_tensor_is_garbage_collected(session):
    x = mt.tensor(np.arange(100), chunk_size=10) + 1
    x.execute()
    keys = set(session.engine.executed[x.key].flat_keys())
    assert keys <= _held_keys(session)
    del x
    gc.collect()
    assert not keys & _held_keys(session)


def test_future_resolves_to_the_executed_tensor():
    t = mt.tensor(np.arange(10.0), chunk_size=3).sum()
    future = t.execute(wait=False)
    assert isinstance(future, concurrent.futures.Future)
    result = future.result(timeout=30)
    assert result is t
    assert future.done()
    assert future.exception() is None
    assert future.progress() == 1.0
    assert float(np.asarray(future.result())) == 45.0
    assert repr(result) == repr(np.float64(45.0)) or repr(result) == repr(np.array(45.0))


def test_future_done_callback_and_await():
    seen = []
    t = mt.tensor(np.arange(4), chunk_size=1) * 2
    future = t.execute(wait=False)
    future.add_done_callback(lambda f: seen.append(f.result()))

    async def main():
        return await future

    assert asyncio.run(main()) is t
    deadline = time.time() + 5
    while not seen and time.time() < deadline:
        time.sleep(0.01)
    assert seen == [t]


def test_progress_moves_from_zero_to_one():
    x = mt.elemwise(sleepy, mt.tensor(np.arange(8), chunk_size=1), 0.05, dtype=np.int64)
    future = x.execute(wait=False)
    values = [future.progress()]
    while not future.done():
        values.append(future.progress())
        time.sleep(0.02)
    future.result()
    values.append(future.progress())
    assert values[0] < 1.0
    assert values[-1] == 1.0
    assert values == sorted(values)


def test_cancel_stops_running_work_and_other_jobs_survive(session):
    keep = (mt.tensor(np.arange(10), chunk_size=5) + 1).execute()
    slow = mt.elemwise(sleepy, mt.tensor(np.arange(40), chunk_size=1), 0.2, dtype=np.int64)
    future = slow.execute(wait=False)
    time.sleep(0.1)
    started = time.time()
    assert future.cancel()
    assert future.cancelled()
    with pytest.raises(concurrent.futures.CancelledError):
        future.result(timeout=1)
    # the job's threads are released quickly, not after 40 * 0.2 s
    other = (mt.tensor(np.arange(3)) + 1).execute()
    assert time.time() - started < 3
    np.testing.assert_array_equal(other.fetch(), [1, 2, 3])
    np.testing.assert_array_equal(keep.fetch(), np.arange(10) + 1)


def test_failure_names_the_operator_and_keeps_the_session_usable():
    bad = mt.elemwise(fail_on_negative, mt.tensor(np.array([1, -1, 2, 3]), chunk_size=2))
    with pytest.raises(ValueError, match="negative value in chunk") as info:
        bad.execute()
    notes = getattr(info.value, "__notes__", [])
    assert any("fail_on_negative" in n for n in notes) or not hasattr(info.value, "add_note")
    assert (mt.tensor(np.arange(3)) * 2).sum().execute().fetch() == 6


def test_failure_in_a_future_is_reported_by_exception():
    bad = mt.elemwise(fail_on_negative, mt.tensor(np.array([-1])))
    future = bad.execute(wait=False)
    assert isinstance(future.exception(timeout=10), ValueError)


def test_eager_mode_executes_at_creation(session):
    with mars.option_context({"eager_mode": True}):
        t = mt.tensor(np.arange(4)) + 1
        assert session.is_executed(t)
        assert "array" in repr(t)
    lazy = mt.tensor(np.arange(4)) + 1
    assert not session.is_executed(lazy)


def test_show_progress_draws_a_bar(capsys):
    (mt.tensor(np.arange(10), chunk_size=2) + 1).execute(show_progress=True)
    err = capsys.readouterr().err
    assert "100.0%" in err
    assert "[" in err


def test_new_session_becomes_default_and_closes():
    previous = mars.get_default_session()
    with mars.new_session(n_cpu=1) as s:
        assert mars.get_default_session() is s
        assert (mt.tensor([1, 2]) + 1).execute().fetch().tolist() == [2, 3]
    assert mars.get_default_session() is None
    previous.as_default()


def test_bad_session_arguments_are_rejected():
    with pytest.raises(ValueError, match="n_cpu"):
        mars.new_session(n_cpu=0, default=False)
    with pytest.raises(TypeError, match="execute\\(\\) takes tensors"):
        mars.execute(3)


def test_unknown_option_is_rejected():
    with pytest.raises(AttributeError, match="unknown option 'chunk_sise'"):
        mars.options.chunk_sise = 3
    with pytest.raises(ValueError, match="combine_size"):
        mars.options.combine_size = 1


@pytest.mark.parametrize("n_cpu", [1, 2, 3])
def test_long_tasks_run_on_exactly_n_cpu_threads(n_cpu):
    running = []
    peak = []
    lock = threading.Lock()

    def track(block):
        with lock:
            running.append(1)
            peak.append(len(running))
        time.sleep(0.03)
        with lock:
            running.pop()
        return block

    with mars.new_session(n_cpu=n_cpu, default=False) as s:
        t = mt.elemwise(track, mt.tensor(np.arange(12), chunk_size=1), dtype=np.int64)
        s.execute(t)
    assert max(peak) == n_cpu


def test_a_task_that_asks_its_own_session_to_compute_fails_rather_than_waits():
    with mars.new_session(default=True) as session:
        other = mt.ones(3, chunk_size=3)
        s = md.Series(pd.Series(np.arange(6.0)), chunk_size=3)
        started = time.monotonic()
        with pytest.raises(RuntimeError, match="would wait for itself"):
            s.map(lambda v: v + float(other.sum())).execute(session=session)
        assert time.monotonic() - started < 30
        assert s.sum().execute(session=session).fetch() == 15.0  # the session goes on
