"""``new_cluster``: a supervisor and workers as subprocesses of this machine.

The processes are the real command-line programs (``python -m jupyter_mars.deploy.supervisor``
and ``python -m jupyter_mars.deploy.worker``), so a local cluster behaves exactly like one started
by hand, each worker under its nanny, which restarts it if it dies. The cluster token is
generated here and handed to them through the environment, never on a command line.
"""

from __future__ import annotations

import dataclasses
import os
import re
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Sequence
from typing import Any

from jupyter_mars.launcher import display, registry
from jupyter_mars.launcher.adaptive_loop import Adaptive, Adapts
from jupyter_mars.remote import HttpClient
from jupyter_mars.remote.tokens import generate_token
from jupyter_mars.session import new_session

_WEB_LINE = re.compile(r"Mars Web started at (\S+)")
_SUPERVISOR_LINE = re.compile(r"Mars Supervisor started at (\S+)")
_WORKER_LINE = re.compile(r"Mars Worker started at (\S+)")


class _Process:
    """A child process whose output is kept (last lines) and scanned for start lines."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.argv = argv
        self.popen = subprocess.Popen(
            argv,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: deque[str] = deque(maxlen=200)
        self.address: str | None = None
        """The address a worker last said it started at (a nanny's restart changes it)."""
        self._seen = threading.Condition()
        self._pumping = threading.Thread(target=self._pump, daemon=True)
        self._pumping.start()

    def _pump(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            started = _WORKER_LINE.search(line)
            if started:
                self.address = started.group(1)
            with self._seen:
                self.lines.append(line.rstrip("\n"))
                self._seen.notify_all()
        with self._seen:
            self._seen.notify_all()

    def wait_for(self, pattern: re.Pattern[str], timeout: float) -> str:
        deadline = time.monotonic() + timeout
        with self._seen:
            while True:
                for line in self.lines:
                    match = pattern.search(line)
                    if match:
                        return match.group(1)
                if self.popen.poll() is not None:
                    raise RuntimeError(
                        f"{self.argv[2]} exited with status {self.popen.returncode}:\n"
                        + "\n".join(list(self.lines)[-20:])
                    )
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(
                        f"{self.argv[2]} did not start within {timeout} s:\n"
                        + "\n".join(list(self.lines)[-20:])
                    )
                self._seen.wait(min(remaining, 0.2))

    def stop(self, timeout: float = 5.0) -> None:
        if self.popen.poll() is None:
            self.popen.terminate()
            try:
                self.popen.wait(timeout)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()
        self._pumping.join(timeout)
        if self.popen.stdout is not None:
            self.popen.stdout.close()


class LocalCluster(Adapts):
    """A running local cluster; ``.session`` is connected to it and made the default
    (``connect=False``: no session, for an owner that only runs the cluster).

    ``web_base_path`` serves its web service under that path (behind a proxy); ``kind`` is
    what the registry of this machine's clusters records it as (``server`` when a Jupyter
    server owns it). ``nanny=False`` starts the workers without their nanny: the
    processes in ``workers`` are then the workers themselves, and a worker that dies stays
    dead."""

    def __init__(
        self,
        n_worker: int = 2,
        n_cpu: int = 1,
        memory: str | int | None = None,
        web_port: int | None = None,
        timeout: float = 60.0,
        spill_dirs: list[str] | None = None,
        cache_mem: str | int | None = None,
        web_base_path: str = "/",
        kind: str = "local",
        connect: bool = True,
        nanny: bool = True,
    ) -> None:
        if isinstance(n_worker, bool) or not isinstance(n_worker, int) or n_worker < 1:
            raise ValueError(f"n_worker must be a positive int, got {n_worker!r}")
        if isinstance(n_cpu, bool) or not isinstance(n_cpu, int) or n_cpu < 1:
            raise ValueError(f"n_cpu must be a positive int, got {n_cpu!r}")
        self.token = generate_token()
        env = {**os.environ, "MARS_TOKEN": self.token, "PYTHONUNBUFFERED": "1"}
        python = sys.executable
        self.supervisor = _Process(
            [
                python,
                "-m",
                "jupyter_mars.deploy.supervisor",
                "-H",
                "127.0.0.1",
                "-p",
                "0",
                "-w",
                str(web_port or 0),
                "--web-base-path",
                web_base_path,
            ],
            env,
        )
        self.workers: list[_Process] = []
        self.n_cpu = n_cpu
        self.adaptive: Adaptive | None = None
        """The adaptive loop while ``adapt`` is on (None: the size is the user's)."""
        self.session: Any = None
        self.id: str | None = None
        """Its id in the registry of this machine's clusters (``registry.py``)."""
        try:
            web = self.supervisor.wait_for(_WEB_LINE, timeout)
            rpc = self.supervisor.wait_for(_SUPERVISOR_LINE, timeout)
            self.endpoint = f"http://{web}{web_base_path.rstrip('/')}"
            self.supervisor_address = rpc
            self._worker_argv = [
                python,
                "-m",
                "jupyter_mars.deploy.worker",
                "-H",
                "127.0.0.1",
                "-s",
                rpc,
                "--n-cpu",
                str(n_cpu),
            ]
            if memory is not None:
                self._worker_argv += ["--phy-mem", str(memory)]
            if cache_mem is not None:
                self._worker_argv += ["--cache-mem", str(cache_mem)]
            if spill_dirs:
                self._worker_argv += ["--spill-dir", ":".join(spill_dirs)]
            if not nanny:
                self._worker_argv.append("--no-nanny")
            self._env = env
            for _ in range(n_worker):
                self.workers.append(_Process(self._worker_argv, env))
            self._wait_for_workers(n_worker, timeout)
            if connect:
                self.session = new_session(self.endpoint, token=self.token)
            entry = registry.ClusterRecord(self.endpoint, kind, n_workers=n_worker)
            registry.record(entry)
            self.id = entry.id
        except BaseException:
            self.stop()
            raise

    def scale(self, n: int, timeout: float = 60.0) -> None:
        """Run ``n`` workers: more are started, or the newest stopped; returns once the
        supervisor counts exactly ``n``. Turns adaptive scaling off."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"n must be a non-negative int, got {n!r}")
        self.stop_adapting()
        self.resize(n, timeout=timeout)

    def most_workers(self, minimum: int) -> int:
        """As many workers as this machine's cores hold."""
        return max(minimum, _cores() // self.n_cpu)

    def check_running(self) -> None:
        if self.supervisor.popen.poll() is not None:
            raise RuntimeError("the cluster is stopped: start a new one to adapt")

    @property
    def n_workers(self) -> int:
        return len(self.workers)

    def resize(self, n: int, retire: Sequence[str] = (), timeout: float = 60.0) -> None:
        """Run ``n`` workers, leaving adaptive scaling as it is: more are started, or the
        newest stopped; with ``retire`` (supervisor addresses), only workers named there,
        the first first (fewer, if too few are this cluster's: never another one). A
        worker whose process has exited (killed, or its nanny gone) counts no more: the
        supervisor drops it too, and a new one takes its place."""
        for gone in [w for w in self.workers if w.popen.poll() is not None]:
            gone.stop()  # its output pipe is closed
            self.workers.remove(gone)
        if n > len(self.workers):
            for _ in range(n - len(self.workers)):
                self.workers.append(_Process(self._worker_argv, self._env))
        elif n < len(self.workers):
            excess = len(self.workers) - n
            if retire:
                mine = {w.address: w for w in self.workers}
                leaving = [mine[a] for a in dict.fromkeys(retire) if a in mine][:excess]
            else:
                leaving = self.workers[n:]
            self.workers = [w for w in self.workers if w not in leaving]
            for worker in leaving:
                worker.stop()
            n = len(self.workers)
        self._wait_for_workers(n, timeout, exactly=True)
        entry = registry.find(self.id) if self.id is not None else None
        if entry is not None:
            registry.record(dataclasses.replace(entry, n_workers=n))

    def _wait_for_workers(self, n_worker: int, timeout: float, exactly: bool = False) -> None:
        http = HttpClient(self.endpoint, self.token, timeout=5)
        deadline = time.monotonic() + timeout
        while True:
            joined = len(http.json("GET", "/api/v1/cluster")["workers"])
            if joined == n_worker or (joined > n_worker and not exactly):
                return
            for worker in self.workers:
                if worker.popen.poll() is not None:
                    raise RuntimeError(
                        f"a worker exited with status {worker.popen.returncode}:\n"
                        + "\n".join(list(worker.lines)[-20:])
                    )
            if time.monotonic() > deadline:
                raise TimeoutError(f"{joined} of {n_worker} workers joined within {timeout} s")
            time.sleep(0.05)

    @property
    def pids(self) -> list[int]:
        return [p.popen.pid for p in [self.supervisor, *self.workers]]

    @property
    def dashboard_url(self) -> str:
        return self.endpoint.rstrip("/") + "/"

    def stop(self) -> None:
        self.stop_adapting()
        if self.id is not None:
            registry.remove(self.id)
            self.id = None
        if self.session is not None:
            self.session.close()
            self.session = None
        for worker in self.workers:
            worker.stop()
        self.supervisor.stop()

    @property
    def running(self) -> bool:
        """Whether its supervisor process runs (False once stopped)."""
        return self.supervisor.popen.poll() is None

    def __repr__(self) -> str:
        if not self.running:
            return f"<LocalCluster {self.endpoint} stopped>"
        n = len(self.workers)
        return f"<LocalCluster {self.endpoint} {n} worker{'' if n == 1 else 's'}>"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """A live widget of its workers in a kernel with ipywidgets; its repr elsewhere."""
        return display.mimebundle(self, repr(self), self.running)

    def __enter__(self) -> LocalCluster:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def _cores() -> int:
    """Cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def new_cluster(
    n_worker: int = 2,
    n_cpu: int = 1,
    memory: str | int | None = None,
    web_port: int | None = None,
    **kwargs: Any,
) -> LocalCluster:
    """Start a supervisor and ``n_worker`` workers of ``n_cpu`` cores on this machine."""
    return LocalCluster(n_worker=n_worker, n_cpu=n_cpu, memory=memory, web_port=web_port, **kwargs)
