"""Real supervisor and worker processes started from the command line, for tests.

Workers start with ``--no-nanny``: the tests signal, kill and measure the worker process
itself (``test_nanny.py`` starts workers under their nanny).
"""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import secrets
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

from jupyter_mars.launcher.local import _Process
from jupyter_mars.remote import HttpClient
from jupyter_mars.remote.failover import web_urls

WEB = re.compile(r"Mars Web started at (\S+)")
RPC = re.compile(r"Mars Supervisor started at (\S+)")
WORKER = re.compile(r"Mars Worker started at (\S+)")


class CliCluster:
    def __init__(
        self, token: str, supervisor: _Process, web: str, rpc: str, base_path: str = "/"
    ) -> None:
        self.token = token
        self.supervisor = supervisor
        self.web = web
        self.url = f"http://{web}{base_path.rstrip('/')}"
        """The web service's root: the API is under it, the dashboard at its ``/``."""
        self.rpc = rpc
        self.workers: list[_Process] = []
        self.env = {**os.environ, "MARS_TOKEN": token, "PYTHONUNBUFFERED": "1"}

    def add_worker(self, *args: str) -> _Process:
        argv = [
            sys.executable,
            "-m",
            "jupyter_mars.deploy.worker",
            "-H",
            "127.0.0.1",
            "-s",
            self.rpc,
            "--no-nanny",
            *args,
        ]
        worker = _Process(argv, self.env)
        try:
            worker.wait_for(WORKER, 60)
        except BaseException:
            worker.stop()
            raise
        self.workers.append(worker)
        return worker

    def raw(
        self, method: str, path: str, body: bytes = b"", **headers: str
    ) -> tuple[int, dict[str, str], bytes]:
        """A request of the web service sent as is, any header (``Host`` too) settable:
        status, headers and body."""
        netloc = urlsplit(self.url).netloc
        conn = http.client.HTTPConnection(netloc, timeout=15)
        try:
            conn.request(method, path, body=body, headers={"Host": netloc, **headers})
            response = conn.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            conn.close()

    def http(self, token: str | None = None) -> HttpClient:
        return HttpClient(self.url, self.token if token is None else token, timeout=10)

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
def cli_cluster(
    n_workers: int = 2,
    *worker_args: str,
    base_path: str = "/",
    supervisor_args: tuple[str, ...] = (),
) -> Iterator[CliCluster]:
    token = secrets.token_urlsafe(16)
    env = {**os.environ, "MARS_TOKEN": token, "PYTHONUNBUFFERED": "1"}
    argv = [
        sys.executable,
        "-m",
        "jupyter_mars.deploy.supervisor",
        "-H",
        "127.0.0.1",
        "-p",
        "0",
        "-w",
        "0",
        "--web-base-path",
        base_path,
        *supervisor_args,
    ]
    supervisor = _Process(argv, env)
    cluster: CliCluster | None = None
    try:
        web, rpc = supervisor.wait_for(WEB, 60), supervisor.wait_for(RPC, 60)
        cluster = CliCluster(token, supervisor, web, rpc, base_path)
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


@contextmanager
def remote_session(cluster: Any, default: Any) -> Iterator[Any]:
    """A session of ``cluster`` (not made the default); closed afterwards, with the
    embedded ``default`` session the default again."""
    import jupyter_mars as mars

    remote = mars.new_session(cluster.url, token=cluster.token, default=False)
    try:
        yield remote
    finally:
        remote.close()
        default.as_default()


def wait_until(predicate: Any, timeout: float, poll: float = 0.05) -> bool:
    """Whether ``predicate()`` came true within ``timeout`` seconds (asked every ``poll``)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(poll)
    return True


def free_port() -> int:
    """A port nothing listens on now (the OS may hand it out again later: use it soon)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_supervisor(env: dict[str, str], port: int, web_port: int, *args: str) -> _Process:
    """``python -m jupyter_mars.deploy.supervisor`` on 127.0.0.1, once it prints its web address."""
    argv = [
        sys.executable,
        "-m",
        "jupyter_mars.deploy.supervisor",
        "-H",
        "127.0.0.1",
        "-p",
        str(port),
        "-w",
        str(web_port),
        *args,
    ]
    process = _Process(argv, env)
    try:
        process.wait_for(WEB, 60)
    except BaseException:
        process.stop()
        raise
    return process


