"""A real Jupyter server in this process with the extension enabled (pytest-jupyter's
fixtures: ``jp_serverapp``, ``jp_fetch``, ``jp_ws_fetch``), and helpers to wait on it."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

import psutil
import pytest
from pytest_jupyter.jupyter_server import *  # noqa: F403 - the fixtures and their hooks
from traitlets.config import Config

from jupyter_mars.server.manager import ClusterManager


@pytest.fixture
def jp_base_url() -> str:
    """A plain base path, so that the dashboard's paths map one to one."""
    return "/jupyter/"


@pytest.fixture
def mars_config() -> dict[str, Any]:
    """The extension's traitlets: small local clusters."""
    return {"n_workers": 1, "n_cpu": 1, "start_timeout": 30.0}


@pytest.fixture
def jp_server_config(mars_config: dict[str, Any]) -> Config:
    """The extension enabled as its enable file does; authentication stays required."""
    return Config(
        {
            "ServerApp": {"jpserver_extensions": {"jupyter_mars.server": True}},
            "MarsExtension": mars_config,
        }
    )


@pytest.fixture
def manager(jp_serverapp: Any) -> ClusterManager:
    """The running server's cluster manager."""
    point = jp_serverapp.extension_manager.extension_points["jupyter_mars"]
    found: ClusterManager = point.app.manager
    return found


Fetch = Callable[..., Awaitable[Any]]


async def get_json(jp_fetch: Fetch, *path: str, **kwargs: Any) -> Any:
    response = await jp_fetch(*path, **kwargs)
    return json.loads(response.body)


async def wait_for_state(
    jp_fetch: Fetch, state: str, n_workers: int | None = None, timeout: float = 30.0
) -> dict[str, Any]:
    """Poll ``GET mars/api/cluster`` until the cluster is in ``state`` (with that many
    workers); the last status otherwise, in the assertion."""
    deadline = time.monotonic() + timeout
    while True:
        status: dict[str, Any] = await get_json(jp_fetch, "mars", "api", "cluster")
        if status["state"] == state and n_workers in (None, status["n_workers"]):
            return status
        assert status["state"] != "failed", status["error"]
        assert time.monotonic() < deadline, status
        await asyncio.sleep(0.1)


def gone(pids: list[int]) -> bool:
    """Whether every process is gone (a zombie counts as gone)."""
    for pid in pids:
        try:
            if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                return False
        except psutil.NoSuchProcess:
            continue
    return True
