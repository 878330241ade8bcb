"""Pods as local processes: the Kubernetes entry points started with the environment a pod
would give them (the pod IP ``127.0.0.1``, free ports on loopback in place of the pods'
fixed ones), for the tests of this folder."""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from jupyter_mars.launcher.local import _Process
from jupyter_mars.remote import HttpClient
from tests.cluster.processes import WEB, WORKER, free_port, wait_until


class Pods:
    """A supervisor pod and the worker pods started against it."""

    def __init__(self, supervisor: _Process, token: str, rpc_port: int, web_port: int) -> None:
        self.supervisor = supervisor
        self.token = token
        self.rpc = f"127.0.0.1:{rpc_port}"
        """The supervisor's RPC address, as its Service would name it."""
        self.url = f"http://127.0.0.1:{web_port}"
        self.workers: list[_Process] = []

    def pod_env(self, **variables: str) -> dict[str, str]:
        """What every pod of this cluster gets: its IP and the token from the Secret."""
        return {
            **os.environ,
            "MARS_CONTAINER_IP": "127.0.0.1",
            "MARS_TOKEN": self.token,
            "PYTHONUNBUFFERED": "1",
            **variables,
        }

    def start_worker(self, variables: Mapping[str, str]) -> _Process:
        """``python -m jupyter_mars.deploy.kubernetes.worker`` with a pod's environment
        plus ``variables``, once it says it started."""
        env = self.pod_env(**{"MARS_BIND_PORT": str(free_port()), **variables})
        worker = _Process([sys.executable, "-m", "jupyter_mars.deploy.kubernetes.worker"], env)
        self.workers.append(worker)
        worker.wait_for(WORKER, 60)
        return worker

    def http(self) -> HttpClient:
        return HttpClient(self.url, self.token, timeout=10)

    def workers_model(self, n: int) -> list[dict[str, Any]]:
        """The cluster's workers once ``n`` have joined, as its HTTP API lists them."""
        found: list[dict[str, Any]] = []

        def joined() -> bool:
            found[:] = self.http().json("GET", "/api/v1/workers")
            return len(found) >= n

        assert wait_until(joined, 30), f"{len(found)} of {n} workers joined"
        return found

    def stop(self) -> None:
        for process in [*self.workers, self.supervisor]:
            process.stop()


@contextmanager
def supervisor_pod(module: str = "supervisor") -> Iterator[Pods]:
    """``python -m jupyter_mars.deploy.kubernetes.<module>`` with a pod's environment."""
    token = secrets.token_urlsafe(16)
    rpc_port, web_port = free_port(), free_port()
    env = {
        **os.environ,
        "MARS_CONTAINER_IP": "127.0.0.1",
        "MARS_TOKEN": token,
        "MARS_BIND_PORT": str(rpc_port),
        "MARS_WEB_PORT": str(web_port),
        "MARS_K8S_POD_NAME": "mars-supervisor-0",
        "MARS_K8S_POD_NAMESPACE": "default",
        "PYTHONUNBUFFERED": "1",
    }
    argv = [sys.executable, "-m", f"jupyter_mars.deploy.kubernetes.{module}"]
    pods = Pods(_Process(argv, env), token, rpc_port, web_port)
    try:
        pods.supervisor.wait_for(WEB, 60)
        yield pods
    finally:
        pods.stop()
