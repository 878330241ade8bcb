"""The host list through the API: stored when valid, refused with a 400 naming the
problem otherwise, and what an SSH-configured server does without one."""

from __future__ import annotations

import getpass
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import tornado.httpclient
import yaml

from jupyter_mars.launcher import registry
from tests.launcher.sshd import SshServer
from tests.server.conftest import get_json, gone, wait_for_state

VALID_HOSTS = "defaults: {n_cpu: 2}\nhosts:\n  - 10.0.0.5\n  - {address: 10.0.0.6, workers: 2}\n"


@pytest.fixture
def host_list_path(tmp_path: Path) -> Path:
    return tmp_path / "lists" / "hosts.yaml"


@pytest.fixture
def mars_config(host_list_path: Path, tmp_path: Path) -> dict[str, Any]:
    known_hosts = tmp_path / "known_hosts"
    return {
        "host_list": str(host_list_path),
        "known_hosts": str(known_hosts),
        "start_timeout": 30.0,
    }


async def test_host_list_put_then_get_returns_it(jp_fetch, host_list_path):
    empty = await get_json(jp_fetch, "mars", "api", "hostlist")
    assert empty == {"path": str(host_list_path), "configured": True, "text": ""}
    saved = await get_json(jp_fetch, "mars", "api", "hostlist", method="PUT", body=VALID_HOSTS)
    assert saved["text"] == VALID_HOSTS
    assert (await get_json(jp_fetch, "mars", "api", "hostlist"))["text"] == VALID_HOSTS
    assert host_list_path.read_text() == VALID_HOSTS
    assert host_list_path.stat().st_mode & 0o077 == 0
    as_json = json.dumps({"text": "- 10.0.0.7\n"})
    headers = {"Content-Type": "application/json"}
    await jp_fetch("mars", "api", "hostlist", method="PUT", body=as_json, headers=headers)
    assert (await get_json(jp_fetch, "mars", "api", "hostlist"))["text"] == "- 10.0.0.7\n"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("hosts: [10.0.0.5, {address: 10.0.0.6, n_cpu: many}]", "host 1 (10.0.0.6): n_cpu"),
        ("hosts: [{port: 22}]", "host 0: 'address' is missing"),
        ("hosts: [a, a]", "listed twice"),
        ("hosts: [a\n  - b", "invalid YAML at line 2, column 6: expected ',' or ']'"),
        ("servers: [a]", "unknown key(s) servers"),
    ],
)
async def test_invalid_host_list_is_a_400_naming_the_problem(
    jp_fetch, host_list_path, text, problem
):
    with pytest.raises(tornado.httpclient.HTTPClientError) as refused:
        await jp_fetch("mars", "api", "hostlist", method="PUT", body=text)
    assert refused.value.code == 400
    assert problem in json.loads(refused.value.response.body)["message"]
    assert not host_list_path.exists()


async def test_ssh_start_without_the_file_fails_and_says_why(jp_fetch, host_list_path):
    body = json.dumps({"n_cpu": 2})
    with pytest.raises(tornado.httpclient.HTTPClientError) as refused:
        await jp_fetch("mars", "api", "cluster", "start", method="POST", body=body)
    assert refused.value.code == 400
    assert "per host in the host list" in json.loads(refused.value.response.body)["message"]
    await jp_fetch("mars", "api", "cluster", "start", method="POST", body="")
    with pytest.raises(AssertionError, match="cannot read the host list"):
        await wait_for_state(jp_fetch, "running")
    status = await get_json(jp_fetch, "mars", "api", "cluster")
    assert status["state"] == "failed"
    stopped = await get_json(jp_fetch, "mars", "api", "cluster", "stop", method="POST", body="")
    assert (stopped["state"], stopped["error"]) == ("stopped", None)


@pytest.fixture
def ssh_server(tmp_path: Path) -> Iterator[SshServer]:
    """A real sshd on loopback (skipped where sshd is not installed)."""
    with SshServer(tmp_path / "sshd") as server:
        yield server


async def test_an_ssh_cluster_starts_on_the_host_list_put_through_the_api(
    jp_fetch, manager, mars_config, ssh_server
):
    Path(mars_config["known_hosts"]).write_text(ssh_server.known_hosts.read_text())
    host = {
        "address": ssh_server.host,
        "port": ssh_server.port,
        "user": getpass.getuser(),
        "key_file": str(ssh_server.client_key),
        "python": sys.executable,
        "n_cpu": 1,
    }
    text = yaml.safe_dump({"hosts": [host]})
    await jp_fetch("mars", "api", "hostlist", method="PUT", body=text)
    await jp_fetch("mars", "api", "cluster", "start", method="POST", body="")
    status = await wait_for_state(jp_fetch, "running", n_workers=1)
    assert status["kind"] == "ssh"
    kinds = {e.kind: e.endpoint for e in registry.entries()}
    assert kinds == {"server": status["endpoint"], "ssh": status["endpoint"]}
    assert registry.published().kind == "server"
    assert registry.published().jupyter_dashboard == "/jupyter/mars/dashboard/"

    page = await jp_fetch("mars", "dashboard/")  # the supervisor serves under '/'
    assert "jupyter_mars" in page.body.decode()
    model = await get_json(jp_fetch, "mars", "dashboard", "api", "v1", "cluster")
    assert model["web_base_path"] == "/"
    body = json.dumps({"n": 2})
    scaled = await get_json(jp_fetch, "mars", "api", "cluster", "scale", method="POST", body=body)
    assert scaled["n_workers"] == 2
    assert registry.published().n_workers == 2

    workers = [w.pid for w in manager.cluster.cluster.workers]
    stopped = await get_json(jp_fetch, "mars", "api", "cluster", "stop", method="POST", body="")
    assert stopped["state"] == "stopped"
    assert gone(workers)
    assert registry.entries() == []
