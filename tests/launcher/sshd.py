"""Real OpenSSH servers for the SSH launcher's tests: on loopback, or as separate "hosts".

``SshServer`` runs Debian's ``/usr/sbin/sshd`` with a configuration of its own (its own
host key, one authorised client key, no passwords, no PAM), so tests log in for real.

``NetnsHosts(n, directory)`` builds ``n`` hosts out of network namespaces, as root::

    this machine: bridge mb<pid>x<s>, address 10.213.<s>.1 (every host's ``gateway``)
      ├─ veth ─ namespace mars-t<pid>-<s>-0: eth0 10.213.<s>.2, sshd on port 22
      └─ veth ─ namespace mars-t<pid>-<s>-1: eth0 10.213.<s>.3, sshd on port 22

Each namespace has ``lo`` up, a default route via the gateway and, through its sshd, a
hostname of its own (``mars-host-<i>``). The bridge lets the hosts reach each other as well
as this machine without IP forwarding, so nothing outside this machine is ever contacted.
``<s>`` is a free /24 chosen under a lock file, so that test runs in parallel do not clash.
Everything is removed on ``close()``, and what crashed runs left behind (their process no
longer exists) is removed before new hosts are made.

Where sshd is missing, tests fail in CI (the ``CI`` variable is set) and are skipped
elsewhere; where namespaces cannot be made (not root, no ``ip netns``) they are skipped,
also in CI, which runs as root and so does exercise them.
"""

from __future__ import annotations

import contextlib
import fcntl
import getpass
import os
import re
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
import pytest

from jupyter_mars.launcher.ssh import SSHConnection, Target, known_hosts_name

SSHD = "/usr/sbin/sshd"
READY_TIMEOUT = 10.0
NETNS_PREFIX = "mars-t"
SUBNET_PREFIX = "10.213"
NETNS_LOCK = "/run/mars-test-netns.lock"


def require_sshd() -> None:
    """Fail (in CI) or skip (elsewhere) the calling test when sshd is not installed."""
    if os.access(SSHD, os.X_OK) and shutil.which("ssh-keygen"):
        return
    message = f"{SSHD} or ssh-keygen is missing: run scripts/install-sshd"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def generate_key(path: Path, comment: str = "mars-test") -> Path:
    """A new ed25519 key pair without passphrase at ``path`` (``path.pub``)."""
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", str(path)],
        check=True,
        capture_output=True,
    )
    return path


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


