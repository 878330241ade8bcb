"""A cluster started with the older commands, as documents 002 and 003 write them:
``mars-scheduler -a <ip> -p <port>``, ``mars-web -a <ip> -p <port> -s <scheduler>`` and
``mars-worker -a <ip> -p <port> -s <scheduler> --cpu-procs 1 ...``, each a real process on
127.0.0.1 (``python -m`` of this tree's modules)."""

from __future__ import annotations

import os
import re
import secrets
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field

from jupyter_mars.launcher.local import _Process
from jupyter_mars.remote import HttpClient
from tests.cluster.processes import RPC, WEB, WORKER, free_port, wait_until

SCHEDULER_STARTED = RPC
WEB_STARTED = WEB


def start(module: str, pattern: re.Pattern[str], env: dict[str, str], *args: str) -> _Process:
    """``python -m jupyter_mars.deploy.<module> args``, once it printed ``pattern``."""
    process = _Process([sys.executable, "-m", f"jupyter_mars.deploy.{module}", *args], env)
    try:
        process.wait_for(pattern, 60)
    except BaseException:
        process.stop()
        raise
    return process


@dataclass
class OldCluster:
    token: str
    env: dict[str, str]
    scheduler: _Process
    scheduler_address: str
    web: _Process | None = None
    web_address: str = ""
    workers: list[_Process] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://{self.web_address}"

    def http(self, token: str | None = None) -> HttpClient:
        return HttpClient(self.url, self.token if token is None else token, timeout=15)

    def start_web(self, *args: str, supervisors: str = "") -> _Process:
        """``mars-web`` in front of ``supervisors`` (default: the scheduler)."""
        listed = supervisors or self.scheduler_address
        argv = ["-a", "127.0.0.1", "-p", str(free_port()), "-s", listed, *args]
        self.web = start("web", WEB, self.env, *argv)
        self.web_address = self.web.wait_for(WEB, 1)
        return self.web

    def add_worker(self, *args: str) -> _Process:
        argv = ["-a", "127.0.0.1", "-p", str(free_port()), "-s", self.scheduler_address, *args]
        worker = start("worker", WORKER, self.env, *argv)
        self.workers.append(worker)
        return worker

    def wait_for_workers(self, n: int) -> None:
        http = self.http()
        assert wait_until(lambda: len(http.json("GET", "/api/v1/workers")) >= n, 30)


@contextmanager
def old_cluster(
    token_dir: str, *scheduler_args: str, port: int | None = None
) -> Iterator[OldCluster]:
    """A scheduler (``mars-scheduler -a 127.0.0.1 -p <port>``, any free port by default)
    with its token in ``MARS_TOKEN``; the test adds the web process and workers, all
    stopped at the end."""
    token = secrets.token_urlsafe(16)
    env = {
        **os.environ,
        "MARS_TOKEN": token,
        "PYTHONUNBUFFERED": "1",
        "JUPYTER_MARS_TOKEN_DIR": token_dir,
    }
    port = port or free_port()
    with ExitStack() as stack:
        args = ("-a", "127.0.0.1", "-p", str(port), *scheduler_args)
        scheduler = start("scheduler", SCHEDULER_STARTED, env, *args)
        stack.callback(scheduler.stop)
        cluster = OldCluster(token, env, scheduler, scheduler.wait_for(SCHEDULER_STARTED, 1))
        try:
            yield cluster
        finally:
            for process in [*cluster.workers, *([cluster.web] if cluster.web else [])]:
                process.stop()
