"""``SSHCluster`` and ``mars-cluster`` against real sshd servers: on loopback, and as two
hosts in network namespaces. A cluster runs the seed job, scales, shows its logs, is
found in the registry, refuses a changed host key, fails clearly on a host that cannot
be reached, returns early with ``min_workers``, and leaves no process behind."""

from __future__ import annotations

import getpass
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import psutil
import pytest
import yaml

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.launcher import SSHCluster, registry
from jupyter_mars.launcher.hosts import parse_hosts
from jupyter_mars.launcher.ssh import HostKeyError, SSHError
from jupyter_mars.launcher.ssh_cluster import listen_address
from jupyter_mars.remote import HttpClient
from tests.launcher.sshd import NetnsHosts, SshServer


def _host(server: SshServer, **fields: Any) -> dict[str, Any]:
    return {
        "address": server.host,
        "port": server.port,
        "user": getpass.getuser(),
        "key_file": str(server.client_key),
        "python": sys.executable,
        "n_cpu": 1,
        **fields,
    }


def _gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def _listening(pid: int) -> set[str]:
    """The addresses process ``pid`` listens on."""
    sockets = psutil.Process(pid).net_connections(kind="inet")
    return {s.laddr.ip for s in sockets if s.status == psutil.CONN_LISTEN}


def _seed(session: Any) -> None:
    a = mt.random.rand(400, 400, chunk_size=100)
    data = a.execute(session=session).fetch(session=session)
    result = mt.inner(a, a).execute(session=session).fetch(session=session)
    np.testing.assert_allclose(result, np.inner(data, data))


def test_a_cluster_on_loopback_runs_scales_and_stops_for_good(
    ssh_server: SshServer, session: mars.Session
) -> None:
    cluster = SSHCluster([_host(ssh_server, workers=2)], known_hosts=str(ssh_server.known_hosts))
    try:
        cluster.start(timeout=60)
        assert mars.get_default_session() is cluster.session
        _seed(cluster.session)
        entry = registry.find(cluster.id)
        assert entry is not None
        assert (entry.kind, entry.endpoint, entry.n_workers) == ("ssh", cluster.endpoint, 2)
        assert cluster.dashboard_url == cluster.endpoint + "/"
        pids = [w.pid for w in cluster.workers]
        for pid in pids:  # the token is in their environment, never on a command line
            assert cluster.token not in " ".join(psutil.Process(pid).cmdline())
        assert "Mars Worker started at" in cluster.logs("127.0.0.1")
        cluster.scale(3)
        assert len(cluster.workers) == 3
        cluster.scale(1)
        assert all(_gone(pid) for pid in pids[1:] + [cluster.workers[-1].pid][1:])
        with pytest.raises(ValueError, match="no worker runs on 'elsewhere'"):
            cluster.logs("elsewhere")
        all_pids = [w.pid for w in cluster.workers] + pids
        workdir = Path(cluster.workdir)
        assert workdir.is_dir()
        assert oct(workdir.stat().st_mode & 0o777) == "0o700"
        assert oct((workdir / "token").stat().st_mode & 0o777) == "0o600"
    finally:
        supervisor = cluster._supervisor_pid
        cluster.stop()
        session.as_default()
    assert all(_gone(pid) for pid in all_pids)
    assert supervisor is not None
    assert _gone(supervisor)
    assert not workdir.exists()
    assert registry.find(cluster.id) is None


def test_a_supervisor_here_listens_only_where_the_hosts_reach_it(
    ssh_server: SshServer, session: mars.Session
) -> None:
    cluster = SSHCluster([_host(ssh_server)], known_hosts=str(ssh_server.known_hosts))
    try:
        cluster.start(timeout=60)
        assert cluster._supervisor_pid is not None
        assert _listening(cluster._supervisor_pid) == {"127.0.0.1"}  # not 0.0.0.0
        assert cluster.endpoint.startswith("http://127.0.0.1:")
        _seed(cluster.session)
    finally:
        cluster.stop()
        session.as_default()


def test_the_listen_address_is_the_route_to_the_hosts_unless_the_list_names_one() -> None:
    assert listen_address(parse_hosts(["127.0.0.1", "localhost"])) == "127.0.0.1"
    named = parse_hosts({"hosts": ["127.0.0.1"], "listen": "0.0.0.0"})
    assert listen_address(named) == "0.0.0.0"


def test_min_workers_returns_before_the_slow_ones_joined(
    ssh_server: SshServer, session: mars.Session
) -> None:
    slow = f"sleep 4 && {sys.executable}"  # a host whose environment takes its time
    hosts = {
        "hosts": [
            _host(ssh_server),
            {**_host(ssh_server), "address": "localhost", "python": slow},
        ]
    }
    with SSHCluster(hosts, known_hosts=str(ssh_server.known_hosts), accept_new_host_key=True) as c:
        c.start(min_workers=1, timeout=60)
        assert c._joined() == 1  # it returned before the slow one joined
        deadline = time.monotonic() + 30
        while c._joined() < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert c._joined() == 2
    session.as_default()


