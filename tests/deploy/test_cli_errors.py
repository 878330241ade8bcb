"""Every bad value ends the program with status 2 and one line on stderr naming the flag."""

from __future__ import annotations

import functools

import pytest

from jupyter_mars.deploy import (
    HostResources,
    UsageError,
    parse_supervisor_args,
    parse_worker_args,
    run_cli,
)
from tests.deploy.conftest import GIB, MACHINE

SECRET = "s3cret-t0ken"


def run_worker(capsys, *argv, resources=MACHINE):
    """Run ``mars-worker argv`` to the end; (status, stderr lines)."""
    parse = functools.partial(parse_worker_args, env={}, resources=resources)
    status = run_cli(parse, list(argv), lambda config: 0, prog="mars-worker")
    return status, capsys.readouterr().err.splitlines()


def assert_one_line_error(status, lines, expected):
    assert status == 2
    assert len(lines) == 1, lines
    assert lines[0].startswith("mars-worker: error: ")
    assert expected in lines[0]
    assert "Traceback" not in lines[0]


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--phy-mem", "lots"], "argument --phy-mem: expected a size such as"),
        (["--cache-mem=-5g"], "argument --cache-mem: expected a size"),
        (["--min-mem", "1x"], "argument --min-mem: expected a size"),
        (["--phy-mem", "0"], "argument --phy-mem: expected a size of at least 1B"),
        (["--n-cpu", "0"], "argument --n-cpu: expected a number of cores >= 1, got '0'"),
        (["--n-cpu", "-2"], "argument --n-cpu: expected a number of cores >= 1"),
        (["--n-cpu", "two"], "argument --n-cpu: expected a number of cores"),
        (["--n-io-process", "0"], "argument --n-io-process: expected a number of processes >= 1"),
        (["--cuda-devices", "0,x"], "argument --cuda-devices: expected CUDA device indices"),
        (["--cuda-devices", "1,1"], "argument --cuda-devices: expected distinct"),
        (
            ["--phy-mem", "4g", "--cache-mem", "8g"],
            "argument --cache-mem: expected at most --phy-mem (4GiB), got 8GiB",
        ),
        (["--min-mem", "12g"], "argument --min-mem: expected at most the free memory (10GiB)"),
        (["-p", "65536"], "argument -p/--port: expected a port number 0-65535"),
        (["-p", "-1"], "argument -p/--port: expected a port number"),
        (["-p", "http"], "argument -p/--port: expected a port number"),
        (
            ["-H", "no-such-host.invalid"],
            "argument -H/--host: expected a host name or IP address that resolves",
        ),
        (
            ["-H", "192.0.2.1", "-p", "7001"],
            "argument -H/--host: expected an address of this machine, got '192.0.2.1'",
        ),
        (["--log-level", "loud"], "argument --log-level: expected one of debug, info, warning"),
        (["--log-format", "%(levelname)"], "argument --log-format: expected a logging format"),
        (["--use-uvloop", "maybe"], "argument --use-uvloop: expected auto, yes or no"),
        (["--token", "two words"], "argument --token: expected a non-empty token"),
        (["--token", ""], "argument --token: expected a non-empty token"),
        (["--log-conf", "/no/such/logging.conf"], "argument --log-conf: expected an existing file"),
        (["-a", ""], "argument -a/--advertise-address: expected a host name"),
    ],
)
def test_bad_worker_values(capsys, argv, expected):
    status, lines = run_worker(capsys, "-s", "10.0.0.1:7001", *argv)
    assert_one_line_error(status, lines, expected)


@pytest.mark.parametrize(
    ("supervisors", "expected"),
    [
        ("10.0.0.1", "expected host:port, got '10.0.0.1' without a port"),
        ("10.0.0.1:", "expected host:port with a port 1-65535, got '10.0.0.1:'"),
        ("10.0.0.1:http", "with a port 1-65535, got '10.0.0.1:http'"),
        ("10.0.0.1:0", "with a port 1-65535, got '10.0.0.1:0'"),
        ("10.0.0.1:70000", "with a port 1-65535"),
        (":7001", "without a port"),
        ("a:1,b", "got 'b' without a port"),
        ("::1:7001", "IPv6 host in brackets"),
        (",", "expected at least one host:port"),
    ],
)
def test_malformed_supervisor_addresses(capsys, supervisors, expected):
    status, lines = run_worker(capsys, "-s", supervisors)
    assert_one_line_error(status, lines, expected)
    assert lines[0].startswith("mars-worker: error: argument -s/--supervisors: expected ")


