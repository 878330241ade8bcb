"""The older commands' flags read into today's: each one noted, or refused naming the
flag that replaced it; ``-a`` alone also the address to listen on."""

from __future__ import annotations

import doctest
import shlex

import pytest

from jupyter_mars.deploy import UsageError, old_flags
from jupyter_mars.deploy.arguments import WORKER_OPTIONS
from jupyter_mars.deploy.cli import (
    parse_scheduler_args,
    parse_web_args,
    parse_worker_args,
    with_old_flags,
)
from jupyter_mars.deploy.old_flags import (
    SCHEDULER_OLD_FLAGS,
    WEB_OLD_FLAGS,
    WORKER_OLD_FLAGS,
    help_epilog,
    translate,
    value_flags,
)
from tests.deploy.conftest import GIB, MACHINE

TODAY = value_flags(WORKER_OPTIONS)


def test_doctests():
    assert doctest.testmod(old_flags).failed == 0


@pytest.mark.parametrize(
    ("old", "today"),
    [
        (["--cpu-procs", "4"], ["--n-cpu", "4"]),
        (["--nproc", "2"], ["--n-cpu", "2"]),
        (["--net-procs=3"], ["--n-io-process", "3"]),
        (["--cuda-device", "1"], ["--cuda-devices", "1"]),
        (["--cuda-device="], ["--cuda-devices", ""]),
        (["--advertise", "h"], ["--advertise-address", "h"]),
        (["--schedulers", "a:1,b:2"], ["--supervisors", "a:1,b:2"]),
        (["--disable-proc-recover"], ["--no-nanny"]),
    ],
)
def test_worker_flags_taken_as_todays(old, today):
    as_written = [part for argument in old for part in argument.split("=", 1)]
    note = f"{shlex.join(as_written)}: taken as {shlex.join(today)}"
    assert translate(old, WORKER_OLD_FLAGS, TODAY) == (today, [note])


@pytest.mark.parametrize(
    ("old", "why"),
    [
        (["--plasma-dir", "/dev/shm"], "no plasma store"),
        (["--lock-free-fileio"], "no spill file is locked"),
    ],
)
def test_worker_flags_without_counterpart_are_dropped_with_why(old, why):
    argv, [note] = translate(["-p", "0", *old], WORKER_OLD_FLAGS, TODAY)
    assert argv == ["-p", "0"]
    assert note.startswith(f"{' '.join(old)}: ignored: ")
    assert why in note


def test_scheduler_nproc_is_noted_and_dropped():
    argv, [note] = translate(["-a", "h", "--nproc", "8"], SCHEDULER_OLD_FLAGS)
    assert argv == ["-a", "h"]
    assert note.startswith("--nproc 8: ignored: a supervisor is one process")


@pytest.mark.parametrize(
    ("table", "argv", "replacement"),
    [
        (WORKER_OLD_FLAGS, ["--kv-store", "etcd://h:4001"], "-s/--supervisors"),
        (SCHEDULER_OLD_FLAGS, ["-k", "etcd://h:4001"], "-s/--supervisors"),
        (WEB_OLD_FLAGS, ["--ui-port", "8080"], "-p/--port"),
    ],
)
def test_refused_flags_name_their_replacement(table, argv, replacement):
    with pytest.raises(UsageError, match=f"argument {argv[0]} is no longer taken: .*{replacement}"):
        translate(argv, table)


def test_values_of_todays_flags_are_never_read_as_older_flags():
    argv = ["--token", "--nproc", "--log-format", "--cpu-procs=1"]
    assert translate(argv, WORKER_OLD_FLAGS, TODAY) == (argv, [])


def test_malformed_older_flags_are_usage_errors():
    with pytest.raises(UsageError, match="argument --cpu-procs: expected one argument"):
        translate(["--cpu-procs"], WORKER_OLD_FLAGS)
    with pytest.raises(UsageError, match="argument --lock-free-fileio: ignored explicit"):
        translate(["--lock-free-fileio=yes"], WORKER_OLD_FLAGS)


