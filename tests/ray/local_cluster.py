"""A real local Ray cluster on 127.0.0.1 for the tests: ``ray start --head`` and more node
processes, each started and stopped by the test that owns it.

Every cluster gets its own ``--temp-dir`` and GCS port, and ``stop`` kills only the
processes that name them (and their children: the nodes' workers), never Ray processes
another run started.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import psutil

LOOPBACK_ENV = {
    "RAY_USAGE_STATS_ENABLED": "0",
    # a head on 127.0.0.1, not on the machine's outward address (see ray_node.py)
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
    # a cluster on loopback, for this test run only: no token to hand around
    "RAY_AUTH_MODE": "disabled",
}
RAY = Path(sys.executable).parent / "ray"
NODE = Path(__file__).with_name("ray_node.py")
ATTEMPTS = 3
"""Starts of a node tried: on a busy machine a raylet may miss Ray's fixed 30 s to
register, and ``ray start`` gives up."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LocalRayCluster:
    """A head with ``head_cpus`` CPUs on a free port; ``add_node`` starts another node."""

    def __init__(self, head_cpus: int = 1, env: dict[str, str] | None = None) -> None:
        self.temp_dir = tempfile.mkdtemp(prefix="mars-ray-test-")
        self.node_ports: list[int] = []
        """The node manager ports of the nodes ``add_node`` started, dead ones too."""
        self.env = {**os.environ, **LOOPBACK_ENV, **(env or {})}
        for attempt in range(ATTEMPTS):
            self.port = free_port()
            self.address = f"127.0.0.1:{self.port}"
            argv = [
                str(RAY),
                "start",
                "--head",
                "--node-ip-address=127.0.0.1",
                f"--port={self.port}",
                f"--num-cpus={head_cpus}",
                "--include-dashboard=false",
                "--disable-usage-stats",
                f"--temp-dir={self.temp_dir}",
                f"--ray-client-server-port={free_port()}",
            ]
            if self._run(argv, last=attempt == ATTEMPTS - 1):
                return
            self._kill_all()

    def add_node(self, cpus: int = 1) -> int:
        """Start a node with ``cpus`` CPUs; its node manager's port, which names it."""
        for attempt in range(ATTEMPTS):
            port = free_port()
            argv = [
                sys.executable,
                str(NODE),
                "start",
                f"--address={self.address}",
                f"--num-cpus={cpus}",
                f"--node-manager-port={port}",
                f"--object-manager-port={free_port()}",
                "--disable-usage-stats",
            ]
            if self._run(argv, last=attempt == ATTEMPTS - 1):
                self.node_ports.append(port)
                return port
            self.kill_node(port)
        raise AssertionError("unreachable")

    def kill_node(self, node_manager_port: int) -> int:
        """Kill the raylet of the node started on ``node_manager_port`` and its workers,
        as a machine that dies would; how many processes were killed."""
        raylets = [
            p
            for p in self._mine()
            if f"--node_manager_port={node_manager_port}" in " ".join(_cmdline(p))
        ]
        victims = [*raylets, *(c for r in raylets for c in _children(r))]
        for p in victims:
            _kill(p)
        return len(victims)

    def stop(self) -> None:
        self._kill_all()
        shutil.rmtree(self.temp_dir, ignore_errors=True)

    def _kill_all(self) -> None:
        for p in self._mine():
            for child in _children(p):
                _kill(child)
            _kill(p)

    def _mine(self) -> list[psutil.Process]:
        """This cluster's processes: those naming its temp directory or its GCS port."""
        marks = (self.temp_dir, f"127.0.0.1:{self.port}", f"--gcs_server_port={self.port}")
        found = []
        for p in psutil.process_iter():
            line = " ".join(_cmdline(p))
            if any(mark in line for mark in marks) and p.pid != os.getpid():
                found.append(p)
        return found

    def _run(self, argv: list[str], last: bool) -> bool:
        """Run a ``ray start``; whether it started its node (the last try raises)."""
        done = subprocess.run(
            argv, env=self.env, capture_output=True, text=True, timeout=180, check=False
        )
        if done.returncode == 0:
            return True
        if last:
            self.stop()
            raise RuntimeError(f"{argv[:3]} failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
        return False


def _cmdline(p: psutil.Process) -> list[str]:
    try:
        return p.cmdline()
    except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
        return []


def _children(p: psutil.Process) -> list[psutil.Process]:
    try:
        return p.children(recursive=True)
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return []


def _kill(p: psutil.Process) -> None:
    try:
        p.send_signal(signal.SIGKILL)
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        pass
