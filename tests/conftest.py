"""Shared fixtures: an embedded session checked for consistency after every test."""

from __future__ import annotations

import gc
import os
import tempfile
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

import jupyter_mars as mars
from jupyter_mars.engine.tracebacks import FULL_TRACEBACKS_ENV


def pytest_configure(config: pytest.Config) -> None:
    """Clusters the tests start are published in a registry of their own, never in the
    user's Jupyter runtime directory (``launcher/registry.py``); kernels keep their
    connection files there too. A failing test's report shows the library's own frames,
    which users' tracebacks hide (``engine/tracebacks.py``)."""
    os.environ["JUPYTER_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="mars-test-runtime-")
    os.environ[FULL_TRACEBACKS_ENV] = "1"


settings.register_profile(
    "project",
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
settings.load_profile("project")


@pytest.fixture(scope="session")
def _shared_session() -> Iterator[mars.Session]:
    session = mars.new_session(n_cpu=2)
    yield session
    session.close()


FULL_COLLECT_EVERY = 20
_teardowns = [0]


@pytest.fixture(autouse=True)
def session(_shared_session: mars.Session) -> Iterator[mars.Session]:
    """The default embedded session; its scheduler state is validated after each test."""
    _shared_session.as_default()
    yield _shared_session
    # a full collection costs ~0.1 s with every module loaded: the young generations
    # after each test, everything every FULL_COLLECT_EVERY tests
    _teardowns[0] += 1
    if _teardowns[0] % FULL_COLLECT_EVERY == 0:
        gc.collect()
    else:
        gc.collect(1)
    runtime = _shared_session.engine.runtime
    with runtime._lock:
        runtime.core.validate_state()


@pytest.fixture
def private_token_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Token files go to a temporary directory, and ``MARS_TOKEN`` is unset."""
    monkeypatch.setenv("JUPYTER_MARS_TOKEN_DIR", str(tmp_path_factory.mktemp("home") / "tokens"))
    monkeypatch.delenv("MARS_TOKEN", raising=False)


def chunkings(shape: tuple[int, ...]) -> list[Any]:
    """Chunk sizes to test ``shape`` with: chunks of 1, uneven last chunks, one chunk."""
    uneven = tuple(max(1, (n + 1) // 2 - 1) if n > 2 else max(n, 1) for n in shape)
    return [1, uneven, tuple(max(n, 1) for n in shape)]


def assert_same(result: Any, expected: Any, **kwargs: Any) -> None:
    """Executed tensor (or data) equals NumPy's, values, shape and dtype."""
    got = result.execute().fetch() if hasattr(result, "execute") else result
    expected = np.asarray(expected)
    got = np.asarray(got)
    assert got.shape == expected.shape, f"shape {got.shape} != {expected.shape}"
    assert got.dtype == expected.dtype, f"dtype {got.dtype} != {expected.dtype}"
    if expected.dtype.kind in "fc":
        np.testing.assert_allclose(got, expected, equal_nan=True, **kwargs)
    else:
        np.testing.assert_array_equal(got, expected)
