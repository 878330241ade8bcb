"""``mars-cluster status``: one line per cluster, even when a Jupyter server's SSH cluster
is recorded twice (as ``ssh`` and as ``server``), naming the id that ``down`` takes."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from jupyter_mars.launcher import registry
from jupyter_mars.launcher.cli import main
from jupyter_mars.launcher.registry import ClusterRecord


def test_status_shows_each_cluster_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path))
    with socket.socket() as closed:  # an address where nothing answers
        closed.bind(("127.0.0.1", 0))
        endpoint = f"http://127.0.0.1:{closed.getsockname()[1]}"
    ssh = ClusterRecord(endpoint, "ssh", created=1.0)
    server = ClusterRecord(endpoint, "server", created=2.0)
    local = ClusterRecord("http://127.0.0.1:1", "local", created=3.0)
    for entry in (ssh, server, local):
        registry.record(entry)
    assert main(["status"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    [shared] = [line for line in lines if endpoint in line]
    assert shared.startswith(f"{ssh.id}  ssh+server  {endpoint}  not answering")
    assert main(["down", "nope"]) == 1
    assert "no cluster 'nope' runs here" in capsys.readouterr().err