def test_a_worker_needs_supervisors(capsys):
    status, lines = run_worker(capsys, "--n-cpu", "2")
    assert status == 2
    assert lines[0].startswith("usage: mars-worker")
    assert lines[-1] == (
        "mars-worker: error: the following arguments are required: -s/--supervisors "
        "(or 'supervisors' in the config file)"
    )


def test_a_port_in_use_is_refused(capsys, listening_port):
    status, lines = run_worker(capsys, "-s", "a:1", "-H", "127.0.0.1", "-p", str(listening_port))
    assert_one_line_error(
        status,
        lines,
        f"argument -p/--port: expected a free port, but port {listening_port} on 127.0.0.1 "
        "is already in use",
    )


def test_supervisor_web_port_in_use_or_equal_to_port(capsys, listening_port):
    argv = ["-H", "127.0.0.1", "-w", str(listening_port)]
    assert run_cli(parse_supervisor_args, argv, lambda config: 0) == 2
    err = capsys.readouterr().err
    assert err == (
        f"mars-supervisor: error: argument -w/--web-port: expected a free port, but port "
        f"{listening_port} on 127.0.0.1 is already in use\n"
    )
    assert run_cli(parse_supervisor_args, ["-p", "7001", "-w", "7001"], lambda config: 0) == 2
    err = capsys.readouterr().err
    assert (
        err == "mars-supervisor: error: argument -w/--web-port: expected a port other than -p's\n"
    )


SHARED_TOKEN_HELP = "give each the same one with --token, MARS_TOKEN or 'token' in the -f"


@pytest.mark.parametrize(
    "supervisors",
    [
        "192.168.1.10:7001,192.168.1.11:7002",  # the two supervisors of Mars's deploy page
        "127.0.0.1:7001,127.0.0.1:7002",
        "127.0.0.1:7002",  # one other supervisor: this one would join it
    ],
)
def test_several_supervisors_without_a_token_refuse_to_start(capsys, supervisors):
    argv = ["-H", "127.0.0.1", "-p", "7001", "-s", supervisors]
    assert run_cli(parse_supervisor_args, argv, lambda config: 0) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(
        f"mars-supervisor: error: several supervisors (-s {supervisors}) need one shared token"
    )
    assert SHARED_TOKEN_HELP in lines[0]


def test_several_supervisors_start_with_a_token_from_flag_environment_or_file(tmp_path):
    argv = ["-H", "127.0.0.1", "-p", "7001", "-s", "127.0.0.1:7001,127.0.0.1:7002"]
    assert parse_supervisor_args([*argv, "--token", SECRET], env={}).token == SECRET
    assert parse_supervisor_args(argv, env={"MARS_TOKEN": SECRET}).token == SECRET
    path = tmp_path / "supervisor.yaml"
    path.write_text(f"token: {SECRET}\n")
    assert parse_supervisor_args([*argv, "-f", str(path)], env={}).token == SECRET


def test_a_lone_supervisor_listed_alone_needs_no_token():
    argv = ["-H", "127.0.0.1", "-p", "7001", "-s", "127.0.0.1:7001"]
    assert parse_supervisor_args(argv, env={}).token is None
    assert parse_supervisor_args(["-p", "7001", "-s", "localhost:7001"], env={}).token is None


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--no-such-flag"], "unrecognized arguments: --no-such-flag"),
        (["--n-cpus", "4"], "unrecognized arguments: --n-cpus and 1 value"),
        (["--spill", "/tmp"], "unrecognized arguments: --spill"),  # no abbreviations
        (["-p"], "argument -p/--port: expected one argument"),
    ],
)
def test_argparse_errors_print_usage_and_one_error_line(capsys, argv, expected):
    status, lines = run_worker(capsys, "-s", "a:1", *argv)
    assert status == 2
    assert lines[0].startswith("usage: mars-worker")
    assert lines[-1] == f"mars-worker: error: {expected}" or lines[-1].startswith(
        f"mars-worker: error: {expected}"
    )
    assert not any(line.startswith("mars-worker: error:") for line in lines[:-1])


