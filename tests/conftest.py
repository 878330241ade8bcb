"""Shared fixtures: an embedded session checked for consistency after every test."""

from __future__ import annotations

import gc
import importlib
import os
import tempfile
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

from tests.ray.local_cluster import LOOPBACK_ENV

# Ray reads these when it is first imported, by whichever test imports it first (a notebook,
# the Lab panel, a Ray session): every Ray cluster of the tests is on loopback and this
# run's alone, with no token to hand around
os.environ.update(LOOPBACK_ENV)

import jupyter_mars as mars
from jupyter_mars.engine.devices import gpu_unavailable_reason
from jupyter_mars.engine.tracebacks import FULL_TRACEBACKS_ENV

GPU_REASON = gpu_unavailable_reason()
needs_gpu = pytest.mark.skipif(GPU_REASON is not None, reason=f"no GPU: {GPU_REASON}")
"""For a test that runs on a GPU only; it is skipped, with the reason, everywhere else."""
no_gpu = pytest.mark.skipif(GPU_REASON is None, reason="a GPU is present")
"""For a test of what happens where no GPU can be used."""


@pytest.fixture(params=["numpy", pytest.param("cupy", marks=needs_gpu)])
def xp(request: pytest.FixtureRequest) -> Any:
    """The array module a tensor test runs on: NumPy always, CuPy where a GPU exists.
    With ``gpu(xp)`` a test builds its tensors there and compares with NumPy's results."""
    return importlib.import_module(request.param)


def gpu(xp: Any) -> bool:
    """The ``gpu=`` keyword for tensors made with the array module ``xp``."""
    return xp is not np


def to_numpy(value: Any) -> Any:
    """A fetched value as NumPy holds it (a CuPy array copied off the GPU)."""
    get = getattr(value, "get", None)
    return get() if callable(get) and type(value).__module__.startswith("cupy") else value


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
    got, expected = to_numpy(got), np.asarray(to_numpy(expected))
    got = np.asarray(got)
    assert got.shape == expected.shape, f"shape {got.shape} != {expected.shape}"
    assert got.dtype == expected.dtype, f"dtype {got.dtype} != {expected.dtype}"
    if expected.dtype.kind in "fc":
        np.testing.assert_allclose(got, expected, equal_nan=True, **kwargs)
    else:
        np.testing.assert_array_equal(got, expected)
