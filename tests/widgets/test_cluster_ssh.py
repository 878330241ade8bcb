"""An ``SSHCluster`` (through a real sshd on loopback) displays in a kernel as its
``ClusterView``, whose Scale control starts a worker over SSH; stopped, it shows as text."""

from __future__ import annotations

import asyncio
import getpass
import sys
import types
from collections.abc import Iterator
from typing import Any

import IPython
import pytest

import jupyter_mars as mars
from jupyter_mars.launcher import SSHCluster
from jupyter_mars.widgets import ClusterView, view_of
from tests.launcher.sshd import SshServer

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


@pytest.fixture
def ssh_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SSHCluster]:
    with SshServer(tmp_path_factory.mktemp("sshd")) as server:
        host = {
            "address": server.host,
            "port": server.port,
            "user": getpass.getuser(),
            "key_file": str(server.client_key),
            "python": sys.executable,
            "n_cpu": 1,
            "workers": 1,
        }
        cluster = SSHCluster([host], known_hosts=str(server.known_hosts), connect=False)
        try:
            yield cluster.start(timeout=60)
        finally:
            cluster.stop()


def test_an_ssh_cluster_shows_as_its_view_and_scales_from_it(
    ssh_cluster: SSHCluster, monkeypatch: pytest.MonkeyPatch, session: mars.Session
) -> None:
    monkeypatch.setattr(IPython, "get_ipython", lambda: types.SimpleNamespace(kernel=object()))

    async def show_and_scale() -> tuple[dict[str, Any], ClusterView]:
        bundle = ssh_cluster._repr_mimebundle_()
        view = view_of(ssh_cluster.endpoint, owner=ssh_cluster)
        assert bundle[WIDGET_MIME]["model_id"] == view.model_id  # the view shown
        await view.updated()
        assert len(view.rows) == 1
        assert view.scale is not None
        view.scale.input.value = 2
        view.scale.button.click()
        assert view.scale.task is not None
        await asyncio.wait_for(view.scale.task, 60)
        await view.updated()
        view.close()
        return bundle, view

    bundle, view = asyncio.run(show_and_scale())
    assert bundle["text/plain"] == f"<SSHCluster {ssh_cluster.endpoint} 1 worker>"
    assert view.message.value == "Scaled to 2 workers."
    assert len(view.rows) == 2
    assert len(ssh_cluster.workers) == 2
    ssh_cluster.stop()
    assert ssh_cluster._repr_mimebundle_() == {
        "text/plain": f"<SSHCluster {ssh_cluster.id} not running>"
    }
