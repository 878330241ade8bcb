"""The registry of this machine's clusters: records written for the user only, stale ones
dropped, the Jupyter server's preferred, and a local cluster recorded while it runs."""

from __future__ import annotations

import stat
import subprocess
import sys
from pathlib import Path

import pytest

from jupyter_mars.launcher import new_cluster, registry
from jupyter_mars.launcher.registry import ClusterRecord


def test_records_are_the_users_only_and_read_back(tmp_path: Path) -> None:
    entry = ClusterRecord("http://127.0.0.1:8000", "local", n_workers=2)
    path = registry.record(entry, tmp_path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert registry.entries(tmp_path) == [entry]
    assert registry.find(entry.id, tmp_path) == entry
    assert entry.dashboard == "http://127.0.0.1:8000/"
    registry.remove(entry.id, tmp_path)
    assert registry.entries(tmp_path) == []


def test_a_record_whose_owner_is_gone_is_dropped(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    gone = ClusterRecord("http://127.0.0.1:8001", "local", owner_pid=int(done.stdout))
    path = registry.record(gone, tmp_path)
    (tmp_path / "cluster-broken.json").write_text("{not json")
    assert registry.entries(tmp_path) == []
    assert not path.exists()
    assert not (tmp_path / "cluster-broken.json").exists()


def test_the_servers_cluster_is_published_before_newer_ones(tmp_path: Path) -> None:
    assert registry.published(tmp_path) is None
    server = ClusterRecord("http://127.0.0.1:9000/mars/", "server", created=1.0)
    local = ClusterRecord("http://127.0.0.1:9001", "local", created=2.0)
    registry.record(local, tmp_path)
    assert registry.published(tmp_path) == local
    registry.record(server, tmp_path)
    assert registry.published(tmp_path) == server


def test_a_ray_sessions_record_is_listed_but_never_published(tmp_path: Path) -> None:
    """A Ray session's progress API is no supervisor: %mars connect must not pick it."""
    ray = ClusterRecord("http://127.0.0.1:9002", "ray", created=3.0)
    registry.record(ray, tmp_path)
    assert registry.entries(tmp_path) == [ray]
    assert registry.published(tmp_path) is None
    local = ClusterRecord("http://127.0.0.1:9001", "local", created=2.0)
    registry.record(local, tmp_path)
    assert registry.published(tmp_path) == local


def test_an_unknown_kind_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="kind must be one of"):
        registry.record(ClusterRecord("http://x:1", "yarn"), tmp_path)


def test_a_local_cluster_is_recorded_while_it_runs(session: object) -> None:
    with new_cluster(n_worker=1, n_cpu=1) as cluster:
        found = registry.find(cluster.id)
        assert found is not None
        assert found.endpoint == cluster.endpoint
        assert found.kind == "local"
        assert registry.published() == found
        cluster_id = cluster.id
    assert registry.find(cluster_id) is None
