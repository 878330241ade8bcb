"""Host lists: YAML files and Python lists, defaults filled in, the supervisor's host, and
errors that name the host and the field."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jupyter_mars.launcher.hosts import Host, load_hosts, parse_hosts

YAML = """
defaults:
  user: mars
  key_file: ~/.ssh/id_ed25519
  python: . /opt/env/bin/activate && python
  n_cpu: 4
  env: {OMP_NUM_THREADS: 1}
supervisor: 10.0.0.5
hosts:
  - 10.0.0.5
  - address: 10.0.0.6
    port: 2222
    n_cpu: 8
    memory: 16g
    spill_dirs: /data/spill
    cuda_devices: "0,1"
    workers: 2
"""


def test_a_yaml_file_with_defaults_and_a_supervisor(tmp_path: Path) -> None:
    path = tmp_path / "hosts.yml"
    path.write_text(YAML)
    hosts = load_hosts(path)
    first, second = hosts.hosts
    assert first == Host(
        "10.0.0.5",
        user="mars",
        key_file=str(Path("~/.ssh/id_ed25519").expanduser()),
        python=". /opt/env/bin/activate && python",
        n_cpu=4,
        env={"OMP_NUM_THREADS": "1"},
    )
    assert (second.port, second.n_cpu, second.memory, second.workers) == (2222, 8, "16g", 2)
    assert second.spill_dirs == ("/data/spill",)
    assert second.cuda_devices == (0, 1)
    assert second.label == "10.0.0.6:2222"
    assert hosts.supervisor is not None
    assert hosts.supervisor.address == "10.0.0.5"
    assert hosts.supervisor.workers == 0  # it runs the supervisor, not a worker of its own


def test_a_python_list_and_this_machine_as_supervisor() -> None:
    hosts = parse_hosts(["a.example", {"address": "b.example", "user": "me"}])
    assert [h.address for h in hosts.hosts] == ["a.example", "b.example"]
    assert hosts.hosts[0].user is None
    assert hosts.supervisor is None


def test_listen_names_the_supervisors_address_and_is_checked() -> None:
    assert parse_hosts(["a.example"]).listen is None
    assert parse_hosts({"hosts": ["a.example"], "listen": " 0.0.0.0 "}).listen == "0.0.0.0"
    assert parse_hosts({"hosts": ["a.example"], "listen": "[::1]"}).listen == "::1"
    with pytest.raises(ValueError, match="listen: expected a host name or IP address, got 7"):
        parse_hosts({"hosts": ["a.example"], "listen": 7})


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ([], "'hosts' must be a non-empty list"),
        ({"hosts": ["a"], "other": 1}, "unknown key(s) other"),
        (["a", "a"], "host(s) a listed twice"),
        ([{"n_cpu": 2}], "host 0: 'address' is missing"),
        ([{"address": "a", "cpus": 2}], "host 0: unknown field(s) cpus"),
        (["a", {"address": "b", "n_cpu": 0}], "host 1 (b): n_cpu: expected at least 1"),
        ([{"address": "a", "port": 70000}], "host 0 (a): port: expected a port 1-65535"),
        ([{"address": "a", "memory": "lots"}], "host 0 (a): memory:"),
        ([{"address": "a", "env": ["x"]}], "host 0 (a): env: expected a mapping"),
        ([{"address": "a b"}], "expected a host name or IP address"),
        (42, "a host list must be a list of hosts"),
    ],
)
def test_mistakes_name_the_host_and_the_field(raw: object, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_hosts(raw)


def test_a_missing_or_broken_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot read the host list"):
        load_hosts(tmp_path / "missing.yml")
    broken = tmp_path / "broken.yml"
    broken.write_text("hosts: [a, b\n")
    with pytest.raises(ValueError, match="is invalid YAML at line 2, column 1: expected"):
        load_hosts(broken)
