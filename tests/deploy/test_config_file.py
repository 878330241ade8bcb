"""The ``-f`` YAML file: every key, hyphens and aliases, and every way it can be wrong."""

from __future__ import annotations

import functools

import pytest

from jupyter_mars.deploy import parse_supervisor_args, parse_worker_args, run_cli
from jupyter_mars.deploy.config_file import load_config_file
from tests.deploy.conftest import GIB, MACHINE

MIB = 1024**2


def write(tmp_path, text, name="config.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_every_worker_key(tmp_path):
    spill = tmp_path / "spill"
    (tmp_path / "logging.conf").write_text("")
    path = write(
        tmp_path,
        f"""
host: 127.0.0.1
port: 0
advertise_address: 10.9.8.7
supervisors: [10.0.0.1:7001, "10.0.0.2:7002"]
log_level: DEBUG
log_format: "%(name)s %(message)s"
log_conf: {tmp_path / "logging.conf"}
use_uvloop: yes
token: from-file
n_cpu: 3
n_io_process: 2
cuda_devices: [1, 0]
phy_mem: 8g
cache_mem: 25%
min_mem: 64m
spill_dirs: [{spill}]
""",
    )
    config = parse_worker_args(["-f", str(path)], env={}, resources=MACHINE)
    assert config.host == "127.0.0.1"
    assert config.port == 0
    assert config.advertise_address == "10.9.8.7"
    assert config.supervisors == ["10.0.0.1:7001", "10.0.0.2:7002"]
    assert config.log_level == "debug"
    assert config.log_format == "%(name)s %(message)s"
    assert config.log_conf == str(tmp_path / "logging.conf")
    assert config.use_uvloop == "yes"  # YAML reads yes as True
    assert config.token == "from-file"
    assert (config.n_cpu, config.n_io_process, config.cuda_devices) == (3, 2, [1, 0])
    assert (config.phy_mem, config.cache_mem, config.min_mem) == (8 * GIB, 4 * GIB, 64 * MIB)
    assert config.spill_dirs == [str(spill)]
    assert spill.is_dir()


def test_every_supervisor_key(tmp_path):
    path = write(
        tmp_path,
        "host: 127.0.0.1\nport: 0\nweb_port: 0\nsupervisors: a:1,b:2\nuse_uvloop: false\n"
        "token: shared-by-a-and-b\n",
    )
    config = parse_supervisor_args(["--config-file", str(path)], env={})
    assert config.supervisors == ["a:1", "b:2"]
    assert config.token == "shared-by-a-and-b"
    assert config.use_uvloop == "no"
    assert config.config_file == str(path)


def test_hyphenated_keys_scalar_forms_and_the_spill_dir_alias(tmp_path):
    spill_a, spill_b = tmp_path / "a", tmp_path / "b"
    path = write(
        tmp_path,
        f"n-cpu: '2'\ncuda-devices: ''\nphy-mem: 0.5\nspill_dir: {spill_a}:{spill_b}\n"
        "supervisors: a:1\n",
    )
    config = parse_worker_args(["-f", str(path)], env={}, resources=MACHINE)
    assert config.n_cpu == 2
    assert config.cuda_devices == []
    assert config.phy_mem == 8 * GIB
    assert config.spill_dirs == [str(spill_a), str(spill_b)]


def test_an_empty_file_sets_nothing(tmp_path):
    path = write(tmp_path, "# nothing yet\n")
    assert load_config_file(str(path), ["port"]) == {}


def run_worker(capsys, *argv):
    parse = functools.partial(parse_worker_args, env={}, resources=MACHINE)
    status = run_cli(parse, ["-s", "a:1", *argv], lambda config: 0, prog="mars-worker")
    lines = capsys.readouterr().err.splitlines()
    assert status == 2
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("- 1\n- 2\n", "expected a mapping of option names, got a list"),
        ("just text\n", "expected a mapping of option names, got a str"),
        ("n_cpus: 4\n", "unknown key 'n_cpus' (valid keys: advertise_address, cache_mem"),
        ("web_port: 7005\n", "unknown key 'web_port'"),
        ("config_file: other.yaml\n", "unknown key 'config_file'"),
        ("spill_dir: /a\nspill_dirs: /b\n", "key 'spill_dirs' given twice"),
        ("n_cpu: 0\n", "key 'n_cpu': expected a number of cores >= 1, got 0"),
        ("phy_mem: [8g]\n", "key 'phy_mem': expected a size such as"),
        ("port: 70000\n", "key 'port': expected a port number 0-65535"),
        ("spill_dirs: {a: 1}\n", "key 'spill_dirs': expected directories separated by ':'"),
        ("cuda_devices: {a: 1}\n", "key 'cuda_devices': expected comma-separated CUDA"),
        ("use_uvloop: sometimes\n", "key 'use_uvloop': expected auto, yes or no"),
        ("n_cpu: [1\n", "invalid YAML at line 2, column 1"),
    ],
)
def test_bad_config_files(capsys, tmp_path, text, expected):
    path = write(tmp_path, text)
    line = run_worker(capsys, "-f", str(path))
    assert line.startswith(f"mars-worker: error: config file {path}: ")
    assert expected in line


def test_a_missing_config_file(capsys, tmp_path):
    line = run_worker(capsys, "-f", str(tmp_path / "absent.yaml"))
    assert line == (
        f"mars-worker: error: argument -f/--config-file: cannot read {tmp_path / 'absent.yaml'}: "
        "No such file or directory"
    )


def test_an_unreadable_config_file(capsys, tmp_path):
    # A directory cannot be read as a file, even by root (whom chmod 000 does not stop).
    line = run_worker(capsys, "-f", str(tmp_path))
    assert line.startswith(f"mars-worker: error: argument -f/--config-file: cannot read {tmp_path}")


def test_a_config_file_that_is_not_text(capsys, tmp_path):
    path = tmp_path / "binary.yaml"
    path.write_bytes(b"\xff\xfe\x00port: 1")
    line = run_worker(capsys, "-f", str(path))
    assert line.endswith("it is not UTF-8 text")


@pytest.mark.parametrize(
    "text",
    [
        'token: "s3cret-t0ken\n',  # unterminated quote
        "token: s3cret-t0ken\n  bad: indent\n",
        "token: s3cret-t0ken: x\n",
        "token: [s3cret-t0ken\n",
        "token: s3cret-t0ken\nn_cpu: zero\n",
        "token: s3cret t0ken\0\n",
    ],
)
def test_errors_in_a_file_holding_the_token_do_not_show_it(capsys, tmp_path, text):
    line = run_worker(capsys, "-f", str(write(tmp_path, text)))
    assert "s3cret" not in line
    assert "t0ken" not in line


def test_supervisors_from_the_file_are_checked_like_the_flag(capsys, tmp_path):
    path = write(tmp_path, "supervisors: [a:1, b]\n")
    parse = functools.partial(parse_worker_args, env={}, resources=MACHINE)
    assert run_cli(parse, ["-f", str(path)], lambda config: 0, prog="mars-worker") == 2
    assert capsys.readouterr().err == (
        f"mars-worker: error: config file {path}: key 'supervisors': "
        "expected host:port, got 'b' without a port\n"
    )
