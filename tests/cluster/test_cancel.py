"""Cancelling an execution stops its tasks on the workers, measured on real processes."""

from __future__ import annotations

import os
import time
from concurrent.futures import CancelledError
from pathlib import Path
from typing import Any

import numpy as np
import psutil
import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.remote import HttpClient
from tests.cluster.processes import cli_cluster, remote_session, wait_until

SPIN_SECONDS = 30.0


def spin_kernel(block: np.ndarray, folder: str, seconds: float) -> np.ndarray:
    """Spins in pure Python for ``seconds``; notes in ``folder`` when it starts and stops."""
    name = f"{os.getpid()}-{int(block[0])}"
    Path(folder, f"started-{name}").touch()
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            pass
    finally:
        Path(folder, f"stopped-{name}").touch()
    return block


def _spins(n: int, folder: Path) -> Any:
    """``n`` one-element chunks, each spinning for ``SPIN_SECONDS`` when computed."""
    chunks = mt.tensor(np.arange(n), chunk_size=1)
    return mt.elemwise(spin_kernel, chunks, str(folder), SPIN_SECONDS, dtype=np.int64)


def _files(folder: Path, prefix: str) -> list[str]:
    return sorted(p.name.removeprefix(prefix) for p in folder.glob(f"{prefix}*"))


def _cpu_seconds(processes: list[psutil.Process], window: float) -> float:
    """CPU seconds ``processes`` used together over ``window`` seconds of wall time."""
    before = sum(sum(p.cpu_times()[:2]) for p in processes)
    time.sleep(window)
    return sum(sum(p.cpu_times()[:2]) for p in processes) - before


def test_cancel_stops_running_tasks_on_the_workers_and_frees_their_slots(
    tmp_path: Path, session: Any
) -> None:
    with cli_cluster(2, "--n-cpu", "1") as cluster, remote_session(cluster, session) as remote:
        workers = [psutil.Process(w.popen.pid) for w in cluster.workers]
        spins = _spins(4, tmp_path)
        future = spins.execute(session=remote, wait=False)
        # one task computes on each worker's core, one more waits there for it
        assert wait_until(lambda: len(_files(tmp_path, "started-")) == 2, 60)
        assert future.cancel()
        started = _files(tmp_path, "started-")

        nxt = (mt.tensor(np.arange(4), chunk_size=1) + 1).execute(session=remote, wait=False)
        # far sooner than the spinning tasks would have ended
        assert np.asarray(nxt.result(timeout=15)).tolist() == [1, 2, 3, 4]
        assert wait_until(lambda: _files(tmp_path, "stopped-") == started, 10), (
            "the cancelled tasks still run"
        )
        assert _files(tmp_path, "started-") == started  # the waiting ones never ran
        busy = _cpu_seconds(workers, 2.0)
        assert busy < 1.0, f"workers used {busy:.2f} CPU seconds in 2 s after the cancel"


def test_a_cancel_from_another_client_cancels_the_future(tmp_path: Path, session: Any) -> None:
    """Cancelled elsewhere (the Lab panel, the dashboard, another client), an execution's
    future is cancelled, as when its own cancel() is called: not failed."""
    with cli_cluster(1, "--n-cpu", "1") as cluster, remote_session(cluster, session) as remote:
        spins = _spins(2, tmp_path)
        future = spins.execute(session=remote, wait=False)
        assert wait_until(lambda: len(_files(tmp_path, "started-")) == 1, 60)
        term = remote._term  # where this session's requests go
        execution_id = future._progress.current.execution_id
        other = HttpClient(cluster.url, cluster.token, timeout=10)
        other.json("POST", f"{term.base}/executions/{execution_id}/cancel")
        assert wait_until(future.done, 15)
        assert future.cancelled()
        with pytest.raises(CancelledError):
            future.result(timeout=1)
