"""SSHConnection against real OpenSSH servers: on loopback, and as hosts in namespaces."""

from __future__ import annotations

import logging
import os
import re
import shlex
import socket
import stat
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from jupyter_mars.launcher.ssh import (
    HostKeyError,
    SSHCommandTimeout,
    SSHConnection,
    SSHError,
    Target,
)
from tests.launcher.sshd import NetnsHosts, SshServer, free_port, generate_key


def test_run_returns_status_stdout_and_stderr(ssh_connection):
    assert ssh_connection.run("echo hi") == (0, "hi\n", "")
    assert ssh_connection.run("echo oops >&2; exit 3") == (3, "", "oops\n")


def test_run_passes_stdin_and_never_logs_it(ssh_connection, caplog):
    caplog.set_level(logging.DEBUG)
    token = "tok-3f9a7c1e"
    assert ssh_connection.run("cat", stdin=f"{token}\n".encode()) == (0, f"{token}\n", "")
    assert "running cat" in caplog.text
    assert token not in caplog.text


def test_run_without_stdin_gives_the_command_end_of_input(ssh_connection):
    assert ssh_connection.run("cat; echo done", timeout=5) == (0, "done\n", "")


def test_run_reads_output_larger_than_the_ssh_window(ssh_connection):
    status, out, _ = ssh_connection.run("head -c 5000000 /dev/zero | tr '\\0' x", timeout=20)
    assert (status, len(out), set(out)) == (0, 5_000_000, {"x"})


def test_run_timeout_raises_quickly_and_keeps_the_connection(ssh_connection):
    started = time.monotonic()
    with pytest.raises(SSHCommandTimeout, match="within 1 s: sleep 30") as caught:
        ssh_connection.run("sleep 30", timeout=1)
    assert time.monotonic() - started < 3
    assert isinstance(caught.value, TimeoutError)
    assert ssh_connection.run("echo still here") == (0, "still here\n", "")


def test_run_shares_one_connection_between_more_threads_than_sshd_sessions(ssh_connection):
    # OpenSSH allows 10 sessions per connection: the rest wait for a free one
    with ThreadPoolExecutor(12) as pool:
        results = list(pool.map(lambda i: ssh_connection.run(f"sleep 0.2; echo {i}"), range(12)))
    # stderr left out: twelve login shells at once may make the host's own shell start-up
    # files complain (pyenv's rehash lock, for one), which says nothing of the connection
    assert [(status, out) for status, out, _ in results] == [(0, f"{i}\n") for i in range(12)]


def test_a_connection_broken_mid_command_is_an_ssh_error_then_reconnects(ssh_connection):
    with pytest.raises(SSHError, match="the connection broke while running"):
        ssh_connection.run("kill -9 $PPID; sleep 5", timeout=5)  # its sshd session dies
    assert ssh_connection.run("echo reconnected") == (0, "reconnected\n", "")


def test_write_file_creates_it_with_its_mode_and_replaces_it(ssh_connection, tmp_path):
    path = tmp_path / "token"
    ssh_connection.write_file(str(path), b"secret")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert path.read_bytes() == b"secret"
    path.chmod(0o644)
    ssh_connection.write_file(str(path), b"new", mode=0o640)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert path.read_bytes() == b"new"
    assert os.listdir(tmp_path) == ["token"]  # nothing staged is left behind


def test_write_file_into_a_missing_directory_names_the_file(ssh_connection, tmp_path):
    path = tmp_path / "missing" / "token"
    with pytest.raises(FileNotFoundError, match=str(path)):
        ssh_connection.write_file(str(path), b"secret")


def test_read_file_returns_all_or_the_last_bytes(ssh_connection, tmp_path):
    path = tmp_path / "worker.log"
    path.write_bytes(b"".join(b"line %d\n" % i for i in range(1000)))
    assert ssh_connection.read_file(str(path)) == path.read_bytes()
    assert ssh_connection.read_file(str(path), max_bytes=9) == b"line 999\n"
    assert ssh_connection.read_file(str(path), max_bytes=10**9) == path.read_bytes()
    with pytest.raises(FileNotFoundError, match="nothing-here"):
        ssh_connection.read_file(str(tmp_path / "nothing-here"))


def test_connect_is_idempotent_and_reconnects_after_close(ssh_server):
    connection = ssh_server.connection()
    connection.connect()
    connection.connect()
    connection.close()
    assert connection.run("echo again") == (0, "again\n", "")
    connection.close()


def test_unknown_host_key_is_refused(ssh_server, tmp_path):
    known_hosts = tmp_path / "known_hosts"
    known_hosts.write_text("")
    connection = ssh_server.connection(known_hosts=str(known_hosts))
    name = re.escape(f"[{ssh_server.host}]:{ssh_server.port}")
    with pytest.raises(HostKeyError, match=rf"{name}: unknown host key .*{known_hosts}"):
        connection.connect()
    assert known_hosts.read_text() == ""


