"""Real supervisor and worker processes started from the command line, for tests."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from jupyter_mars.launcher.local import _Process
from jupyter_mars.remote import _Http

WEB = re.compile(r"Mars Web started at (\S+)")
RPC = re.compile(r"Mars Supervisor started at (\S+)")
WORKER = re.compile(r"Mars Worker started at (\S+)")


class CliCluster:
    def __init__(self, token: str, supervisor: _Process, web: str, rpc: str) -> None:
        self.token = token
        self.supervisor = supervisor
        self.web = web
        self.url = f"http://{web}"
        self.rpc = rpc
        self.workers: list[_Process] = []
        self.env = {**os.environ, "MARS_TOKEN": token, "PYTHONUNBUFFERED": "1"}

    def add_worker(self, *args: str) -> _Process:
        argv = [
            sys.executable,
            "-m",
            "jupyter_mars.worker",
            "-H",
            "127.0.0.1",
            "-s",
            self.rpc,
            *args,
        ]
        worker = _Process(argv, self.env)
        worker.wait_for(WORKER, 60)
        self.workers.append(worker)
        return worker

    def http(self, token: str | None = None) -> _Http:
        return _Http(self.url, self.token if token is None else token, timeout=10)

    def wait_for_workers(self, n: int, timeout: float = 30) -> list[dict[str, Any]]:
        deadline = time.monotonic() + timeout
        while True:
            workers = self.http().json("GET", "/api/v1/workers")
            if len(workers) >= n:
                return workers
            if time.monotonic() > deadline:
                raise TimeoutError(f"{len(workers)} of {n} workers joined")
            time.sleep(0.05)


@contextmanager
def cli_cluster(n_workers: int = 2, *worker_args: str) -> Iterator[CliCluster]:
    token = secrets.token_urlsafe(16)
    env = {**os.environ, "MARS_TOKEN": token, "PYTHONUNBUFFERED": "1"}
    argv = [
        sys.executable,
        "-m",
        "jupyter_mars.supervisor",
        "-H",
        "127.0.0.1",
        "-p",
        "0",
        "-w",
        "0",
    ]
    supervisor = _Process(argv, env)
    cluster: CliCluster | None = None
    try:
        cluster = CliCluster(
            token, supervisor, supervisor.wait_for(WEB, 60), supervisor.wait_for(RPC, 60)
        )
        for _ in range(n_workers):
            cluster.add_worker(*worker_args)
        cluster.wait_for_workers(n_workers)
        yield cluster
    finally:
        if cluster is not None:
            for worker in cluster.workers:
                worker.stop()
        supervisor.stop()


def run_cli(
    module: str, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
        check=False,
    )
