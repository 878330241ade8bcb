"""``%mars`` with Ray on a real IPython shell: the Ray forms of ``connect`` and ``start``,
what they refuse, and ``status`` of a Ray session's nodes."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from IPython.core.interactiveshell import InteractiveShell

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars import magics
from jupyter_mars.engine.future import ExecutionFuture
from jupyter_mars.launcher import registry
from jupyter_mars.ray import RaySession
from tests.ray.local_cluster import LOOPBACK_ENV, LocalRayCluster, free_port

# read by Ray when it is imported (its token mode above all), and by its processes
os.environ.update(LOOPBACK_ENV)


def test_ray_addresses_are_told_from_cluster_addresses() -> None:
    assert magics.ray_address("ray://10.0.0.1:10001") == "ray://10.0.0.1:10001"
    assert magics.ray_address("ray") is None
    assert magics.ray_address("ray://") is False
    assert magics.ray_address("http://127.0.0.1:7103") is False
    assert magics.ray_address(None) is False
    assert magics.parse_line("start --ray").ray
    assert not magics.parse_line("start").ray


def test_status_of_ray_nodes_counts_live_nodes_only() -> None:
    nodes = [
        {"NodeManagerAddress": "127.0.0.1", "Alive": True, "Resources": {"CPU": 1.0}},
        {"NodeManagerAddress": "127.0.0.2", "Alive": True, "Resources": {"CPU": 2.0}},
        {"NodeManagerAddress": "127.0.0.3", "Alive": False, "Resources": {"CPU": 8.0}},
    ]
    lines = magics.ray_status_text("127.0.0.1:6379", nodes).splitlines()
    assert lines[0] == "Ray session at 127.0.0.1:6379, 2 nodes: 3 CPUs, 0.0 GiB memory"
    assert [line.split()[0] for line in lines[2:]] == ["127.0.0.1", "127.0.0.2"]


@pytest.fixture(scope="module")
def shell() -> Iterator[InteractiveShell]:
    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "jupyter_mars")
    yield ip
    owned = ip.magics_manager.registry["MarsMagics"].ray_session
    if owned is not None:
        owned.close()
    InteractiveShell.clear_instance()


@pytest.fixture
def mars_magic(shell: InteractiveShell, session: mars.Session) -> Iterator[Any]:
    def run(line: str) -> Any:
        return shell.run_line_magic("mars", line)

    yield run
    session.as_default()


def test_a_token_is_refused_for_ray(mars_magic: Any, capsys: Any) -> None:
    before = mars.get_default_session()
    assert mars_magic("connect ray://127.0.0.1:10001 --token abc") is None
    assert "--token is for jupyter_mars clusters, not Ray" in capsys.readouterr().out
    assert mars.get_default_session() is before


@pytest.fixture(scope="module")
def ray_address() -> Iterator[str]:
    """A Ray head with two CPUs on 127.0.0.1, this process connected to it: ``%mars ...
    ray`` reuses the connection."""
    ray = pytest.importorskip("ray", reason="Ray is optional: pip install 'jupyter_mars[ray]'")
    if ray.is_initialized():  # another module's cluster
        ray.shutdown()
    cluster = LocalRayCluster(head_cpus=2)
    try:
        ray.init(address=cluster.address, log_to_driver=False)
        yield cluster.address
    finally:
        ray.shutdown()
        cluster.stop()


@pytest.fixture
def registry_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    monkeypatch.setenv("JUPYTER_MARS_TOKEN_DIR", str(tmp_path / "tokens"))


@pytest.mark.filterwarnings("ignore::DeprecationWarning:ray")
@pytest.mark.usefixtures("registry_here")
def test_start_ray_status_cells_and_stop(
    ray_address: str, shell: InteractiveShell, mars_magic: Any, capsys: Any
) -> None:
    mars_magic("start --ray")
    said = capsys.readouterr().out
    assert "Connected to Ray: Ray session at" in said
    assert "1 node: 2 CPUs" in said
    session = mars.get_default_session()
    assert isinstance(session, RaySession)
    (listed,) = registry.entries()  # the Lab panel lists it
    assert listed.kind == "ray"
    mars_magic("start --ray")
    assert "%mars stop it first" in capsys.readouterr().out
    mars_magic("status")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Ray session at ")
    assert "1 node: 2 CPUs" in lines[0]
    assert lines[1].split() == ["node", "CPUs", "memory"]
    assert len(lines) == 3
    assert lines[2].split()[:2] == ["127.0.0.1", "2"]
    # a %%mars cell's future runs on Ray, and is the engine's widget future
    shell.user_ns.update(mt=mt)
    future = shell.run_cell_magic(
        "mars", "--name on-ray", "x = mt.arange(10, chunk_size=3)\n(x * 2).sum()"
    )
    assert isinstance(future, ExecutionFuture)
    assert future.result(timeout=60).fetch(session=session) == 90
    assert any(r.name == "on-ray" for r in session.engine.history.latest())
    mars_magic("stop")
    said = capsys.readouterr().out
    assert "Stopped the Ray session at" in said
    assert isinstance(mars.get_default_session(), mars.EmbeddedSession)
    assert registry.entries() == []


@pytest.mark.filterwarnings("ignore::DeprecationWarning:ray")
@pytest.mark.usefixtures("registry_here")
def test_connect_ray_uses_this_process_s_ray(
    ray_address: str, mars_magic: Any, capsys: Any
) -> None:
    mars_magic("connect ray")
    assert "Connected to Ray" in capsys.readouterr().out
    session = mars.get_default_session()
    assert isinstance(session, RaySession)
    assert session.execute(mt.ones(4, chunk_size=2).sum()).fetch(session=session) == 4
    mars_magic("stop")  # the kernel did not start it: nothing of it is stopped
    assert "started no cluster" in capsys.readouterr().out
    assert mars.get_default_session() is session
    session.close()


@pytest.fixture
def ray_client(ray_address: str) -> Iterator[str]:
    """A ``ray://`` address: a Ray Client server for the cluster at ``ray_address``.

    It serves its clients itself (Ray's ``legacy`` mode) rather than forking a server per
    client as the one ``ray start --head`` runs does: that fork, made beside running gRPC
    threads, dies at once on a busy machine, every try alike, a failure of Ray's own."""
    port = free_port()
    server = subprocess.Popen(
        [
            *(sys.executable, "-m", "ray.util.client.server", "--mode=legacy"),
            *("--host=127.0.0.1", f"--port={port}", f"--address={ray_address}"),
        ],
        env={**os.environ, **LOOPBACK_ENV},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            assert server.poll() is None, "the Ray Client server exited"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the Ray Client server did not listen"
                time.sleep(0.2)
        yield f"ray://127.0.0.1:{port}"
    finally:
        server.kill()
        server.wait()


@pytest.fixture
def quick_client_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ray Client tries a closed port for 30 s before it gives up: 3 s here."""
    from ray.util.client import worker

    monkeypatch.setattr(worker, "INITIAL_TIMEOUT_SEC", 1)
    monkeypatch.setattr(worker, "backoff", lambda timeout: timeout)


@pytest.mark.filterwarnings("ignore::DeprecationWarning:ray")
@pytest.mark.filterwarnings("ignore:Ray Client connection timed out:UserWarning")
@pytest.mark.usefixtures("registry_here", "quick_client_retries")
def test_connect_to_a_ray_client_address(
    ray_address: str, ray_client: str, mars_magic: Any, capsys: Any
) -> None:
    import ray

    ray.shutdown()  # this process connects afresh, through the Ray Client
    try:
        # a port no server listens on: refused, and nothing of the attempt is left behind
        mars_magic(f"connect ray://127.0.0.1:{free_port()}")
        assert "Cannot connect to ray://127.0.0.1:" in capsys.readouterr().out
        assert not ray.is_initialized()
        direct = mars.new_ray_session(ray_address, default=False)  # this process connects
        assert direct.execute(mt.ones(3, chunk_size=2).sum()).fetch(session=direct) == 3
        direct.close()
        mars_magic(f"connect {ray_client}")
        assert "Connected to Ray" in capsys.readouterr().out
        session = mars.get_default_session()
        assert isinstance(session, RaySession)
        assert session.execute(mt.arange(5, chunk_size=2).sum()).fetch(session=session) == 10
        mars_magic("status")
        assert "2 CPUs" in capsys.readouterr().out
        session.close()  # it connected: it disconnects
        assert not ray.is_initialized()
    finally:
        if not ray.is_initialized():
            ray.init(address=ray_address, log_to_driver=False)
