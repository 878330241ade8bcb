"""``SSHCluster``: a supervisor here (or on a host of the list) and workers started over SSH
on a host list, in one step; ``mars-cluster up`` uses it too.

The supervisor runs detached, like the workers, so that a cluster outlives the process that
started it (``mars-cluster up`` exits; ``mars-cluster down ID`` stops it later). Each one is
recorded in the registry of this machine's clusters with what stopping it takes: hosts,
PIDs and directories. A supervisor on this machine listens only on the address that
routes to the hosts (loopback when they all are loopback), unless the host list's
``listen`` names another (``0.0.0.0``: every address; each host's workers then join it at
the address that routes to that host). Each host gets a directory of its own for the
token file (the user's only) and the logs, removed on ``stop()``.
"""

from __future__ import annotations

import itertools
import re
import shlex
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from jupyter_mars.launcher import display, registry
from jupyter_mars.launcher.adaptive_loop import Adaptive, Adapts
from jupyter_mars.launcher.command import (
    alive,
    make_workdir,
    start_worker,
    stop_workers,
    worker_args,
)
from jupyter_mars.launcher.handle import ClusterHandle
from jupyter_mars.launcher.hosts import Host, HostList, load_hosts, parse_hosts
from jupyter_mars.launcher.request import WorkerRequest, worker_request
from jupyter_mars.launcher.ssh import SSHConnection, Target
from jupyter_mars.remote import HttpClient
from jupyter_mars.remote.tokens import generate_token
from jupyter_mars.session import new_session

_WEB = re.compile(r"Mars Web started at (\S+)")
_RPC = re.compile(r"Mars Supervisor started at (\S+)")
_WORKER = re.compile(r"Mars Worker started at (\S+)")
LOG_TAIL_BYTES = 4000
"""Bytes of a remote log quoted in an error."""


class LocalShell:
    """This machine, with the interface of ``SSHConnection``: commands run by ``sh``."""

    label = "this machine"

    def connect(self) -> None:
        pass

    def run(
        self, command: str, *, stdin: bytes | None = None, timeout: float = 30.0
    ) -> tuple[int, str, str]:
        done = subprocess.run(
            ["sh", "-c", command],
            input=stdin,
            capture_output=True,
            timeout=timeout,
            check=False,
        )
        return done.returncode, done.stdout.decode(), done.stderr.decode()

    def write_file(self, path: str, data: bytes, mode: int = 0o600) -> None:
        target = Path(path)
        target.touch(mode=mode)
        target.chmod(mode)
        target.write_bytes(data)

    def read_file(self, path: str, max_bytes: int | None = None) -> bytes:
        data = Path(path).read_bytes()
        return data if max_bytes is None else data[-max_bytes:]

    def close(self) -> None:
        pass


WILDCARD_HOSTS = frozenset({"0.0.0.0", "::"})
"""Listen addresses that mean every address of the machine."""


def route_to(address: str) -> str:
    """The address of this machine that packets to ``address`` leave from (no packet is
    sent): where a worker on that host reaches a supervisor of this machine."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect((socket.gethostbyname(address), 9))
            return str(probe.getsockname()[0])
    except OSError as exc:
        raise ValueError(f"host {address}: no route from this machine to it ({exc})") from None


def listen_address(hosts: HostList) -> str:
    """Where a supervisor on this machine listens: the host list's ``listen``, else the
    one address of this machine that routes to every host, so that nothing outside the
    hosts' network can reach it. Hosts reached from different addresses need ``listen``."""
    if hosts.listen is not None:
        return hosts.listen
    routes: dict[str, list[str]] = {}
    for host in hosts.hosts:
        routes.setdefault(route_to(host.address), []).append(host.address)
    if len(routes) == 1:
        return next(iter(routes))
    via = "; ".join(f"{', '.join(names)} from {local}" for local, names in routes.items())
    raise ValueError(
        f"the hosts are reached from different addresses of this machine ({via}): name "
        "the one the supervisor listens on with 'listen:' in the host list (0.0.0.0: all)"
    )


