"""Parsing every flag of ``mars-supervisor`` and ``mars-worker``, defaults and precedence."""

from __future__ import annotations

import os
import socket
import stat

import pytest

from jupyter_mars.deploy import (
    SupervisorConfig,
    UsageError,
    WorkerConfig,
    parse_supervisor_args,
    parse_worker_args,
)
from tests.deploy.conftest import GIB, MACHINE

MIB = 1024**2


def worker(*argv: str, env: dict[str, str] | None = None) -> WorkerConfig:
    return parse_worker_args(["-s", "10.0.0.1:7001", *argv], env=env or {}, resources=MACHINE)


def test_supervisor_defaults():
    config = parse_supervisor_args([], env={})
    assert config == SupervisorConfig()
    assert (config.host, config.port, config.web_port) == ("0.0.0.0", 0, 0)
    assert config.supervisors == []
    assert config.token is None
    assert config.use_uvloop == "auto"


def test_supervisor_flags_short_and_long():
    short = parse_supervisor_args(
        ["-H", "127.0.0.1", "-p", "0", "-w", "0", "-a", "10.1.2.3", "-s", "a:7001,b:7002"],
        env={"MARS_TOKEN": "shared"},
    )
    long = parse_supervisor_args(
        [
            "--host=127.0.0.1",
            "--port=0",
            "--web-port=0",
            "--advertise-address=10.1.2.3",
            "--supervisors=a:7001,b:7002",
        ],
        env={"MARS_TOKEN": "shared"},
    )
    assert short == long
    assert short.host == "127.0.0.1"
    assert short.advertise_address == "10.1.2.3"
    assert short.supervisors == ["a:7001", "b:7002"]


def test_common_logging_uvloop_and_token_flags(tmp_path):
    conf = tmp_path / "logging.conf"
    conf.write_text("")
    config = parse_supervisor_args(
        [
            "--log-level",
            "WARNING",
            "--log-format",
            "%(levelname)s %(message)s",
            "--log-conf",
            str(conf),
            "--use-uvloop",
            "no",
            "--token",
            "s3cret",
        ],
        env={},
    )
    assert config.log_level == "warning"
    assert config.log_format == "%(levelname)s %(message)s"
    assert config.log_conf == str(conf)
    assert config.use_uvloop == "no"
    assert config.token == "s3cret"


def test_the_token_is_left_out_of_the_repr():
    config = parse_supervisor_args(["--token", "s3cret"], env={})
    assert "s3cret" not in repr(config)


def test_worker_defaults_come_from_the_machine():
    config = worker()
    assert config.n_cpu == MACHINE.n_cpu
    assert config.n_io_process == 1
    assert config.cuda_devices is None
    assert config.phy_mem == MACHINE.total_memory
    assert config.cache_mem == MACHINE.available_memory // 2
    assert config.min_mem == 128 * MIB
    assert config.spill_dirs == []


def test_memory_limits_default_to_none_and_take_shares_of_phy_mem():
    config = worker("--phy-mem", "4g")
    assert (config.memory_soft_limit, config.memory_hard_limit) == (None, None)
    config = worker("--phy-mem", "4g", "--memory-soft-limit", "50%", "--memory-hard-limit", "3g")
    assert (config.memory_soft_limit, config.memory_hard_limit) == (2 * GIB, 3 * GIB)


def test_session_timeout_defaults_to_five_minutes_and_takes_seconds():
    assert parse_supervisor_args([], env={}).session_timeout == 300.0
    assert parse_supervisor_args(["--session-timeout", "2.5"], env={}).session_timeout == 2.5


def test_default_cache_mem_never_exceeds_phy_mem():
    assert worker("--phy-mem", "4g").cache_mem == 2 * GIB


def test_worker_cpu_io_and_cuda_flags():
    config = worker("--n-cpu", "3", "--n-io-process", "2", "--cuda-devices", "0,2")
    assert (config.n_cpu, config.n_io_process, config.cuda_devices) == (3, 2, [0, 2])


def test_empty_cuda_devices_means_none():
    assert worker("--cuda-devices", "").cuda_devices == []