def test_accept_new_records_a_new_key_but_refuses_a_changed_one(tmp_path):
    known_hosts = tmp_path / "ssh" / "known_hosts"  # its folder is made too
    with SshServer(tmp_path / "sshd") as server:
        options = {"known_hosts": str(known_hosts), "accept_new_host_key": True}
        with server.connection(**options) as connection:
            assert connection.run("echo ok") == (0, "ok\n", "")
        assert known_hosts.read_text() == server.host_key_line + "\n"
        with server.connection(**options) as connection:  # known now: nothing added
            connection.connect()
        assert known_hosts.read_text() == server.host_key_line + "\n"

        recorded = known_hosts.read_text()
        server.regenerate_host_key()
        with pytest.raises(HostKeyError, match=rf"CHANGED.*{known_hosts}"):
            server.connection(**options).connect()
        assert known_hosts.read_text() == recorded


def test_wrong_client_key_is_an_ssh_error(ssh_server, tmp_path):
    other_key = generate_key(tmp_path / "other")
    target = Target(ssh_server.host, ssh_server.port, key_file=str(other_key))
    connection = SSHConnection(target, known_hosts=str(ssh_server.known_hosts))
    with pytest.raises(SSHError, match="authentication failed"):
        connection.connect()


def test_a_missing_key_file_is_an_ssh_error(ssh_server, tmp_path):
    target = Target(ssh_server.host, ssh_server.port, key_file=str(tmp_path / "no-key"))
    with pytest.raises(SSHError, match="no-key does not exist"):
        SSHConnection(target, known_hosts=str(ssh_server.known_hosts)).connect()


def test_nothing_listening_is_an_ssh_error_at_once(ssh_server):
    port = free_port()
    connection = SSHConnection(Target("127.0.0.1", port), known_hosts=str(ssh_server.known_hosts))
    started = time.monotonic()
    with pytest.raises(SSHError, match=rf"@127.0.0.1:{port}: cannot connect"):
        connection.connect()
    assert time.monotonic() - started < 1


def test_a_port_that_never_speaks_ssh_times_out_within_connect_timeout(ssh_server):
    with socket.create_server(("127.0.0.1", 0)) as silent:  # accepts, never answers
        port = silent.getsockname()[1]
        connection = SSHConnection(
            Target("127.0.0.1", port, key_file=str(ssh_server.client_key)),
            known_hosts=str(ssh_server.known_hosts),
            connect_timeout=1.0,
        )
        started = time.monotonic()
        with pytest.raises(SSHError, match="no SSH login within 1.0 s"):
            connection.connect()
        assert time.monotonic() - started < 1.0 + 2


# -- several hosts ---------------------------------------------------------------------------


def _ip(*args: str) -> str:
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=True).stdout


def _can_connect(connection: SSHConnection, address: str, port: int) -> bool:
    script = f"import socket; socket.create_connection(({address!r}, {port}), 3).close()"
    status, _, err = connection.run(f"{sys.executable} -c {shlex.quote(script)}", timeout=10)
    return status == 0


def test_namespace_hosts_have_their_own_address_and_hostname(netns_hosts: NetnsHosts):
    addresses = {host.address for host in netns_hosts}
    assert len(addresses) == 2
    for host in netns_hosts:
        with host.connection() as connection:
            status, out, _ = connection.run("hostname -I; hostname")
            assert status == 0
            listed, hostname = out.split("\n")[:2]
            assert listed.split() == [host.address]
            assert hostname == host.hostname


def test_namespace_hosts_reach_this_machine_and_each_other(netns_hosts: NetnsHosts):
    first, second = netns_hosts
    with socket.create_server((first.gateway, 0)) as listener:  # a supervisor's port, say
        port = listener.getsockname()[1]
        for host in netns_hosts:
            with host.connection() as connection:
                assert _can_connect(connection, host.gateway, port)
    with second.connection() as connection:
        assert _can_connect(connection, first.address, 22)


def test_an_unplugged_namespace_host_times_out(netns_hosts: NetnsHosts):
    host = netns_hosts[1]
    host.set_connected(False)
    try:
        started = time.monotonic()
        with pytest.raises(SSHError, match=host.address):
            host.connection(connect_timeout=1.0).connect()
        assert time.monotonic() - started < 1.0 + 2
    finally:
        host.set_connected(True)
    with host.connection() as connection:
        assert connection.run("echo back") == (0, "back\n", "")


def test_namespace_hosts_are_removed_on_close(tmp_path: Path):
    with NetnsHosts(1, tmp_path) as hosts:
        namespace, link, bridge = hosts[0].namespace, hosts[0].link, hosts.bridge
    assert namespace not in _ip("netns", "list")
    links = _ip("-o", "link", "show")
    assert link not in links
    assert f"{bridge}:" not in links
