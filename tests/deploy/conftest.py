"""Fixtures for the deploy tests: a fixed machine, an empty environment, a free port."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from jupyter_mars.deploy import HostResources

GIB = 1024**3
MACHINE = HostResources(n_cpu=4, total_memory=16 * GIB, available_memory=10 * GIB)
"""The machine the worker tests pretend to run on."""


@pytest.fixture
def listening_port() -> Iterator[int]:
    """A port on 127.0.0.1 that another server is listening on."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        yield server.getsockname()[1]


@pytest.fixture(autouse=True)
def _private_tokens(private_token_dir: None) -> None:
    """Token files go to a temporary directory, and ``MARS_TOKEN`` is unset."""


@pytest.fixture
def session() -> None:
    """Replaces the suite's autouse embedded session: these tests compute nothing, and its
    per-test garbage collection and state validation would be most of their run time."""
    return None