@pytest.mark.parametrize(
    ("argv", "phy", "cache", "min_"),
    [
        (
            ["--phy-mem", "8g", "--cache-mem", "512m", "--min-mem", "64m"],
            8 * GIB,
            512 * MIB,
            64 * MIB,
        ),
        (["--phy-mem", "90%", "--cache-mem", "25%"], int(16 * GIB * 0.9), 4 * GIB, 128 * MIB),
        (["--phy-mem", "0.5", "--cache-mem", "1073741824"], 8 * GIB, GIB, 128 * MIB),
        (["--phy-mem", "1.5GiB", "--cache-mem", "1.5GiB"], 3 * GIB // 2, 3 * GIB // 2, 128 * MIB),
    ],
)
def test_memory_flags_take_sizes_and_shares_of_total_memory(argv, phy, cache, min_):
    config = worker(*argv)
    assert (config.phy_mem, config.cache_mem, config.min_mem) == (phy, cache, min_)


@pytest.mark.parametrize("flag", ["--spill-dir", "--spill-dirs"])
def test_spill_dirs_are_split_on_colons_and_created(tmp_path, flag):
    first, second = tmp_path / "one", tmp_path / "two"
    config = worker(flag, f"{first}:{second}")
    assert config.spill_dirs == [str(first), str(second)]
    for path in (first, second):
        assert path.is_dir()
        assert stat.S_IMODE(path.stat().st_mode) == 0o700


def test_existing_spill_dirs_are_kept(tmp_path):
    (tmp_path / "spill").mkdir()
    (tmp_path / "spill" / "chunk").write_text("x")
    assert worker("--spill-dir", str(tmp_path / "spill")).spill_dirs == [str(tmp_path / "spill")]
    assert (tmp_path / "spill" / "chunk").exists()


def test_relative_paths_are_made_absolute(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert worker("--spill-dir", "spill").spill_dirs == [str(tmp_path / "spill")]


def test_supervisor_addresses_keep_order_drop_repeats_and_accept_ipv6():
    config = worker("-s", "b:2, a:1,b:2,[::1]:7001,")
    assert config.supervisors == ["b:2", "a:1", "[::1]:7001"]


def test_a_free_port_is_accepted():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    config = parse_supervisor_args(["-H", "127.0.0.1", "-p", str(free)], env={})
    assert config.port == free


# --- precedence: command line > config file > environment > defaults ----------------------


def test_command_line_wins_over_config_file(tmp_path):
    path = tmp_path / "worker.yaml"
    path.write_text("n_cpu: 2\nlog_level: error\ntoken: from-file\nsupervisors: f:1\n")
    config = parse_worker_args(
        ["-f", str(path), "--n-cpu", "3", "--token", "from-cli", "-s", "c:1"],
        env={"MARS_TOKEN": "from-env"},
        resources=MACHINE,
    )
    assert config.n_cpu == 3
    assert config.log_level == "error"
    assert config.token == "from-cli"
    assert config.supervisors == ["c:1"]
    assert config.config_file == str(path)


def test_config_file_wins_over_environment_and_defaults(tmp_path):
    path = tmp_path / "worker.yaml"
    path.write_text("token: from-file\nsupervisors: [f:1, g:2]\n")
    config = parse_worker_args(["-f", str(path)], env={"MARS_TOKEN": "from-env"}, resources=MACHINE)
    assert config.token == "from-file"
    assert config.supervisors == ["f:1", "g:2"]
    assert config.n_cpu == MACHINE.n_cpu


def test_environment_token_wins_over_the_default():
    assert worker(env={"MARS_TOKEN": "from-env"}).token == "from-env"
    assert worker(env={"MARS_TOKEN": "  "}).token is None


def test_the_process_environment_is_the_default(monkeypatch):
    monkeypatch.setenv("MARS_TOKEN", "from-process-env")
    assert parse_supervisor_args([]).token == "from-process-env"


def test_a_yaml_null_counts_as_not_given(tmp_path):
    path = tmp_path / "worker.yaml"
    path.write_text("cuda_devices:\nn_cpu: null\n")
    config = worker("-f", str(path))
    assert config.cuda_devices is None
    assert config.n_cpu == MACHINE.n_cpu


def test_parse_worker_args_probes_the_machine_by_default():
    config = parse_worker_args(["-s", "a:1"], env={})
    assert config.n_cpu == len(os.sched_getaffinity(0))
    assert 0 < config.cache_mem <= config.phy_mem


def test_workers_run_under_a_nanny_unless_told_not_to(tmp_path):
    assert worker().nanny is True
    assert worker("--no-nanny").nanny is False
    path = tmp_path / "worker.yaml"
    path.write_text("no_nanny: true\n")
    assert worker("-f", str(path)).nanny is False
    path.write_text("no_nanny: 'no'\n")
    assert worker("-f", str(path)).nanny is True


def test_no_nanny_takes_no_value():
    with pytest.raises(UsageError, match="--no-nanny: ignored explicit argument"):
        worker("--no-nanny=yes")


def test_no_workers_timeout_takes_seconds():
    assert parse_supervisor_args([], env={}).no_workers_timeout == 60.0
    assert parse_supervisor_args(["--no-workers-timeout", "2.5"], env={}).no_workers_timeout == 2.5
    for bad in ("0", "-1", "soon", "inf"):
        with pytest.raises(UsageError, match="--no-workers-timeout: expected a number of seconds"):
            parse_supervisor_args(["--no-workers-timeout", bad], env={})
