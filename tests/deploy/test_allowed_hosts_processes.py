"""A real supervisor and a real ``mars-web`` in front of it answer to the names they were
given with ``--allowed-hosts`` (and ``MARS_WEB_ALLOWED_HOSTS``), as a Kubernetes Service or
an Ingress would send them in ``Host``, and still refuse any other name."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator

import pytest

from jupyter_mars.launcher.local import _Process
from tests.cluster.processes import WEB, CliCluster, cli_cluster, free_port
from tests.deploy.old_cluster import start

SUPERVISOR_NAMES = "mars-supervisor.default.svc,.example.test"


@pytest.fixture(scope="module")
def supervisor() -> Iterator[CliCluster]:
    with cli_cluster(0, supervisor_args=("--allowed-hosts", SUPERVISOR_NAMES)) as cluster:
        yield cluster


@pytest.fixture(scope="module")
def web(supervisor: CliCluster) -> Iterator[str]:
    env = {**supervisor.env, "MARS_WEB_ALLOWED_HOSTS": "mars-web.default.svc"}
    argv = ["-a", "127.0.0.1", "-p", str(free_port()), "-s", supervisor.rpc]
    process: _Process = start("web", WEB, env, *argv, "--allowed-hosts", ".web.example.test")
    try:
        yield process.wait_for(WEB, 1)
    finally:
        process.stop()


def get(address: str, host: str, token: str) -> tuple[int, bytes]:
    """``GET /api/v1/cluster`` sent to ``address`` (on 127.0.0.1) with ``Host: host``."""
    conn = http.client.HTTPConnection(address, timeout=15)
    try:
        conn.request(
            "GET", "/api/v1/cluster", headers={"Host": host, "Authorization": f"token {token}"}
        )
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def test_the_supervisor_answers_to_its_allowed_names(supervisor: CliCluster) -> None:
    port = supervisor.web.rsplit(":", 1)[1]
    for host in (f"mars-supervisor.default.svc:{port}", "a.example.test", "example.test"):
        status, body = get(supervisor.web, host, supervisor.token)
        assert status == 200, (host, body)
        assert json.loads(body)["address"] == supervisor.rpc


@pytest.mark.parametrize(
    "host", ["evil.example", "mars-supervisor", "mars-supervisor.default.svc.evil.example"]
)
def test_the_supervisor_still_refuses_other_names(supervisor: CliCluster, host: str) -> None:
    status, body = get(supervisor.web, host, supervisor.token)
    assert status == 403
    assert b"the Host header does not name this machine" in body


def test_the_web_process_answers_to_its_flag_and_environment_names(
    supervisor: CliCluster, web: str
) -> None:
    port = web.rsplit(":", 1)[1]
    for host in (f"mars-web.default.svc:{port}", "a.web.example.test"):
        status, body = get(web, host, supervisor.token)
        assert status == 200, (host, body)
        assert json.loads(body)["address"] == supervisor.rpc


@pytest.mark.parametrize("host", ["evil.example", "a.example.test", "mars-web"])
def test_the_web_process_refuses_other_names(supervisor: CliCluster, web: str, host: str) -> None:
    # a.example.test is the supervisor's name, not the web process's own
    status, body = get(web, host, supervisor.token)
    assert status == 403
    assert b"the Host header does not name this machine" in body