class SshServer:
    """A real sshd listening on ``host:port``, stopped by ``stop()`` (or ``with``).

    ``prefix`` wraps its command line, for instance ``["ip", "netns", "exec", name]`` to
    run it inside a network namespace. ``port=None`` picks a free port on ``host``.
    Stopping sshd leaves processes started through it running, like a real sshd restart.
    """

    def __init__(
        self,
        directory: Path,
        *,
        host: str = "127.0.0.1",
        port: int | None = None,
        client_key: Path | None = None,
        prefix: Sequence[str] = (),
    ) -> None:
        require_sshd()
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.host = host
        self._fixed_port = port
        self.port = port if port is not None else free_port(host)
        self.prefix = list(prefix)
        self.client_key = client_key or generate_key(self.directory / "client_ed25519")
        """The private key that may log in (its ``.pub`` is the only authorised key)."""
        self.host_key = self.directory / "host_ed25519"
        self.known_hosts = self.directory / "known_hosts"
        """A known_hosts file holding this server's current host key."""
        self.log_file = self.directory / "sshd.log"
        self.process: subprocess.Popen[bytes] | None = None
        authorized = self.directory / "authorized_keys"
        authorized.write_text(Path(f"{self.client_key}.pub").read_text())
        self._new_host_key()

    @property
    def host_key_line(self) -> str:
        """This server's known_hosts line, ``[host]:port ssh-ed25519 AAAA...``."""
        key_type, key = Path(f"{self.host_key}.pub").read_text().split()[:2]
        return f"{known_hosts_name(self.host, self.port)} {key_type} {key}"

    @property
    def target(self) -> Target:
        return Target(self.host, self.port, getpass.getuser(), str(self.client_key))

    def connection(self, **options: Any) -> SSHConnection:
        """An ``SSHConnection`` that trusts this server's key (unless given ``known_hosts``)."""
        options.setdefault("known_hosts", str(self.known_hosts))
        return SSHConnection(self.target, **options)

    def log(self) -> str:
        return self.log_file.read_text(errors="replace") if self.log_file.exists() else ""

    def _new_host_key(self) -> None:
        for path in (self.host_key, Path(f"{self.host_key}.pub")):
            path.unlink(missing_ok=True)
        generate_key(self.host_key, comment="mars-test-host")
        self.known_hosts.write_text(self.host_key_line + "\n")

    def _write_config(self) -> Path:
        config = self.directory / "sshd_config"
        config.write_text(
            f"Port {self.port}\n"
            f"ListenAddress {self.host}\n"
            f"HostKey {self.host_key}\n"
            f"AuthorizedKeysFile {self.directory / 'authorized_keys'}\n"
            f"PidFile {self.directory / 'sshd.pid'}\n"
            "PasswordAuthentication no\n"
            "KbdInteractiveAuthentication no\n"
            "UsePAM no\n"
            "StrictModes no\n"
            "PermitRootLogin prohibit-password\n"
            "PrintMotd no\n"
            "Subsystem sftp internal-sftp\n"
        )
        return config

    def start(self) -> None:
        """Start sshd and wait until it accepts connections."""
        for _attempt in range(3):
            self.launch()
            try:
                self.wait_ready()
                return
            except RuntimeError:
                # a free port taken again in between: try another one
                if self._fixed_port is not None or "Address already in use" not in self.log():
                    raise
                self.port = free_port(self.host)
                self.known_hosts.write_text(self.host_key_line + "\n")
        raise RuntimeError(f"sshd found no free port on {self.host}")

    def launch(self) -> None:
        """Start sshd without waiting for it (``wait_ready`` waits)."""
        with contextlib.suppress(PermissionError):
            os.makedirs("/run/sshd", mode=0o755, exist_ok=True)  # its privilege separation
        config = self._write_config()
        command = [*self.prefix, SSHD, "-f", str(config), "-D", "-e"]
        if shutil.which("setpriv"):
            # sshd goes when the test process dies, however it dies
            command = ["setpriv", "--pdeathsig", "TERM", "--", *command]
        with open(self.log_file, "ab") as log:
            self.process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT
            )

    def wait_ready(self, timeout: float = READY_TIMEOUT) -> None:
        assert self.process is not None, "launch() first"
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"sshd on {self.host}:{self.port} exited ({self.process.returncode}):\n"
                    + self.log()[-2000:]
                )
            try:
                socket.create_connection((self.host, self.port), timeout=0.5).close()
                return
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(
                        f"sshd on {self.host}:{self.port} not listening after {timeout} s:\n"
                        + self.log()[-2000:]
                    ) from None
                time.sleep(0.02)

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)

    def regenerate_host_key(self) -> None:
        """Give the server a new host key and restart it on the same address and port:
        clients that recorded the old key must refuse it. ``known_hosts`` gets the new key."""
        self.stop()
        self._new_host_key()
        self.start()

    def __enter__(self) -> SshServer:
        if self.process is None:
            self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


# -- several hosts: network namespaces -------------------------------------------------------


def _ip(*args: str, check: bool = True) -> str:
    result = subprocess.run(["ip", *args], capture_output=True, text=True)
    if check and result.returncode:
        raise RuntimeError(f"ip {' '.join(args)} failed: {result.stderr.strip()}")
    return result.stdout


def _namespaces() -> list[str]:
    return [line.split()[0] for line in _ip("netns", "list", check=False).splitlines() if line]


def _links() -> list[str]:
    return re.findall(r"^\d+: ([^:@]+)", _ip("-o", "link", "show", check=False), flags=re.M)