class WorkerProcess:
    """A worker started on a host: where, its PID and its log's name."""

    def __init__(self, host: Host, pid: int, name: str) -> None:
        self.host, self.pid, self.name = host, pid, name


class SSHCluster(Adapts, ClusterHandle):
    """A cluster on a host list (a YAML file, a mapping or a list; see ``hosts.py``).

    ``start()`` returns once ``min_workers`` workers joined (all by default); ``.endpoint``,
    ``.dashboard_url`` and ``.session`` (the default session) are then set. ``scale(n)``,
    ``logs(host)``, ``stop()``; a context manager.

    The PyODPS-style keywords reshape the host list: ``worker_num`` workers in all, spread
    over the hosts in turn (the first hosts get one more when they do not divide evenly),
    in place of each host's ``workers``; ``worker_cpu`` and ``worker_mem`` (GiB without a
    unit) in place of every host's ``n_cpu`` and ``memory``; ``min_worker_num`` is what
    ``start()`` waits for when not given ``min_workers``.
    """

    def __init__(
        self,
        hosts: Any,
        *,
        known_hosts: str | None = None,
        accept_new_host_key: bool = False,
        web_port: int = 0,
        connect_timeout: float = 10.0,
        command_timeout: float = 30.0,
        allow_agent: bool = False,
        python: str = sys.executable,
        connect: bool = True,
        worker_num: int | None = None,
        worker_cpu: int | None = None,
        worker_mem: int | float | str | None = None,
        min_worker_num: int | None = None,
    ) -> None:
        listed: HostList = (
            hosts
            if isinstance(hosts, HostList)
            else load_hosts(hosts)
            if isinstance(hosts, (str, Path))
            else parse_hosts(hosts)
        )
        self.min_worker_num = min_worker_num
        """What ``start()`` waits for by default (None: every worker)."""
        if any(v is not None for v in (worker_num, worker_cpu, worker_mem, min_worker_num)):
            total = sum(h.workers for h in listed.hosts)
            request = worker_request(
                worker_num, worker_cpu, worker_mem, min_worker_num, default_workers=total
            )
            listed = reshape_hosts(listed, request, worker_num, worker_cpu, worker_mem)
            self.min_worker_num = request.min_worker_num
        self.hosts = listed
        self.known_hosts = known_hosts
        self.accept_new_host_key = accept_new_host_key
        self.web_port = web_port
        self.connect_timeout = connect_timeout
        self.command_timeout = command_timeout
        self.allow_agent = allow_agent
        """Whether keys held by an SSH agent may be used as well as the hosts' key files."""
        self.python = python
        """The Python that runs a supervisor on this machine."""
        self.connect = connect
        """Whether ``start()`` makes ``.session`` and the default session (no: for an
        owner that only runs the cluster, such as ``mars-cluster up``)."""
        self.id = uuid.uuid4().hex[:12]
        self.workdir = f"/tmp/jupyter_mars-{self.id}"
        """The cluster's directory on each host (and here): token file and logs."""
        self.token = generate_token()
        self.endpoint = ""
        self._rpc_port = ""
        """The supervisor's RPC port; each host reaches it at its own address of this one."""
        self.session: Any = None
        self.workers: list[WorkerProcess] = []
        self.adaptive: Adaptive | None = None
        """The adaptive loop while ``adapt`` is on (None: the size is the user's)."""
        self._supervisor_pid: int | None = None
        self._supervisor_shell: Any = None
        self._shells: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._recorded = False

    # ---- shells -------------------------------------------------------------------------

    def _shell(self, host: Host | None) -> Any:
        """The connection to ``host`` (None: this machine), made on first use."""
        key = "" if host is None else host.label
        with self._lock:
            shell = self._shells.get(key)
            if shell is None:
                if host is None:
                    shell = LocalShell()
                else:
                    shell = SSHConnection(
                        Target(host.address, host.port, host.user, host.key_file),
                        known_hosts=self.known_hosts,
                        accept_new_host_key=self.accept_new_host_key,
                        allow_agent=self.allow_agent,
                        connect_timeout=self.connect_timeout,
                    )
                self._shells[key] = shell
        shell.connect()
        return shell

    def _run(self, shell: Any, command: str, what: str, stdin: bytes | None = None) -> str:
        status, out, err = shell.run(command, stdin=stdin, timeout=self.command_timeout)
        if status != 0:
            where = getattr(shell, "label", None) or getattr(shell, "target", "")
            raise RuntimeError(f"{what} failed on {where} (exit {status}): {err.strip()}")
        return str(out)

    def _prepare(self, shell: Any) -> None:
        """The cluster's directory there, and the token in a file only the user reads."""
        self._run(shell, make_workdir(self.workdir), "creating the cluster directory")
        shell.write_file(f"{self.workdir}/token", self.token.encode(), 0o600)

    # ---- start --------------------------------------------------------------------------

    @property
    def dashboard_url(self) -> str:
        return self.endpoint.rstrip("/") + "/"

    def start(self, min_workers: int | None = None, timeout: float = 60.0) -> SSHCluster:
        wanted = sum(h.workers for h in self.hosts.hosts)
        if min_workers is None:
            min_workers = self.min_worker_num
        need = wanted if min_workers is None else min_workers
        if isinstance(need, bool) or not isinstance(need, int) or not 0 <= need <= wanted:
            raise ValueError(f"min_workers must be an int from 0 to {wanted}, got {min_workers!r}")
        deadline = time.monotonic() + timeout
        try:
            self._start_supervisor(deadline)
            with ThreadPoolExecutor(max_workers=min(16, len(self.hosts.hosts))) as pool:
                started = list(pool.map(self._start_host_workers, self.hosts.hosts))
            self.workers = [w for group in started for w in group]
            self._record()
            self._wait_for_workers(need, deadline)
            if self.connect:
                self.session = new_session(self.endpoint, token=self.token)
        except BaseException:
            self.stop()
            raise
        self.announce("started")
        return self

    def _start_supervisor(self, deadline: float) -> None:
        host = self.hosts.supervisor
        shell = self._shell(host)
        self._supervisor_shell = shell
        self._prepare(shell)
        python = self.python if host is None else host.python
        listen = self._listen()
        args = ["-m", "jupyter_mars.deploy.supervisor", "-H", listen]
        args += ["-p", "0", "-w", str(self.web_port)]
        supervisor_host = host or Host("localhost", python=python)
        out = self._run(
            shell,
            start_worker(supervisor_host, args, self.workdir, "supervisor"),
            "starting the supervisor",
        )
        self._supervisor_pid = int(out.split()[-1])
        log = f"{self.workdir}/supervisor.log"
        web = rpc = None
        while web is None or rpc is None:
            text = shell.read_file(log, 64_000).decode(errors="replace")
            web = web or _first(_WEB, text)
            rpc = rpc or _first(_RPC, text)
            if web is not None and rpc is not None:
                break
            if not self._run(shell, alive([self._supervisor_pid]), "checking the supervisor"):
                raise RuntimeError(f"the supervisor exited:\n{text[-LOG_TAIL_BYTES:]}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"the supervisor did not start in time:\n{text[-2000:]}")
            time.sleep(0.1)
        rpc_port = rpc.rsplit(":", 1)[1]
        web_port = web.rsplit(":", 1)[1]
        public = listen
        if listen in WILDCARD_HOSTS:
            public = "127.0.0.1" if host is None else host.address
        self.endpoint = f"http://{_bracketed(public)}:{web_port}"
        self._rpc_port = rpc_port

    def _supervisor_for(self, host: Host) -> str:
        """The supervisor's RPC address as ``host`` reaches it."""
        port = self._rpc_port
        listen = self._listen()
        if listen not in WILDCARD_HOSTS:
            return f"{_bracketed(listen)}:{port}"
        if self.hosts.supervisor is not None:
            return f"{self.hosts.supervisor.address}:{port}"
        return f"{route_to(host.address)}:{port}"

    def _listen(self) -> str:
        """The address the supervisor listens on (see ``listen_address``)."""
        if self.hosts.supervisor is None:
            return listen_address(self.hosts)
        return self.hosts.listen or self.hosts.supervisor.address

    def _start_host_workers(self, host: Host, count: int | None = None) -> list[WorkerProcess]:
        shell = self._shell(host)
        self._prepare(shell)
        started: list[WorkerProcess] = []
        with self._lock:
            # names of workers still running there are taken (retiring one leaves a gap)
            taken = {w.name for w in self.workers if w.host == host}
        numbers = (k for k in itertools.count() if f"worker-{k}" not in taken)
        for _ in range(host.workers if count is None else count):
            name = f"worker-{next(numbers)}"
            args = worker_args(host, self._supervisor_for(host), host.address)
            command = start_worker(host, args, self.workdir, name)
            out = self._run(shell, command, "starting a worker")
            started.append(WorkerProcess(host, int(out.split()[-1]), name))
        return started

    def _joined(self) -> int:
        http = HttpClient(self.endpoint, self.token, timeout=5)
        return len(http.json("GET", "/api/v1/cluster")["workers"])

    def _wait_for_workers(self, need: int, deadline: float) -> None:
        while True:
            joined = self._joined()
            if joined >= need:
                return
            dead = self._dead_workers()
            if dead and len(self.workers) - len(dead) < need:
                worker = dead[0]
                raise RuntimeError(
                    f"the worker {worker.name} on {worker.host.label} exited before joining; "
                    f"its log ends:\n{self._log_tail(worker)}"
                )
            if time.monotonic() > deadline:
                tails = "\n".join(
                    f"--- {w.host.label} {w.name}:\n{self._log_tail(w)}" for w in self.workers
                )
                raise TimeoutError(f"{joined} of {need} workers joined in time\n{tails}")
            time.sleep(0.2)

    def _dead_workers(self) -> list[WorkerProcess]:
        dead = []
        for host in {w.host.label: w.host for w in self.workers}.values():
            mine = [w for w in self.workers if w.host == host]
            out = self._run(self._shell(host), alive([w.pid for w in mine]), "checking workers")
            running = {int(p) for p in out.split()}
            dead += [w for w in mine if w.pid not in running]
        return dead

    def _log_tail(self, worker: WorkerProcess) -> str:
        try:
            path = f"{self.workdir}/{worker.name}.log"
            data: bytes = self._shell(worker.host).read_file(path, LOG_TAIL_BYTES)
            return data.decode(errors="replace")
        except (OSError, ConnectionError) as exc:
            return f"(its log cannot be read: {exc})"

    # ---- running ------------------------------------------------------------------------

    def scale(self, n: int) -> None:
        """Run ``n`` workers: more are started round-robin on the hosts, the newest ones
        stopped first. Turns adaptive scaling off."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"n must be a non-negative int, got {n!r}")
        self.stop_adapting()
        self.resize(n)

    def most_workers(self, minimum: int) -> int:
        """As many workers as the host list names (new ones go round-robin on the
        hosts)."""
        return sum(h.workers for h in self.hosts.hosts)

    def check_running(self) -> None:
        if self._supervisor_pid is None:
            raise RuntimeError("the cluster does not run: start() it first")

    @property
    def n_workers(self) -> int:
        return len(self.workers)

    def resize(self, n: int, retire: Sequence[str] = ()) -> None:
        """Run ``n`` workers, leaving adaptive scaling as it is: more are started
        round-robin, or the newest stopped; with ``retire`` (supervisor addresses), only
        workers named there, the first first (fewer, if too few are found: never another
        one)."""
        current = len(self.workers)
        if n > current:
            hosts = self.hosts.hosts
            for i in range(n - current):
                host = hosts[(current + i) % len(hosts)]
                self.workers += self._start_host_workers(host, 1)
            self._record()
            self._wait_for_workers(n, time.monotonic() + 60)
        elif n < current:
            if retire:
                mine = {self.address_of(w): w for w in self.workers}
                found = [mine[a] for a in dict.fromkeys(retire) if a in mine]
                leaving = found[: current - n]
            else:
                leaving = self.workers[n:]
            self.workers = [w for w in self.workers if w not in leaving]
            self._stop_processes(leaving, remove_dirs=False)
            self._record()

    def address_of(self, worker: WorkerProcess) -> str | None:
        """The address the worker last said it started at, from its log (a restart by its
        nanny changes it); None when it cannot be read."""
        log = f"{self.workdir}/{worker.name}.log"
        try:
            _, out, _ = self._shell(worker.host).run(
                f"grep -a 'Mars Worker started at' {shlex.quote(log)} | tail -n 1",
                timeout=self.command_timeout,
            )
        except (OSError, ConnectionError):
            return None
        return _first(_WORKER, out)

    def logs(self, host: str | Host) -> str:
        """The logs of the workers on ``host`` (its address), each headed by its name."""
        label = host.label if isinstance(host, Host) else host
        mine = [w for w in self.workers if label in (w.host.label, w.host.address)]
        if not mine:
            known = ", ".join(sorted({w.host.label for w in self.workers})) or "none"
            raise ValueError(f"no worker runs on {label!r}; hosts with workers: {known}")
        return "\n".join(f"--- {w.name} (pid {w.pid})\n{self._log_tail(w)}" for w in mine)

    # ---- stop ---------------------------------------------------------------------------

    def _stop_processes(self, workers: Sequence[WorkerProcess], remove_dirs: bool) -> list[str]:
        """Stop ``workers`` host by host; the hosts where some process survived."""
        failed = []
        for host in {w.host.label: w.host for w in workers}.values():
            pids = [w.pid for w in workers if w.host == host]
            try:
                status, _, _ = self._shell(host).run(
                    stop_workers(pids, self.workdir if remove_dirs else None),
                    timeout=self.command_timeout,
                )
            except (OSError, ConnectionError) as exc:
                failed.append(f"{host.label} ({exc})")
                continue
            if status != 0:
                failed.append(host.label)
        return failed

    def stop(self) -> None:
        """Stop every process this cluster started, check they are gone, and remove its
        directories and its record."""
        self.stop_adapting()
        if self.session is not None:
            self.session.close()
            self.session = None
        failed = self._stop_processes(self.workers, remove_dirs=True)
        stopped = {w.host.label for w in self.workers}
        self.workers = []
        for host in self.hosts.hosts:
            # hosts reached but with no worker known here (scaled to zero, or a start whose
            # answer was lost): what the pids file there records is stopped, then the
            # directory removed
            if host.label in self._shells and host.label not in stopped:
                try:
                    status, _, _ = self._shell(host).run(stop_workers([], self.workdir))
                except (OSError, ConnectionError):
                    continue  # never reached (a refused key, say): nothing was started
                if status != 0:
                    failed.append(host.label)
        if self._supervisor_pid is not None and self._supervisor_shell is not None:
            status, _, _ = self._supervisor_shell.run(
                stop_workers([self._supervisor_pid], self.workdir)
            )
            if status != 0:
                failed.append("the supervisor")
            self._supervisor_pid = None
        if self._recorded:
            registry.remove(self.id)
            self._recorded = False
        for shell in self._shells.values():
            shell.close()
        self._shells.clear()
        if failed:
            raise RuntimeError(f"processes survived stopping on: {', '.join(failed)}")

    def __repr__(self) -> str:
        if not self._recorded:
            return f"<SSHCluster {self.id} not running>"
        n = len(self.workers)
        return f"<SSHCluster {self.endpoint} {n} worker{'' if n == 1 else 's'}>"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """A live widget of its workers in a kernel with ipywidgets; its repr elsewhere."""
        return display.mimebundle(self, repr(self), self._recorded)

    def __enter__(self) -> SSHCluster:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # ---- the registry -------------------------------------------------------------------

    def _record(self) -> None:
        """Publish the cluster with what another process needs to stop it."""
        # the supervisor's life is the cluster's; one on another host is not watched here
        owner = 0 if self.hosts.supervisor is not None else self._supervisor_pid
        state = {
            "hosts": [asdict(h) for h in self.hosts.hosts],
            "supervisor_host": None
            if self.hosts.supervisor is None
            else asdict(self.hosts.supervisor),
            "listen": self.hosts.listen,
            "supervisor_pid": self._supervisor_pid,
            "workers": [[w.host.label, w.pid, w.name] for w in self.workers],
            "workdir": self.workdir,
            "known_hosts": self.known_hosts,
        }
        entry = registry.ClusterRecord(
            self.endpoint,
            "ssh",
            owner_pid=owner or 0,
            id=self.id,
            n_workers=len(self.workers),
            state=state,
        )
        registry.record(entry)
        self._recorded = True

    @classmethod
    def from_id(cls, cluster_id: str, **options: Any) -> SSHCluster:
        """The running cluster recorded under ``cluster_id`` on this machine."""
        entry = registry.find(cluster_id)
        if entry is None or entry.kind != "ssh":
            known = ", ".join(e.id for e in registry.entries() if e.kind == "ssh") or "none"
            raise LookupError(f"no SSH cluster {cluster_id!r} runs here; SSH clusters: {known}")
        return cls.attach(entry, **options)

    @classmethod
    def attach(cls, entry: registry.ClusterRecord, **options: Any) -> SSHCluster:
        """The cluster a registry record describes, to stop or scale it from another
        process (``mars-cluster down``)."""
        state = entry.state
        hosts = [Host(**_host_fields(h)) for h in state["hosts"]]
        supervisor = state.get("supervisor_host")
        chosen = None if supervisor is None else Host(**_host_fields(supervisor))
        cluster = cls(
            HostList(tuple(hosts), chosen, state.get("listen")),
            known_hosts=state.get("known_hosts"),
            **options,
        )
        cluster.id = entry.id
        cluster.workdir = state["workdir"]
        cluster.endpoint = entry.endpoint
        cluster._supervisor_pid = state.get("supervisor_pid")
        cluster._supervisor_shell = cluster._shell(
            None if supervisor is None else cluster.hosts.supervisor
        )
        by_label = {h.label: h for h in hosts}
        cluster.workers = [
            WorkerProcess(by_label[label], int(pid), name) for label, pid, name in state["workers"]
        ]
        cluster._recorded = True
        # the token as the supervisor's host keeps it for the cluster's processes
        token = cluster._supervisor_shell.read_file(f"{cluster.workdir}/token")
        cluster.token = token.decode().strip()
        if cluster.connect:
            cluster.session = new_session(cluster.endpoint, token=cluster.token)
        cluster.announce("attached")
        return cluster


def reshape_hosts(
    hosts: HostList,
    request: WorkerRequest,
    worker_num: int | None,
    worker_cpu: int | None,
    worker_mem: Any,
) -> HostList:
    """``hosts`` with what the request gives in place of the list's own values: only the
    keywords given (not None) replace anything."""
    reshaped = []
    count = len(hosts.hosts)
    for i, host in enumerate(hosts.hosts):
        changes: dict[str, Any] = {}
        if worker_num is not None:
            changes["workers"] = request.worker_num // count + (i < request.worker_num % count)
        if worker_cpu is not None:
            changes["n_cpu"] = request.worker_cpu
        if worker_mem is not None:
            changes["memory"] = str(request.worker_mem)
        reshaped.append(replace(host, **changes))
    return HostList(tuple(reshaped), hosts.supervisor, hosts.listen)


def _host_fields(raw: dict[str, Any]) -> dict[str, Any]:
    """A ``Host``'s fields from their JSON form (tuples came back as lists)."""
    fields = dict(raw)
    for key in ("spill_dirs", "cuda_devices"):
        if isinstance(fields.get(key), list):
            fields[key] = tuple(fields[key])
    return fields


def _bracketed(host: str) -> str:
    """``host`` as the host part of ``host:port`` (an IPv6 address goes in brackets)."""
    return f"[{host}]" if ":" in host else host


def _first(pattern: re.Pattern[str], text: str) -> str | None:
    match = pattern.search(text)
    return None if match is None else match.group(1)
