"""The Ray actor that keeps one of this project's servers (a supervisor or a worker).

Each actor runs the real command-line program (``python -m jupyter_mars.deploy.supervisor``
or ``...deploy.worker --no-nanny``) as its child process, listening on the actor's node
address, rather than the server in a thread of the actor:

- resources are accounted as Ray reserved them: ``--n-cpu`` task slots and a ``--phy-mem``
  store, measured against the server's own process, not the Ray worker process around it
  (whose core worker threads and object store client would count too);
- the servers run as everywhere else (their own event loop in a main thread, stopped by
  SIGTERM, crash reports, lingering threads forcing an exit) and stop cleanly: ``stop()``
  sends SIGTERM and waits, and an actor killed outright (``ray.kill``) takes its child
  with it: Ray kills a dead worker process's children on Linux, and the child also
  watches a pipe whose other end only the actor holds (``deploy/nanny.py``:
  ``exit_with_nanny``), so it ends whatever Ray's settings.

A server that dies after it started takes its actor with it: Ray then restarts a worker's
actor (a new worker joins the supervisor), and reports a supervisor's actor dead.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from collections import deque
from typing import Any

import ray

from jupyter_mars.deploy.nanny import NANNY_FD_ENV, child_environment

START_LINES = {
    "supervisor": {
        "rpc": re.compile(r"Mars Supervisor started at (\S+)"),
        "web": re.compile(r"Mars Web started at (\S+)"),
    },
    "worker": {"rpc": re.compile(r"Mars Worker started at (\S+)")},
}
"""What each program prints once it serves, and the address each line gives."""

STOP_GRACE = 10.0


class ServerKeeper:
    """Runs ``program`` (``supervisor`` or ``worker``) with ``flags`` on this actor's node;
    the cluster token reaches it through the environment, never its command line.

    The supervisor's actor also keeps the cluster's record (``remember``/``recall``), so
    that another driver can find the cluster's workers by the supervisor's name."""

    def __init__(self, program: str, flags: list[str], token: str) -> None:
        if program not in START_LINES:
            raise ValueError(f"program must be one of {sorted(START_LINES)}, got {program!r}")
        self.program = program
        self.node_ip: str = ray.util.get_node_ip_address()
        self.node_id = ray.get_runtime_context().get_node_id()
        argv = [sys.executable, "-m", f"jupyter_mars.deploy.{program}", "-H", self.node_ip]
        argv += [*flags, "--no-nanny"] if program == "worker" else flags
        watched, self._keeper_end = os.pipe()
        env = child_environment(
            {**os.environ, "MARS_TOKEN": token, "PYTHONUNBUFFERED": "1", NANNY_FD_ENV: str(watched)}
        )
        self.popen = subprocess.Popen(
            argv,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            pass_fds=(watched,),
        )
        os.close(watched)  # the child's end: only the child holds it now
        self.lines: deque[str] = deque(maxlen=200)
        self.addresses: dict[str, str] = {}
        self.record: dict[str, Any] = {}
        self._stopping = False
        self._seen = threading.Condition()
        threading.Thread(target=self._pump, name="mars-server-output", daemon=True).start()

    def _pump(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            print(line, end="", flush=True)  # into the actor's log (``ray logs``)
            with self._seen:
                self.lines.append(line.rstrip("\n"))
                for name, pattern in START_LINES[self.program].items():
                    match = pattern.search(line)
                    if match:
                        self.addresses[name] = match.group(1)
                self._seen.notify_all()
        status = self.popen.wait()
        with self._seen:
            self._seen.notify_all()
            served = self._served()
        if served and not self._stopping:
            # a server that died under its actor: end the actor, so that Ray sees it gone
            # (and restarts a worker's actor, which starts a new worker)
            print(f"the {self.program} exited with status {status}: ending its actor", flush=True)
            os._exit(1)

    def _served(self) -> bool:
        return len(self.addresses) == len(START_LINES[self.program])

    def started(self, timeout: float) -> dict[str, Any]:
        """Once the server serves: its addresses, process id and node; raises
        ``RuntimeError`` (with its last lines) if it exits first, ``TimeoutError`` if it
        does not serve within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        with self._seen:
            while not self._served():
                if self.popen.poll() is not None:
                    raise RuntimeError(
                        f"the {self.program} exited with status {self.popen.returncode}:\n"
                        + "\n".join(list(self.lines)[-20:])
                    )
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(
                        f"the {self.program} did not start within {timeout} s:\n"
                        + "\n".join(list(self.lines)[-20:])
                    )
                self._seen.wait(min(remaining, 0.5))
            return self.describe()

    def describe(self) -> dict[str, Any]:
        return {
            "addresses": dict(self.addresses),
            "pid": self.popen.pid,
            "node_ip": self.node_ip,
            "node_id": self.node_id,
        }

    def stop(self, grace: float = STOP_GRACE) -> int:
        """Stop the server (SIGTERM, then SIGKILL after ``grace`` seconds); its status."""
        self._stopping = True
        if self.popen.poll() is None:
            self.popen.terminate()
            try:
                self.popen.wait(grace)
            except subprocess.TimeoutExpired:
                self.popen.kill()
        return self.popen.wait()

    def remember(self, record: dict[str, Any]) -> None:
        """Keep the cluster's record (its endpoint, token and worker actors' names)."""
        self.record = dict(record)

    def recall(self) -> dict[str, Any]:
        return dict(self.record)