@pytest.mark.parametrize(
    "argv",
    [
        ["--tokn", SECRET],
        ["--tokn=" + SECRET],
        [SECRET],
        ["--token", SECRET + " x"],
        ["--token", SECRET, "--n-cpu", "0"],
    ],
)
def test_no_error_message_shows_the_token(capsys, argv):
    status, lines = run_worker(capsys, "-s", "a:1", *argv)
    assert status == 2
    assert not any(SECRET in line for line in lines)


def test_run_cli_names_the_program_of_the_parse_function(capsys):
    assert run_cli(parse_worker_args, ["-s", "a:1", "--n-cpu", "0"], lambda config: 0) == 2
    assert capsys.readouterr().err.startswith("mars-worker: error: argument --n-cpu")
    assert run_cli(parse_supervisor_args, ["-p", "x"], lambda config: 0) == 2
    assert capsys.readouterr().err.startswith("mars-supervisor: error: argument -p/--port")


def test_run_cli_reports_a_usage_error_from_the_runner(capsys):
    def runner(config):
        raise UsageError("argument --log-conf: expected a logging config file, got x")

    assert run_cli(parse_supervisor_args, [], runner) == 2
    assert capsys.readouterr().err == (
        "mars-supervisor: error: argument --log-conf: expected a logging config file, got x\n"
    )


def test_run_cli_returns_the_runner_status_and_passes_the_config():
    seen = []
    assert run_cli(parse_supervisor_args, ["-w", "0"], lambda config: seen.append(config)) == 0
    assert seen[0].web_port == 0
    assert run_cli(parse_supervisor_args, [], lambda config: 3) == 3


def test_help_exits_zero_on_stdout(capsys):
    assert run_cli(parse_worker_args, ["--help"], lambda config: 1) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: mars-worker")
    for flag in ("--n-cpu", "--cache-mem", "--spill-dir", "--cuda-devices", "--token", "-f"):
        assert flag in out


def test_parse_raises_usage_error_without_exiting():
    with pytest.raises(UsageError, match="unrecognized arguments: --bogus") as info:
        parse_supervisor_args(["--bogus"], env={})
    assert info.value.prog == "mars-supervisor"
    assert info.value.usage.startswith("usage: mars-supervisor")


def test_spill_dir_whose_parent_is_missing_is_refused_and_nothing_is_created(capsys, tmp_path):
    made, missing = tmp_path / "made", tmp_path / "missing" / "spill"
    status, lines = run_worker(capsys, "-s", "a:1", "--spill-dir", f"{made}:{missing}")
    assert_one_line_error(
        status,
        lines,
        f"argument --spill-dir/--spill-dirs: expected spill directories whose parent exists, "
        f"but {tmp_path / 'missing'} does not",
    )
    assert not made.exists()


def test_spill_dir_that_is_a_file_is_refused(capsys, tmp_path):
    (tmp_path / "file").write_text("")
    status, lines = run_worker(capsys, "-s", "a:1", "--spill-dir", str(tmp_path / "file"))
    assert_one_line_error(status, lines, "is not a directory")


def test_spill_dirs_are_not_created_when_another_value_is_bad(capsys, tmp_path):
    status, _ = run_worker(
        capsys, "-s", "a:1", "--spill-dir", str(tmp_path / "s"), "--cache-mem", "20g"
    )
    assert status == 2
    assert not (tmp_path / "s").exists()


def test_too_little_free_memory_for_the_default_min_mem(capsys):
    small = HostResources(n_cpu=1, total_memory=GIB, available_memory=100 * 1024**2)
    status, lines = run_worker(capsys, "-s", "a:1", resources=small)
    assert_one_line_error(
        status, lines, "argument --min-mem: expected at most the free memory (100MiB), got 128MiB"
    )