class HaCluster:
    """Several supervisors (``-s`` lists them all) and workers registered with each."""

    def __init__(self, token: str) -> None:
        self.token = token
        self.env = {**os.environ, "MARS_TOKEN": token, "PYTHONUNBUFFERED": "1"}
        self.rpc: list[str] = []
        self.urls: list[str] = []
        self.supervisors: list[_Process] = []
        self.workers: list[_Process] = []

    def http(self, index: int, timeout: float = 10) -> HttpClient:
        return HttpClient(self.urls[index], self.token, timeout=timeout)

    def cluster(self, index: int) -> dict[str, Any] | None:
        """Supervisor ``index``'s cluster model; None when it does not answer."""
        try:
            model: dict[str, Any] = self.http(index, timeout=2).json("GET", "/api/v1/cluster")
        except ConnectionError:
            return None
        return model

    def wait_until_active(self, index: int, timeout: float = 30) -> float:
        """Seconds until supervisor ``index`` says it is active."""
        started = time.monotonic()
        while True:
            model = self.cluster(index)
            if model is not None and model["active"]:
                return time.monotonic() - started
            if time.monotonic() - started > timeout:
                raise TimeoutError(f"supervisor {self.rpc[index]} did not become active")
            time.sleep(0.05)

    def wait_for_workers(self, n: int, timeout: float = 30) -> None:
        """Until every live supervisor lists ``n`` workers, knows the web address of
        every other (learnt by pinging them; clients learn them from it) and which one is
        active."""
        deadline = time.monotonic() + timeout
        for index, process in enumerate(self.supervisors):
            while process.popen.poll() is None:
                model = self.cluster(index)
                if (
                    model is not None
                    and len(model["workers"]) >= n
                    and len(web_urls(model)) == len(self.supervisors)
                    and any(entry["active"] for entry in model["supervisors"])
                ):
                    break
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{self.rpc[index]} did not see {n} workers")
                time.sleep(0.05)

    def stop(self) -> None:
        for process in [*self.workers, *self.supervisors]:
            process.stop()


@contextmanager
def ha_cluster(
    n_supervisors: int = 2, n_workers: int = 2, *worker_args: str
) -> Iterator[HaCluster]:
    """Supervisors started as a user would, ``-s`` listing them all, first one active."""
    cluster = HaCluster(secrets.token_urlsafe(16))
    try:
        ports = [(free_port(), free_port()) for _ in range(n_supervisors)]
        cluster.rpc = [f"127.0.0.1:{port}" for port, _ in ports]
        cluster.urls = [f"http://127.0.0.1:{web}" for _, web in ports]
        listed = ",".join(cluster.rpc)
        for port, web in ports:
            cluster.supervisors.append(start_supervisor(cluster.env, port, web, "-s", listed))
        for _ in range(n_workers):
            argv = [
                sys.executable,
                "-m",
                "jupyter_mars.deploy.worker",
                "-H",
                "127.0.0.1",
                "--no-nanny",
            ]
            worker = _Process([*argv, "-s", listed, *worker_args], cluster.env)
            cluster.workers.append(worker)
            worker.wait_for(WORKER, 60)
        cluster.wait_for_workers(n_workers)
        yield cluster
    finally:
        cluster.stop()


class FlakyLink:
    """A TCP relay to the supervisor's web port that can be cut: while cut, it accepts
    connections and closes them at once, as a network that drops them would."""

    def __init__(self, target):
        host, port = target.rsplit(":", 1)
        self.target = (host, int(port))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.cut = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return  # closed
            if self.cut.is_set():
                conn.close()
                continue
            upstream = socket.create_connection(self.target)
            for a, b in ((conn, upstream), (upstream, conn)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source, sink):
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        for each in (source, sink):  # the other pump then ends too
            with contextlib.suppress(OSError):
                each.shutdown(socket.SHUT_RDWR)
            each.close()

    def close(self):
        self.listener.close()