def test_help_lists_the_older_flags():
    text = help_epilog(WORKER_OLD_FLAGS)
    assert "--cpu-procs (as --n-cpu)" in text
    assert "--kv-store (refused)" in text
    assert "--plasma-dir (ignored)" in text


def test_notes_go_to_stderr_one_line_each(capsys):
    argv = with_old_flags(
        "mars-worker", ["--cpu-procs", "2", "--net-procs", "1"], WORKER_OLD_FLAGS, WORKER_OPTIONS
    )
    assert argv == ["--n-cpu", "2", "--n-io-process", "1"]
    assert capsys.readouterr().err.splitlines() == [
        "mars-worker: --cpu-procs 2: taken as --n-cpu 2",
        "mars-worker: --net-procs 1: taken as --n-io-process 1",
    ]  # fmt: skip


def test_worker_takes_the_memory_flags_as_the_older_documents_write_them(tmp_path):
    spill = f"{tmp_path}/a:{tmp_path}/b"
    argv = ["-a", "127.0.0.1", "-s", "127.0.0.1:7001", "--cpu-procs", "2", "--cache-mem", "30%"]
    argv += ["--phy-mem", "90%", "--min-mem", "128m", "--spill-dir", spill]
    config = parse_worker_args(
        with_old_flags("mars-worker", argv, WORKER_OLD_FLAGS, WORKER_OPTIONS),
        env={},
        resources=MACHINE,
    )
    assert config.n_cpu == 2
    assert config.cache_mem == int(0.3 * 16 * GIB)
    assert config.phy_mem == int(0.9 * 16 * GIB)
    assert config.min_mem == 128 * 1024**2
    assert config.spill_dirs == [str(tmp_path / "a"), str(tmp_path / "b")]
    assert (tmp_path / "a").is_dir()
    assert (tmp_path / "b").is_dir()
    # the 002 example's --cache-mem 512m --phy-mem 90%
    small = parse_worker_args(
        ["-s", "h:1", "--cache-mem", "512m", "--phy-mem", "90%"], env={}, resources=MACHINE
    )
    assert small.cache_mem == 512 * 1024**2  # fmt: skip


def test_advertise_alone_is_also_where_to_listen_when_it_is_this_machine():
    local = parse_scheduler_args(["-a", "127.0.0.1", "-p", "0"], env={})
    assert (local.host, local.advertise_address) == ("127.0.0.1", "127.0.0.1")
    # an address of another machine (NAT, a container's published one): every interface
    elsewhere = parse_scheduler_args(["-a", "192.0.2.7", "-p", "0"], env={})
    assert (elsewhere.host, elsewhere.advertise_address) == ("0.0.0.0", "192.0.2.7")
    given = parse_scheduler_args(["-a", "192.0.2.7", "-H", "127.0.0.1"], env={})
    assert given.host == "127.0.0.1"


def test_scheduler_is_a_supervisor_with_its_schedulers(capsys):
    config = parse_scheduler_args(
        ["-a", "127.0.0.1", "--schedulers", "127.0.0.1:7001,127.0.0.1:7002", "--nproc", "4"],
        env={"MARS_TOKEN": "shared"},
    )
    assert config.supervisors == ["127.0.0.1:7001", "127.0.0.1:7002"]
    assert "mars-scheduler: --nproc 4: ignored" in capsys.readouterr().err


def test_web_needs_the_supervisors():
    config = parse_web_args(
        ["-a", "127.0.0.1", "-p", "0", "-s", "127.0.0.1:7001"], env={"MARS_TOKEN": "t"}
    )
    assert (config.host, config.port, config.supervisors) == ("127.0.0.1", 0, ["127.0.0.1:7001"])
    assert config.token == "t"
    with pytest.raises(UsageError, match="required: -s/--supervisors"):
        parse_web_args(["-p", "0"], env={})  # fmt: skip
