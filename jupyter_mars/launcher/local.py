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
import warnings
from collections import deque
from collections.abc import Sequence
from typing import Any

import psutil

from jupyter_mars.launcher import display, registry
from jupyter_mars.launcher.adaptive_loop import Adaptive, Adapts
from jupyter_mars.launcher.attached import AttachedLocalCluster, process_identity
from jupyter_mars.launcher.handle import ClusterHandle
from jupyter_mars.launcher.reattach import attach
from jupyter_mars.launcher.request import overcommitted, worker_request
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


class LocalCluster(Adapts, ClusterHandle):
    """A running local cluster; ``.session`` is connected to it and made the default
    (``connect=False``: no session, for an owner that only runs the cluster).

    ``worker_num`` workers (``n_worker``) of ``worker_cpu`` task slots (``n_cpu``) and
    ``worker_mem`` memory each (``memory``: a number without a unit is GiB, see
    ``request.py``); it returns once ``min_worker_num`` of them joined (default: all), the
    others joining meanwhile. A worker of more cores than this machine has, or workers
    asking more memory together than it has, are started with a one-line warning: they
    share what there is. One worker asking more memory than there is is a ``ValueError``.

    ``web_base_path`` serves its web service under that path (behind a proxy); ``kind`` is
    what the registry of this machine's clusters records it as (``server`` when a Jupyter
    server owns it). ``nanny=False`` starts the workers without their nanny: the
    processes in ``workers`` are then the workers themselves, and a worker that dies stays
    dead."""

    def __init__(
        self,
        n_worker: int | None = None,
        n_cpu: int | None = None,
        memory: str | int | float | None = None,
        web_port: int | None = None,
        timeout: float = 60.0,
        spill_dirs: list[str] | None = None,
        cache_mem: str | int | None = None,
        web_base_path: str = "/",
        kind: str = "local",
        connect: bool = True,
        nanny: bool = True,
        *,
        worker_num: int | None = None,
        worker_cpu: int | None = None,
        worker_mem: str | int | float | None = None,
        min_worker_num: int | None = None,
    ) -> None:
        request = worker_request(
            worker_num,
            worker_cpu,
            worker_mem,
            min_worker_num,
            n_worker=n_worker,
            n_cpu=n_cpu,
            memory=memory,
        )
        for note in overcommitted(request, _cores(), psutil.virtual_memory().total):
            warnings.warn(note, stacklevel=3)
        n_worker, n_cpu, memory = request.worker_num, request.worker_cpu, request.worker_mem
        self.kind = kind
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
            self._wait_for_workers(request.min_worker_num, timeout)
            if connect:
                self.session = new_session(self.endpoint, token=self.token)
            self.id = registry.ClusterRecord(self.endpoint, kind).id
            self._record()
        except BaseException:
            self.stop()
            raise
        self.announce("started")

    def _record(self) -> None:
        """Publish it, with its processes, so that another process can re-attach to it and
        stop it (``from_id``); what others added to its record (the Jupyter server's
        dashboard path) is kept."""
        assert self.id is not None
        processes = {
            "supervisor": process_identity(self.supervisor.popen.pid),
            "workers": [process_identity(w.popen.pid) for w in self.workers],
        }
        entry = registry.find(self.id) or registry.ClusterRecord(
            self.endpoint, self.kind, id=self.id
        )
        state = {**entry.state, "processes": processes}
        registry.record(dataclasses.replace(entry, n_workers=len(self.workers), state=state))

    @classmethod
    def from_id(cls, cluster_id: str, connect: bool = True) -> AttachedLocalCluster:
        """The local cluster recorded under ``cluster_id`` on this machine, started by
        this process or another one: a handle with a session (``connect``) that can stop
        it (``stop_server()``)."""
        return AttachedLocalCluster.from_id(cluster_id, connect=connect)

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
        if self.id is not None and registry.find(self.id) is not None:
            self._record()

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
        try:
            joined = self.joined_workers
        except (ConnectionError, OSError, RuntimeError):
            joined = n  # the supervisor does not answer: say what was started
        count = f"{n} worker{'' if n == 1 else 's'}"
        if joined != n:
            count = f"{joined} of {count} joined"
        return f"<LocalCluster {self.endpoint} {count}>"

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
    worker_num: int | None = None,
    worker_cpu: int | None = None,
    worker_mem: str | int | float | None = None,
    web_port: int | None = None,
    *,
    min_worker_num: int | None = None,
    instance_id: str | None = None,
    n_worker: int | None = None,
    n_cpu: int | None = None,
    memory: str | int | float | None = None,
    **kwargs: Any,
) -> Any:
    """Start a supervisor and ``worker_num`` workers of ``worker_cpu`` cores and
    ``worker_mem`` memory (GiB without a unit) on this machine, returning once
    ``min_worker_num`` joined; ``n_worker``, ``n_cpu`` and ``memory`` are older names of the
    same. With ``instance_id`` alone: the running cluster of that id instead (``attach``),
    started by this process or another one."""
    if instance_id is not None:
        given = [
            name
            for name, value in {
                "worker_num": worker_num,
                "worker_cpu": worker_cpu,
                "worker_mem": worker_mem,
                "web_port": web_port,
                "min_worker_num": min_worker_num,
                "n_worker": n_worker,
                "n_cpu": n_cpu,
                "memory": memory,
                **kwargs,
            }.items()
            if value is not None
        ]
        if given:
            raise TypeError(
                f"instance_id re-attaches to a running cluster; {', '.join(given)} cannot change it"
            )
        return attach(instance_id)
    return LocalCluster(
        n_worker=n_worker,
        n_cpu=n_cpu,
        memory=memory,
        web_port=web_port,
        worker_num=worker_num,
        worker_cpu=worker_cpu,
        worker_mem=worker_mem,
        min_worker_num=min_worker_num,
        **kwargs,
    )