def test_a_changed_host_key_is_refused_and_nothing_is_left_running(
    tmp_path: Path, session: mars.Session
) -> None:
    with SshServer(tmp_path / "sshd") as server:
        known = tmp_path / "known_hosts"
        known.write_text(server.host_key_line + "\n")
        server.regenerate_host_key()  # the host now presents another key
        cluster = SSHCluster([_host(server)], known_hosts=str(known), accept_new_host_key=True)
        with pytest.raises(HostKeyError, match="changed"):
            cluster.start(timeout=30)
    assert cluster._supervisor_pid is None  # stopped on the way out
    assert registry.find(cluster.id) is None
    assert known.read_text() != ""  # the known key was not replaced
    session.as_default()


def test_an_unknown_host_key_is_refused(ssh_server: SshServer, tmp_path: Path) -> None:
    empty = tmp_path / "known_hosts"
    empty.write_text("")
    cluster = SSHCluster([_host(ssh_server)], known_hosts=str(empty))
    with pytest.raises(HostKeyError):
        cluster.start(timeout=30)
    assert cluster._supervisor_pid is None  # the supervisor it had started is stopped
    assert not Path(cluster.workdir).exists()


def test_mars_cluster_up_status_down(ssh_server: SshServer, tmp_path: Path) -> None:
    hosts = tmp_path / "hosts.yml"
    hosts.write_text(yaml.safe_dump({"hosts": [_host(ssh_server, workers=1)]}))
    cli = [sys.executable, "-m", "jupyter_mars.launcher.cli"]
    up = subprocess.run(
        [*cli, "up", str(hosts), "--known-hosts", str(ssh_server.known_hosts)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert up.returncode == 0, up.stderr
    cluster_id = up.stdout.split()[1]
    entry = registry.find(cluster_id)  # it outlived the process that started it
    assert entry is not None
    pids = [pid for _, pid, _ in entry.state["workers"]] + [entry.state["supervisor_pid"]]
    status = subprocess.run([*cli, "status"], capture_output=True, text=True, timeout=60)
    assert f"{cluster_id}  ssh" in status.stdout
    assert "1 workers joined" in status.stdout
    down = subprocess.run([*cli, "down", cluster_id], capture_output=True, text=True, timeout=60)
    assert down.returncode == 0, down.stderr
    assert all(_gone(pid) for pid in pids)
    assert registry.find(cluster_id) is None
    again = subprocess.run([*cli, "down", cluster_id], capture_output=True, text=True, timeout=60)
    assert again.returncode == 1
    assert f"no cluster {cluster_id!r} runs here" in again.stderr
    bad = subprocess.run([*cli, "launch"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2
    assert "invalid choice" in bad.stderr


def test_two_hosts_in_network_namespaces_run_the_seed(
    netns_hosts: NetnsHosts, session: mars.Session
) -> None:
    hosts = [_host(h.server, address=h.address, port=22) for h in netns_hosts]
    known = Path(netns_hosts[0].server.directory) / "all_known_hosts"
    known.write_text("".join(h.server.host_key_line + "\n" for h in netns_hosts))
    with SSHCluster(hosts, known_hosts=str(known)).start(timeout=60) as cluster:
        addresses = sorted(w["address"].rsplit(":", 1)[0] for w in _workers(cluster))
        assert addresses == sorted(h.address for h in netns_hosts)
        assert cluster._supervisor_pid is not None
        # only on this machine's address on the hosts' network, not on every address
        assert _listening(cluster._supervisor_pid) == {netns_hosts.gateway}
        assert cluster.endpoint.startswith(f"http://{netns_hosts.gateway}:")
        _seed(cluster.session)
        pids = [w.pid for w in cluster.workers]
    assert all(_gone(pid) for pid in pids)
    session.as_default()


def test_hosts_reached_from_different_addresses_need_listen(netns_hosts: NetnsHosts) -> None:
    mixed = parse_hosts(["127.0.0.1", netns_hosts[0].address])
    with pytest.raises(ValueError, match="reached from different addresses") as caught:
        listen_address(mixed)
    assert f"127.0.0.1 from 127.0.0.1; {netns_hosts[0].address} from {netns_hosts.gateway}" in str(
        caught.value
    )
    assert "'listen:' in the host list" in str(caught.value)
    named = parse_hosts({"hosts": ["127.0.0.1"], "listen": netns_hosts.gateway})
    assert listen_address(named) == netns_hosts.gateway


def test_an_unreachable_host_fails_clearly_within_its_timeout(
    netns_hosts: NetnsHosts, session: mars.Session
) -> None:
    host = netns_hosts[1]
    host.set_connected(False)
    try:
        cluster = SSHCluster(
            [_host(host.server, address=host.address, port=22)],
            known_hosts=str(host.server.known_hosts),
            connect_timeout=3,
        )
        started = time.monotonic()
        with pytest.raises(SSHError, match=host.address):
            cluster.start(timeout=30)
        assert time.monotonic() - started < 8
    finally:
        host.set_connected(True)
    session.as_default()


def _workers(cluster: SSHCluster) -> list[dict[str, Any]]:
    from jupyter_mars.remote import HttpClient

    workers: list[dict[str, Any]] = HttpClient(cluster.endpoint, cluster.token, 5).json(
        "GET", "/api/v1/workers"
    )
    return workers


def test_a_worker_that_cannot_start_fails_with_its_log(
    ssh_server: SshServer, session: mars.Session
) -> None:
    broken = _host(ssh_server, python="/nowhere/bin/python")  # no Python there
    cluster = SSHCluster([broken], known_hosts=str(ssh_server.known_hosts))
    with pytest.raises(RuntimeError, match="exited before joining") as caught:
        cluster.start(timeout=30)
    assert "/nowhere/bin/python: not found" in str(caught.value)  # its remote log's tail
    assert registry.find(cluster.id) is None
    session.as_default()


def test_the_supervisor_on_a_host_of_the_list_and_attaching_by_id(
    netns_hosts: NetnsHosts, session: mars.Session
) -> None:
    first, second = netns_hosts
    known = Path(first.server.directory) / "both_known_hosts"
    known.write_text(first.server.host_key_line + "\n" + second.server.host_key_line + "\n")
    hosts = {
        "supervisor": first.address,
        "hosts": [
            _host(first.server, address=first.address, port=22, workers=0),
            _host(second.server, address=second.address, port=22),
        ],
    }
    cluster = SSHCluster(hosts, known_hosts=str(known)).start(timeout=60)
    try:
        assert cluster.endpoint.startswith(f"http://{first.address}:")
        [worker] = _workers(cluster)
        assert worker["address"].startswith(second.address)
        _seed(cluster.session)
        cluster.session.close()
        cluster.session = None
        again = SSHCluster.from_id(cluster.id)  # as another process would
        assert again.endpoint == cluster.endpoint
        assert [w.pid for w in again.workers] == [w.pid for w in cluster.workers]
    except BaseException:
        cluster.stop()
        raise
    again.stop()
    with pytest.raises(LookupError, match="no SSH cluster"):
        SSHCluster.from_id(cluster.id)
    for host in netns_hosts:  # nothing of the cluster is left on the hosts
        status, out, _ = host.connection().run(f"ls -d {cluster.workdir} 2>/dev/null; true")
        assert out == ""
    session.as_default()


def _slow_block(block: np.ndarray) -> np.ndarray:
    time.sleep(0.4)
    return block * 2


def test_an_ssh_cluster_adapts_between_its_bounds(
    ssh_server: SshServer, session: mars.Session
) -> None:
    # the workers import this test module (its slow function) from this tree
    tree = {"PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    cluster = SSHCluster(
        [_host(ssh_server, workers=1, env=tree)], known_hosts=str(ssh_server.known_hosts)
    )
    try:
        cluster.start(timeout=60)
        with pytest.raises(ValueError, match="maximum must be at least minimum"):
            cluster.adapt(minimum=3)  # the host list names one worker: the default maximum
        adaptive = cluster.adapt(minimum=1, maximum=2, wait=0.5, interval=0.3)
        data = np.arange(32)
        result = mt.elemwise(_slow_block, mt.tensor(data, chunk_size=1), dtype=np.int64).sum()
        names: set[str] = set()
        done = threading.Event()

        def watch() -> None:
            while not done.is_set():
                names.update(w.name for w in list(cluster.workers))
                time.sleep(0.1)

        watcher = threading.Thread(target=watch)
        watcher.start()
        try:
            result.execute(session=cluster.session)
        finally:
            done.set()
            watcher.join()
        assert result.fetch(session=cluster.session) == (data * 2).sum()
        assert adaptive.last_error is None
        assert names == {"worker-0", "worker-1"}  # grown to the maximum on the one host
        # the launcher knows its workers by the addresses the supervisor has them under,
        # so it stops the idle, empty one the policy names, never another
        model = HttpClient(cluster.endpoint, cluster.token, 5).json("GET", "/api/v1/cluster")
        known = {w["address"] for w in model["workers"]}
        assert {cluster.address_of(w) for w in cluster.workers} <= known
        deadline = time.monotonic() + 30
        while len(cluster.workers) > 1:
            assert time.monotonic() < deadline, "it did not shrink back to one worker"
            time.sleep(0.2)
        # the worker holding the result stayed
        assert result.fetch(session=cluster.session) == (data * 2).sum()
        cluster.scale(1)
        assert cluster.adaptive is None
        assert not adaptive.running
    finally:
        cluster.stop()
        session.as_default()
