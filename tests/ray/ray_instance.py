"""A local Ray instance for tests: ``ray start --head`` on 127.0.0.1, in a temporary
directory of its own, its processes (found by that directory, and no others) ended at the
end. Usage statistics and token authentication are off (loopback only; a token in the home
directory may belong to another Ray instance)."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psutil


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _end_processes_of(temp_dir: str) -> None:
    """End the Ray processes started with ``temp_dir`` (and none other)."""
    mine = []
    for proc in psutil.process_iter(["cmdline"]):
        cmdline = proc.info["cmdline"] or []
        if any(temp_dir in part for part in cmdline):
            mine.append(proc)
    for proc in mine:
        proc.kill()
    psutil.wait_procs(mine, timeout=10)


@contextlib.contextmanager
def local_ray(num_cpus: int = 2) -> Iterator[str]:
    """A Ray head node on loopback with ``num_cpus``, this process connected to it."""
    import ray
    import ray.data

    temp_dir = tempfile.mkdtemp(prefix="rayds", dir="/tmp")  # short: socket paths
    port = _free_port()
    # loopback only, and a token in the home directory may belong to another Ray instance
    quiet = {"RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"}
    saved = {name: os.environ.get(name) for name in quiet}
    os.environ.update(quiet)
    env = dict(os.environ)
    ray_script = str(Path(sys.executable).parent / "ray")
    subprocess.run(
        [ray_script, "start", "--head", "--node-ip-address=127.0.0.1", f"--port={port}",
         f"--num-cpus={num_cpus}", "--include-dashboard=false", "--disable-usage-stats",
         f"--temp-dir={temp_dir}"],
        check=True, env=env, capture_output=True,
    )  # fmt: skip
    address = f"127.0.0.1:{port}"
    try:
        ray.init(address=address, log_to_driver=False)
        ray.data.DataContext.get_current().enable_progress_bars = False
        yield address
    finally:
        ray.shutdown()
        _end_processes_of(temp_dir)
        shutil.rmtree(temp_dir, ignore_errors=True)
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
