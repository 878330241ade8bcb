"""Supervisor-side sessions, driven here by the embedded runtime (same interface)."""

from __future__ import annotations

import gc
import pickle
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.cluster.supervisor import sessions
from jupyter_mars.cluster.supervisor.sessions import ClusterSession
from jupyter_mars.engine.executors.threads import ThreadRuntime


def _wait(execution):
    deadline = time.monotonic() + 10
    while execution.state in ("running", "cancelling"):
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_finished_execution_keeps_its_answer_and_lets_the_graph_go():
    runtime = ThreadRuntime(n_threads=2)
    pool = ThreadPoolExecutor(2)
    try:
        session = ClusterSession("s", runtime, pool)
        y = mt.tensor(np.arange(10.0), chunk_size=3) * 2
        execution = session.submit([y.node])
        _wait(execution)
        model = execution.model(session.engine.executed)
        assert model["state"] == "succeeded"
        assert model["results"][y.key]["shape"] == [10]
        assert execution.nodes == []
        assert execution.model(session.engine.executed) is model
        np.testing.assert_array_equal(session.engine.fetch(y.node), np.arange(10.0) * 2)
        session.close()
    finally:
        pool.shutdown()
        runtime.close()


def test_old_finished_executions_are_forgotten(monkeypatch):
    monkeypatch.setattr(sessions, "MAX_EXECUTIONS", 3)
    runtime = ThreadRuntime(n_threads=1)
    pool = ThreadPoolExecutor(1)
    try:
        session = ClusterSession("s", runtime, pool)
        ids = []
        for i in range(5):
            execution = session.submit([(mt.tensor(np.arange(3)) + i).node])
            _wait(execution)
            ids.append(execution.id)
        assert len(session.executions) <= 3
        assert ids[-1] in session.executions
        assert ids[0] not in session.executions
        session.close()
    finally:
        pool.shutdown()
        runtime.close()


def test_sessions_not_renewed_within_the_timeout_expire_and_free_their_results():
    runtime = ThreadRuntime(n_threads=1)
    registry = sessions.SessionRegistry(runtime, session_timeout=10.0)
    try:
        silent, renewed = registry.create(), registry.create()
        y = mt.tensor(np.arange(10.0), chunk_size=3) * 2
        _wait(silent.submit([y.node]))
        held = set(silent.engine._refs)
        assert held
        assert held <= set(runtime.store.keys())
        now = time.monotonic()
        renewed.touch()
        assert registry.expire(now=now + 5) == []
        silent.last_seen = now - 20
        assert registry.expire(now=now) == [silent.id]
        assert set(registry.sessions) == {renewed.id}
        assert silent.engine.executed == {}
        deadline = time.monotonic() + 10
        while held & set(runtime.store.keys()):  # freed on the runtime's thread
            assert time.monotonic() < deadline
            time.sleep(0.01)
    finally:
        registry.shutdown()
        runtime.close()


def test_session_timeout_must_be_positive():
    runtime = ThreadRuntime(n_threads=1)
    try:
        with pytest.raises(ValueError, match="session_timeout"):
            sessions.SessionRegistry(runtime, session_timeout=0)
    finally:
        runtime.close()


def test_executing_a_result_again_keeps_it_until_released():
    runtime = ThreadRuntime(n_threads=1)
    pool = ThreadPoolExecutor(1)
    try:
        session = ClusterSession("s", runtime, pool)
        y = mt.tensor(np.arange(10.0), chunk_size=3) * 2
        # each request brings its own unpickled copy of the node, with the same key
        for _ in range(2):
            execution = session.submit([pickle.loads(pickle.dumps(y.node))])
            _wait(execution)
            execution.model(session.engine.executed)  # as the client's poll does
        gc.collect()
        assert y.key in session.engine.executed
        np.testing.assert_array_equal(session.engine.fetch(y.node), np.arange(10.0) * 2)
        session.release([y.key])
        assert y.key not in session.engine.executed
        session.close()
    finally:
        pool.shutdown()
        runtime.close()
