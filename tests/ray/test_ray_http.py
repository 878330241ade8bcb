"""A Ray session's HTTP API (``web/ray_front.py``), published in this machine's registry
(``launcher/ray_sessions.py``): what the Jupyter server asks of it for
the Lab panel (the cluster model, the state stream's first message, cancel), on a real
local Ray cluster (``conftest.py``), with a running execution's progress."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.launcher import registry
from jupyter_mars.launcher.ray_sessions import publish
from jupyter_mars.remote.http import token_for
from jupyter_mars.server.machine import MachineClusters
from jupyter_mars.server.manager import ClusterManager
from jupyter_mars.server.supervisor_api import stream_snapshot
from jupyter_mars.web.ray_front import RayFront

pytest.importorskip("ray", reason="Ray is optional: pip install 'jupyter_mars[ray]'")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:ray")


@pytest.fixture
def front(ray_session: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[RayFront]:
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    monkeypatch.setenv("JUPYTER_MARS_TOKEN_DIR", str(tmp_path / "tokens"))
    published = publish(ray_session)
    yield published.front
    published.close()


def _get(front: RayFront, path: str, token: str | None = None) -> Any:
    request = urllib.request.Request(
        front.endpoint + path, headers={"Authorization": f"token {token or front.token}"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def _post(front: RayFront, path: str) -> Any:
    request = urllib.request.Request(
        front.endpoint + path, data=b"{}", method="POST",
        headers={"Authorization": f"token {front.token}", "Content-Type": "application/json"},
    )  # fmt: skip
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def wait_for_file(block: np.ndarray, path: str) -> np.ndarray:
    """A chunk that finishes once ``path`` exists (the test holds the execution open)."""
    deadline = time.monotonic() + 60
    while not Path(path).exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    return block


def test_the_cluster_is_ray_s_nodes_and_the_record_is_listed(front: RayFront) -> None:
    cluster = _get(front, "/api/v1/cluster")
    assert cluster["kind"] == "ray"
    assert [w["n_cpu"] for w in cluster["workers"]] == [1, 1]  # the head and a second node
    assert cluster["totals"] == {"n_cpu": 2, "memory": cluster["totals"]["memory"], "hosts": 1}
    assert _get(front, "/api/v1/workers") == cluster["workers"]
    (entry,) = registry.entries()
    assert (entry.kind, entry.endpoint) == ("ray", front.endpoint)
    assert token_for(front.endpoint) == front.token  # where the Jupyter server finds it
    assert registry.published() is None  # %mars connect never picks a Ray session's API
    with pytest.raises(urllib.error.HTTPError) as refused:
        _get(front, "/api/v1/cluster", token="wrong")
    assert refused.value.code == 401
    refused.value.close()


def test_the_stream_reports_a_running_execution_and_cancel_stops_it(
    front: RayFront, ray_session: Any, tmp_path: Path
) -> None:
    gate = tmp_path / "gate"
    x = mt.arange(8, chunk_size=2)
    done = (x + 1).sum()
    held = mt.elemwise(wait_for_file, x, str(gate), dtype=x.dtype).sum()
    first = ray_session.execute(done, wait=False, name="quick one")
    first.result(timeout=60)
    page = urllib.request.Request(
        front.endpoint + "/", headers={"Authorization": f"token {front.token}"}
    )
    with urllib.request.urlopen(page, timeout=10) as answer:  # where a dashboard would be
        text = answer.read().decode()
    assert "Ray session at" in text
    assert "<td>quick one</td><td>succeeded</td><td>100%</td>" in text
    future = ray_session.execute(held, wait=False, name="held open")
    message = asyncio.run(stream_snapshot(front.endpoint, front.token))
    (session,) = message["sessions"]
    by_name = {e["name"]: e for e in session["executions"]}
    assert by_name["quick one"]["state"] == "succeeded"
    assert by_name["quick one"]["progress"] == 1.0
    running = by_name["held open"]
    assert running["state"] == "running"
    assert 0.0 <= running["progress"] < 1.0
    assert message["cluster"]["totals"]["n_cpu"] == 2
    path = f"/api/v1/sessions/{session['session_id']}/executions/{running['execution_id']}/cancel"
    answer = _post(front, path)
    assert answer["cancelled"] is True
    gate.touch()
    assert isinstance(future.exception(timeout=60), concurrent.futures.CancelledError)
    assert future.cancel_event.is_set()
    again = _post(front, path)
    assert again["cancelled"] is False
    assert again["state"] == "cancelled"


def test_the_jupyter_server_lists_it_with_its_running_execution(
    front: RayFront, ray_session: Any, tmp_path: Path
) -> None:
    """What the panel polls (``GET mars/api/clusters``): the server's listing of this
    machine's clusters, which reaches the Ray session as it reaches a supervisor."""
    gate = tmp_path / "gate"
    x = mt.arange(6, chunk_size=2)
    future = ray_session.execute(
        mt.elemwise(wait_for_file, x, str(gate), dtype=x.dtype).sum(), wait=False, name="held"
    )
    try:
        listed = asyncio.run(MachineClusters(ClusterManager()).models())
    finally:
        gate.touch()
    (cluster,) = listed
    assert (cluster["kind"], cluster["supervisor_error"]) == ("ray", None)
    assert (cluster["n_workers"], cluster["n_cpu"]) == (2, 2)
    (task,) = cluster["tasks"]
    assert (task["name"], task["state"]) == ("held", "running")
    assert future.result(timeout=60).fetch(session=ray_session) == 15


def test_closing_removes_the_record_and_the_token(
    ray_session: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    monkeypatch.setenv("JUPYTER_MARS_TOKEN_DIR", str(tmp_path / "tokens"))
    published = publish(ray_session)
    endpoint = published.endpoint
    assert [e.endpoint for e in registry.entries()] == [endpoint]
    published.close()
    assert registry.entries() == []
    assert token_for(endpoint) is None
    with pytest.raises(urllib.error.URLError, match="refused"):
        urllib.request.urlopen(endpoint + "/api/v1/cluster", timeout=2)
