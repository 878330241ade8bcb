"""A real local Ray cluster for the tests: a head and a second node on 127.0.0.1.

Each cluster has a temporary directory of its own (``--temp-dir``), so that two runs never
share one, and is stopped by killing the processes started under that directory only:
never another Ray on this machine.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest

ray = pytest.importorskip("ray", reason="Ray is an optional dependency: jupyter_mars[ray]")

RAY = Path(sys.executable).parent / "ray"


@dataclass(frozen=True)
class LocalRay:
    address: str
    """``127.0.0.1:<port>`` of the head's GCS, for ``ray.init(address=...)``."""
    temp_dir: str
    env: dict[str, str]
    """The environment its processes run with (this tree first on ``PYTHONPATH``)."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _ray_processes(temp_dir: str) -> list[psutil.Process]:
    """The processes of the Ray cluster under ``temp_dir`` (their command lines name it,
    or they descend from one that does)."""
    found: dict[int, psutil.Process] = {}
    for proc in psutil.process_iter(["cmdline"]):
        if any(temp_dir in part for part in proc.info["cmdline"] or []):
            found[proc.pid] = proc
    for proc in list(found.values()):
        try:
            for child in proc.children(recursive=True):
                found[child.pid] = child
        except psutil.NoSuchProcess:
            pass
    return list(found.values())


def _stop(temp_dir: str) -> None:
    procs = _ray_processes(temp_dir)
    for proc in procs:
        try:
            proc.terminate()
        except psutil.NoSuchProcess:
            pass
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(_running(p) for p in procs):
        time.sleep(0.1)
    for proc in procs:
        if _running(proc):
            try:
                proc.kill()
            except psutil.NoSuchProcess:
                pass


def _running(proc: psutil.Process) -> bool:
    """Not ended (a zombie has ended: only its parent's wait is missing)."""
    try:
        return proc.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def running(pid: int) -> bool:
    """Whether process ``pid`` of this machine runs (a zombie does not)."""
    try:
        return _running(psutil.Process(pid))
    except psutil.NoSuchProcess:
        return False


def kill_node(cluster: LocalRay, node_id: str) -> None:
    """Kill one node of ``cluster`` (its raylet and everything under it) as a lost machine
    would go: at once, nothing stopped in order."""
    for proc in _ray_processes(cluster.temp_dir):
        try:
            cmdline = proc.cmdline()
        except psutil.NoSuchProcess:
            continue
        if "raylet" in proc.name() and f"--node_id={node_id}" in cmdline:
            doomed = [proc, *proc.children(recursive=True)]
            for victim in doomed:
                try:
                    victim.kill()
                except psutil.NoSuchProcess:
                    pass
            return
    raise AssertionError(f"no raylet of node {node_id} under {cluster.temp_dir}")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[LocalRay]:
    """A head of 2 CPUs and a second node of 1 CPU, and this process connected to it."""
    temp_dir = tempfile.mkdtemp(prefix="mars-ray-", dir="/tmp")
    port = _free_port()
    repo = str(Path(__file__).resolve().parents[2])
    env = {
        **os.environ,
        "RAY_USAGE_STATS_ENABLED": "0",
        # loopback only, started and stopped here: no token to share between the nodes
        "RAY_AUTH_MODE": "disabled",
        "PYTHONPATH": os.pathsep.join([repo, os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
    }
    common = ["--node-ip-address=127.0.0.1", f"--temp-dir={temp_dir}", "--disable-usage-stats"]
    try:
        subprocess.run(
            [str(RAY), "start", "--head", f"--port={port}", "--num-cpus=2"]
            + ["--include-dashboard=false", *common],
            env=env,
            check=True,
            capture_output=True,
            timeout=120,
        )
        subprocess.run(
            [str(RAY), "start", f"--address=127.0.0.1:{port}", "--num-cpus=1", *common],
            env=env,
            check=True,
            capture_output=True,
            timeout=120,
        )
        address = f"127.0.0.1:{port}"
        os.environ["RAY_AUTH_MODE"] = "disabled"
        ray.init(address=address, logging_level="ERROR", log_to_driver=False)
        deadline = time.monotonic() + 60
        while len([n for n in ray.nodes() if n["Alive"]]) < 2:
            assert time.monotonic() < deadline, "the second Ray node did not join"
            time.sleep(0.2)
        yield LocalRay(address, temp_dir, env)
    finally:
        if ray.is_initialized():
            ray.shutdown()
        _stop(temp_dir)
        shutil.rmtree(temp_dir, ignore_errors=True)
