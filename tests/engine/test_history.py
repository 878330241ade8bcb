"""An engine session's execution history: every run is recorded with its name, progress
and outcome, and a record can be cancelled from another thread."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.engine.future import Progress
from jupyter_mars.engine.history import ExecutionHistory, ExecutionRecord


def _fails(block: np.ndarray) -> np.ndarray:
    raise ValueError("bad block")


def _waits(block: np.ndarray, gate: threading.Event) -> np.ndarray:
    gate.wait(30)
    return block


def test_runs_are_recorded_with_their_outcome(session: mars.Session) -> None:
    engine = session.engine  # type: ignore[attr-defined]
    before = engine.history.count
    mt.arange(10, chunk_size=3).sum().execute()
    future = (mt.ones(6, chunk_size=2) + 1).execute(wait=False, name="plus one")
    future.result(timeout=30)
    with pytest.raises(ValueError, match="bad block"):
        mt.elemwise(_fails, mt.arange(4, chunk_size=2), dtype=np.int64).execute()
    plain, named, failed = engine.history.latest()[-3:]
    assert engine.history.count == before + 3
    assert (plain.state, plain.name, plain.reading()[2]) == ("succeeded", None, 1.0)
    assert plain.progress is None  # ended: its figures kept, not its jobs
    assert plain.operators()["operators"]
    assert (named.state, named.name) == ("succeeded", "plus one")
    assert failed.state == "failed"
    assert failed.error == "ValueError: bad block"
    assert all(r.ended is not None and r.elapsed() >= 0 for r in (plain, named, failed))
    assert engine.history.find(named.id) is named


def test_a_record_cancelled_from_another_thread_stops_the_execution(
    session: mars.Session,
) -> None:
    engine = session.engine  # type: ignore[attr-defined]
    gate = threading.Event()
    x = mt.arange(8, chunk_size=1)
    future = mt.elemwise(_waits, x, gate, dtype=np.int64).execute(wait=False)
    record = engine.history.latest()[-1]
    while not record.reading()[1]:  # its job is submitted
        time.sleep(0.01)
    assert record.cancel(engine.runtime.cancel)
    gate.set()
    assert future.exception(timeout=30) is not None
    assert record.state == "cancelled"
    assert not record.cancel(engine.runtime.cancel)  # it ended


def test_the_history_keeps_the_latest_only() -> None:
    history = ExecutionHistory(limit=2)
    records = [history.add(ExecutionRecord(Progress(), str(i), threading.Event())) for i in "abc"]
    assert history.latest() == records[1:]
    assert history.count == 3
    assert history.find(records[0].id) is None
