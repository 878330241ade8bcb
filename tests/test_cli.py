"""mars-supervisor and mars-worker as programs: bad command lines exit 2 with one line."""

from __future__ import annotations

import socket

import pytest

from tests.cluster.processes import run_cli


@pytest.mark.parametrize(
    ("module", "args", "message"),
    [
        ("jupyter_mars.deploy.worker", ["-s", "127.0.0.1:7001", "--n-cpu", "0"], "--n-cpu"),
        ("jupyter_mars.deploy.worker", ["-s", "127.0.0.1:7001", "--phy-mem", "lots"], "--phy-mem"),
        ("jupyter_mars.deploy.worker", ["-s", "127.0.0.1"], "-s"),
        ("jupyter_mars.deploy.worker", ["--n-cpu", "1"], "-s/--supervisors"),
        ("jupyter_mars.deploy.supervisor", ["--bogus-flag"], "unrecognized arguments"),
        ("jupyter_mars.deploy.supervisor", ["-H", "no-such-host.invalid"], "-H"),
    ],
)
def test_bad_command_lines_exit_2_with_one_clear_line(module, args, message):
    out = run_cli(module, *args)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    error_lines = [line for line in out.stderr.splitlines() if "error:" in line]
    assert len(error_lines) == 1
    assert message in error_lines[0]


def test_a_port_in_use_is_refused():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        out = run_cli("jupyter_mars.deploy.supervisor", "-H", "127.0.0.1", "-p", str(port))
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert str(port) in out.stderr


def test_help_lists_the_mars_flags():
    out = run_cli("jupyter_mars.deploy.worker", "--help")
    assert out.returncode == 0
    for flag in (
        "--n-cpu",
        "--n-io-process",
        "--cuda-devices",
        "--phy-mem",
        "--cache-mem",
        "--min-mem",
        "--spill-dir",
        "--token",
        "-f",
    ):
        assert flag in out.stdout


def test_two_supervisors_started_as_the_mars_deploy_page_shows_need_a_shared_token(tmp_path):
    ports = []
    for _ in range(2):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            ports.append(probe.getsockname()[1])
    listed = ",".join(f"127.0.0.1:{port}" for port in ports)
    env = {"MARS_TOKEN": "", "JUPYTER_MARS_TOKEN_DIR": str(tmp_path)}
    for port in ports:
        out = run_cli(
            "jupyter_mars.deploy.supervisor",
            "-H",
            "127.0.0.1",
            "-p",
            str(port),
            "-s",
            listed,
            env=env,
        )
        assert out.returncode == 2
        assert out.stdout == ""  # never "started", never active
        assert out.stderr.splitlines() == [
            f"mars-supervisor: error: several supervisors (-s {listed}) need one shared token: "
            "give each the same one with --token, MARS_TOKEN or 'token' in the -f config file"
        ]
    assert list(tmp_path.iterdir()) == []  # no token of its own written