def _owner_gone(pid: int) -> bool:
    try:
        return _ended(psutil.Process(pid))
    except psutil.NoSuchProcess:
        return True


def _stop_processes_in(namespace: str, grace: float = 3.0) -> None:
    """End every process still running in ``namespace`` (sshd and what it started):
    SIGTERM, then SIGKILL after ``grace`` seconds. A zombie counts as ended: orphans are
    not always reaped here."""
    processes = []
    for pid in _ip("netns", "pids", namespace, check=False).split():
        with contextlib.suppress(psutil.NoSuchProcess):
            process = psutil.Process(int(pid))
            process.send_signal(signal.SIGTERM)
            processes.append(process)
    deadline = time.monotonic() + grace
    while processes := [p for p in processes if not _ended(p)]:
        if time.monotonic() > deadline:
            for process in processes:
                with contextlib.suppress(psutil.NoSuchProcess):
                    process.kill()
            break
        time.sleep(0.02)


def _ended(process: psutil.Process) -> bool:
    try:
        return process.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def remove_leftovers() -> None:
    """Remove the namespaces and bridges of test runs whose process no longer exists."""
    for namespace in _namespaces():
        match = re.fullmatch(rf"{NETNS_PREFIX}(\d+)-\d+-\d+", namespace)
        if match and _owner_gone(int(match[1])):
            _stop_processes_in(namespace)
            _ip("netns", "delete", namespace, check=False)
    for link in _links():
        match = re.fullmatch(r"mb(\d+)x\d+", link)
        if match and _owner_gone(int(match[1])):
            ports = re.findall(r"^\d+: ([^:@]+)", _ip("-o", "link", "show", "master", link))
            for port in ports:
                _ip("link", "delete", port, check=False)
            _ip("link", "delete", link, check=False)


def _free_subnet() -> int:
    addresses = _ip("-o", "-4", "addr")
    used = {int(s) for s in re.findall(rf"inet {re.escape(SUBNET_PREFIX)}\.(\d+)\.", addresses)}
    used |= {int(m[1]) for link in _links() if (m := re.fullmatch(r"mb\d+x(\d+)", link))}
    free = [s for s in range(256) if s not in used]
    if not free:
        raise RuntimeError(f"no free {SUBNET_PREFIX}.x.0/24 subnet for test hosts")
    return free[0]


def require_netns() -> None:
    """Skip the calling test where network namespaces cannot be made."""
    if os.geteuid() != 0:
        pytest.skip("several SSH hosts need network namespaces, which need root")
    if not shutil.which("ip"):
        pytest.skip("several SSH hosts need `ip` (iproute2): run scripts/install-sshd")
    probe = f"{NETNS_PREFIX}{os.getpid()}-probe"
    result = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if result.returncode:
        pytest.skip(f"network namespaces are unavailable: {result.stderr.strip()}")
    _ip("netns", "delete", probe, check=False)


@dataclass
class NetnsHost:
    """One host: a network namespace with an address and an sshd of its own."""

    index: int
    namespace: str
    """The namespace's name (``ip netns exec <namespace> ...``)."""
    address: str
    """The host's address, on its ``eth0``; its sshd listens there on port 22."""
    gateway: str
    """This machine's address as the hosts see it: listen here to be reached from them."""
    hostname: str
    """The name ``hostname`` prints in its SSH sessions."""
    link: str
    """This machine's end of the host's cable (a veth port of the bridge)."""
    server: SshServer

    @property
    def exec_prefix(self) -> list[str]:
        """Prepend to an argv to run it in this host's network (not under its hostname)."""
        return ["ip", "netns", "exec", self.namespace]

    def connection(self, **options: Any) -> SSHConnection:
        return self.server.connection(**options)

    def set_connected(self, connected: bool) -> None:
        """Plug the host's cable in or out: unplugged, nothing reaches it or leaves it."""
        _ip("link", "set", self.link, "up" if connected else "down")


