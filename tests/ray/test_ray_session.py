"""A ``RaySession`` on a real local Ray cluster (head and second node on 127.0.0.1):
results against NumPy and pandas, futures, cancel, errors, eager mode and freeing."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import psutil
import pytest

import jupyter_mars as mars
import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.engine.graph import Ref, Task
from tests.cluster.processes import wait_until
from tests.dataframe.test_cluster_frames import OPERATIONS

ray = pytest.importorskip("ray", reason="Ray is optional: pip install 'jupyter_mars[ray]'")


@ray.remote
def _package_file() -> str:
    return str(Path(mars.__file__).resolve())


def test_ray_workers_run_this_tree(on_ray: Any) -> None:
    assert ray.get(_package_file.remote()) == str(Path(mars.__file__).resolve())
    assert on_ray.n_cpu == 2
    assert on_ray.address.startswith("127.0.0.1:")


TENSOR_OPS = {
    # name: (on a lazy tensor, on a NumPy array)
    "matmul": (lambda x: x @ x.T, lambda a: a @ a.T),
    "std_axis0": (lambda x: x.std(axis=0), lambda a: a.std(axis=0)),
    "boolean_index": (lambda x: x[x[:, 0] > 0.5][:3], lambda a: a[a[:, 0] > 0.5][:3]),
    "unique": (
        lambda x: mt.unique((x * 10).astype(int)),
        lambda a: np.unique((a * 10).astype(int)),
    ),
    "cumsum_axis1": (lambda x: x.cumsum(axis=1), lambda a: a.cumsum(axis=1)),
    "sort_axis0": (lambda x: mt.sort(x, axis=0), lambda a: np.sort(a, axis=0)),
    "argmax": (lambda x: x.argmax(axis=0), lambda a: a.argmax(axis=0)),
}


@pytest.mark.parametrize("chunks", [(70, 13), (300, 7)])
@pytest.mark.parametrize("name", sorted(TENSOR_OPS))
def test_tensor_results_equal_numpy(on_ray: Any, name: str, chunks: tuple[int, int]) -> None:
    data = np.random.default_rng(3).random((300, 40))
    lazy, eager = TENSOR_OPS[name]
    got = lazy(mt.tensor(data, chunk_size=chunks)).execute().fetch()
    np.testing.assert_allclose(got, eager(data))


def _frame(n: int = 600) -> pd.DataFrame:
    rng = np.random.default_rng(7)
    v = rng.normal(size=n)
    v[rng.integers(0, n, n // 10)] = np.nan
    return pd.DataFrame(
        {
            "k": rng.integers(0, 40, n),
            "s": rng.choice(["red", "green", "blue", "a b", "Zed"], n),
            "v": v,
            "i": rng.integers(-50, 50, n),
            "t": pd.date_range("2024-01-01", periods=n, freq="37min"),
        }
    )


FRAME_OPS = [
    "groupby_tree",
    "groupby_median",
    "sort_values",
    "filter_then_iloc",
    "fillna_ffill_cumsum",
    "pivot_table",
]
"""Representative families of ``OPERATIONS``, kept few: each costs seconds on Ray here."""


@pytest.mark.parametrize("chunk_size", [70, 250])
@pytest.mark.parametrize("name", FRAME_OPS)
def test_dataframe_results_equal_pandas(on_ray: Any, name: str, chunk_size: int) -> None:
    pdf = _frame()
    op, _ = OPERATIONS[name]
    got = op(md.DataFrame(pdf, chunk_size=chunk_size)).execute().fetch()
    expected = op(pdf)
    if isinstance(expected, pd.DataFrame):
        pd.testing.assert_frame_equal(got, expected, check_exact=False, rtol=1e-9)
    else:
        pd.testing.assert_series_equal(got, expected, check_exact=False, rtol=1e-9)


def test_groupby_shuffle_runs_on_ray(on_ray: Any) -> None:
    pdf = _frame()
    lazy = md.DataFrame(pdf, chunk_size=50).groupby(["k", "s"]).agg({"v": "sum"}, method="shuffle")
    pd.testing.assert_frame_equal(lazy.execute().fetch(), pdf.groupby(["k", "s"]).agg({"v": "sum"}))


def test_future_reports_progress_and_chunks(on_ray: Any) -> None:
    x = mt.random.rand(4000, chunk_size=100)
    future = (x * 2).sum().execute(wait=False)
    assert float(np.asarray(future.result(timeout=120))) > 0
    assert future.progress() == 1.0
    done, total = future.chunks()
    assert done == total > 40


def sleep_in_worker(block: np.ndarray, marks: str) -> np.ndarray:
    """Sleeps far longer than the test waits, in C (``time.sleep``), after noting the
    process it runs in."""
    (Path(marks) / f"started-{os.getpid()}").touch()
    time.sleep(600)
    return block


def _running(marks: Path) -> list[int]:
    """The processes of the tasks that started and still run."""
    pids = [int(p.name.split("-")[1]) for p in marks.glob("started-*")]
    return [pid for pid in pids if psutil.pid_exists(pid)]


def test_cancel_stops_tasks_running_on_ray(on_ray: Any, tmp_path: Path) -> None:
    slow = mt.elemwise(
        sleep_in_worker, mt.tensor(np.arange(4), chunk_size=1), str(tmp_path), dtype=int
    )
    future = slow.execute(wait=False)
    assert wait_until(lambda: len(list(tmp_path.glob("started-*"))) >= 2, 120.0)
    assert future.cancel()
    assert future.cancelled()
    # the tasks that were running stopped where they ran: their Ray workers are gone
    assert wait_until(lambda: not _running(tmp_path), 60.0)
    assert wait_until(lambda: on_ray.runtime.counts()["in_flight"] == 0, 30.0)
    assert len(list(tmp_path.glob("started-*"))) == 2  # the queued ones never started
    assert (mt.tensor(np.arange(4)) + 1).execute().fetch().tolist() == [1, 2, 3, 4]


def failing_kernel(block: np.ndarray) -> np.ndarray:
    raise ValueError("bad chunk on Ray")


def test_errors_keep_their_type_and_name_the_operator(on_ray: Any) -> None:
    x = mt.tensor(np.arange(400), chunk_size=10)
    with pytest.raises(ValueError, match="bad chunk on Ray") as info:
        mt.elemwise(failing_kernel, x, dtype=np.int64).sum().execute()
    assert not isinstance(info.value, ray.exceptions.RayError)
    notes = " ".join(getattr(info.value, "__notes__", []))
    assert "failing_kernel" in notes or sys.version_info < (3, 11)
    with_nan = md.DataFrame(pd.DataFrame({"a": [1.0, np.nan, 3.0]}), chunk_size=2)
    with pytest.raises(pd.errors.IntCastingNaNError, match="non-finite values"):
        with_nan.astype("int64").execute()


def test_eager_mode_executes_on_ray(on_ray: Any) -> None:
    with mars.option_context({"eager_mode": True}):
        t = mt.tensor(np.arange(4), chunk_size=2) + 1
        assert on_ray.is_executed(t)
        assert "array" in repr(t)
    for key in on_ray.engine.executed[t.key].flat_keys():
        assert isinstance(on_ray.runtime.object_ref(key), ray.ObjectRef)
    np.testing.assert_array_equal(t.fetch(), np.arange(4) + 1)


def _ray_object_ids() -> set[str]:
    """The objects Ray counts references to in this process (Ray's own table)."""
    worker = ray._private.worker.global_worker
    ids = worker.core_worker.get_all_reference_counts()
    return {i.decode() if isinstance(i, bytes) else str(i) for i in ids}


def test_results_are_freed_in_ray_when_collected(on_ray: Any) -> None:
    x = (mt.tensor(np.ones((1000, 100)), chunk_size=100) + 1).execute()
    keys = list(on_ray.engine.executed[x.key].flat_keys())
    ids = {on_ray.runtime.object_ref(k).hex() for k in keys}
    assert len(ids) == 10
    assert ids <= _ray_object_ids()
    del x
    gc.collect()
    assert wait_until(lambda: not ids & _ray_object_ids(), 10.0)
    assert all(k not in on_ray.runtime.shapes for k in keys)


def test_adopted_refs_are_read_as_chunks(on_ray: Any) -> None:
    runtime = on_ray.runtime
    ref = ray.put(np.arange(5))
    runtime.adopt(("adopted", 0), ref, (5,), 40)
    assert runtime.object_ref(("adopted", 0)) == ref
    job = runtime.submit({"plus": Task("plus", np.add, (Ref(("adopted", 0)), 1))}, ("plus",), {})
    assert job.wait(60)
    assert job.error is None
    assert runtime.get("plus").tolist() == [1, 2, 3, 4, 5]
    assert runtime.shapes["plus"] == (5,)
    with pytest.raises(KeyError, match="held already"):
        runtime.adopt(("adopted", 0), ref, (5,))
    runtime.release_keys(("plus", ("adopted", 0)))
    with pytest.raises(KeyError):
        runtime.object_ref(("adopted", 0))


def test_a_second_session_reuses_the_connection_and_close_frees(on_ray: Any) -> None:
    other = mars.new_ray_session(default=False)
    assert not other.connected
    assert other.address == on_ray.address
    y = other.execute(mt.tensor(np.arange(100.0), chunk_size=10) * 2)
    assert other.fetch(y).tolist() == (np.arange(100.0) * 2).tolist()
    assert other.runtime.counts()["held"] == 10
    other.close()
    assert other.runtime.counts()["held"] == 0
    assert ray.is_initialized()  # the connection was not this session's
    assert "closed" in repr(other)
    assert "ray address=127.0.0.1:" in repr(on_ray)


def test_bad_address_is_refused_with_a_clear_error() -> None:
    with pytest.raises(TypeError, match="address must be a Ray address"):
        mars.new_ray_session(6379)  # type: ignore[arg-type]


def test_importing_the_package_does_not_import_ray_and_a_missing_ray_is_explained() -> None:
    code = (
        "import sys\n"
        "import jupyter_mars as mars\n"
        "assert 'ray' not in sys.modules, 'ray imported'\n"
        "sys.modules['ray'] = None  # as if it were not installed\n"
        "try:\n"
        "    mars.new_ray_session()\n"
        "except ImportError as e:\n"
        "    print('ERR', e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert "ERR Ray sessions need Ray" in out.stdout
    assert "pip install 'jupyter_mars[ray]'" in out.stdout


def fail_once_with_memory_error(block: np.ndarray, marks: str) -> np.ndarray:
    """Raises ``MemoryError`` the first time it runs on each chunk (noted in ``marks``)."""
    mark = Path(marks) / f"ran-{int(block[0])}"
    if not mark.exists():
        mark.touch()
        raise MemoryError("no room this time")
    return block + 1


def test_a_retriable_failure_is_run_again(on_ray: Any, tmp_path: Path) -> None:
    x = mt.tensor(np.arange(6), chunk_size=2)
    y = mt.elemwise(fail_once_with_memory_error, x, str(tmp_path), dtype=np.int64)
    assert y.execute().fetch().tolist() == [1, 2, 3, 4, 5, 6]
    assert len(list(tmp_path.glob("ran-*"))) == 3


def test_concurrent_executions_share_held_chunks(on_ray: Any) -> None:
    data = np.random.default_rng(5).random((400, 30))
    a = mt.tensor(data, chunk_size=(50, 30)).execute()
    futures = [(a * k).sum(axis=0).execute(wait=False) for k in range(1, 5)]
    for k, future in enumerate(futures, start=1):
        np.testing.assert_allclose(future.result(timeout=120).fetch(), (data * k).sum(axis=0))
    np.testing.assert_array_equal(a.fetch(), data)