class NetnsHosts:
    """``n`` hosts in network namespaces of this machine, each with a real sshd; needs root
    (``require_netns`` skips otherwise). ``close()`` (or ``with``) removes everything."""

    def __init__(self, n: int, directory: Path) -> None:
        require_sshd()
        require_netns()
        self.directory = Path(directory)
        self.hosts: list[NetnsHost] = []
        self.gateway = ""
        """This machine's address on the hosts' network (each host's ``gateway``)."""
        self.bridge: str | None = None
        self._namespaces: list[str] = []
        self._links: list[str] = []
        try:
            self._create(n)
        except BaseException:
            self.close()
            raise

    def __getitem__(self, index: int) -> NetnsHost:
        return self.hosts[index]

    def __iter__(self) -> Iterator[NetnsHost]:
        return iter(self.hosts)

    def __len__(self) -> int:
        return len(self.hosts)

    def __enter__(self) -> NetnsHosts:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _create(self, n: int) -> None:
        pid = os.getpid()
        client_key = generate_key(self.directory / "client_ed25519")
        with open(NETNS_LOCK, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            remove_leftovers()
            s = _free_subnet()
            self.gateway = f"{SUBNET_PREFIX}.{s}.1"
            self.bridge = f"mb{pid}x{s}"
            _ip("link", "add", self.bridge, "type", "bridge")
            _ip("addr", "add", f"{self.gateway}/24", "dev", self.bridge)
            _ip("link", "set", self.bridge, "up")
            # the bridge holds the address: the subnet is taken from here on
        for i in range(n):
            namespace, link = f"{NETNS_PREFIX}{pid}-{s}-{i}", f"mv{s}h{i}"
            address = f"{SUBNET_PREFIX}.{s}.{i + 2}"
            _ip("link", "delete", link, check=False)  # a crashed run's, being torn down
            _ip("netns", "add", namespace)
            self._namespaces.append(namespace)
            _ip("link", "add", link, "type", "veth", "peer", "name", "eth0", "netns", namespace)
            self._links.append(link)
            _ip("link", "set", link, "master", self.bridge, "up")
            _ip("-n", namespace, "addr", "add", f"{address}/24", "dev", "eth0")
            _ip("-n", namespace, "link", "set", "eth0", "up")
            _ip("-n", namespace, "link", "set", "lo", "up")
            _ip("-n", namespace, "route", "add", "default", "via", self.gateway)
            hostname = f"mars-host-{i}"
            # its own UTS namespace too, so that sessions see the host's own hostname
            prefix = [
                *["ip", "netns", "exec", namespace, "unshare", "--uts", "--"],
                *["sh", "-c", 'hostname "$0" && exec "$@"', hostname],
            ]
            server = SshServer(
                self.directory / f"host-{i}",
                host=address,
                port=22,
                client_key=client_key,
                prefix=prefix,
            )
            self.hosts.append(
                NetnsHost(i, namespace, address, self.gateway, hostname, link, server)
            )
        for host in self.hosts:
            host.server.launch()
        for host in self.hosts:
            host.server.wait_ready()

    def close(self) -> None:
        """Stop the servers and everything running in the namespaces, then remove the
        namespaces, links and bridge; every step runs even when an earlier one fails."""
        errors: list[BaseException] = []
        steps: list[Any] = [host.server.stop for host in self.hosts]
        for namespace in self._namespaces:
            steps.append(lambda ns=namespace: _stop_processes_in(ns))
            steps.append(lambda ns=namespace: _ip("netns", "delete", ns))
        for link in self._links:
            steps.append(lambda link=link: _ip("link", "delete", link, check=False))
        if self.bridge is not None:
            steps.append(lambda bridge=self.bridge: _ip("link", "delete", bridge))
        for step in steps:
            try:
                step()
            except Exception as error:  # go on cleaning, report at the end
                errors.append(error)
        self.hosts, self._namespaces, self._links, self.bridge = [], [], [], None
        if errors:
            raise RuntimeError(f"cleaning up test hosts: {errors}")
