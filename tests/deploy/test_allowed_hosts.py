"""``--allowed-hosts``: the names a web service answers to besides this machine's, from the
flag (given once or more), the ``-f`` file and ``MARS_WEB_ALLOWED_HOSTS`` together, each
checked; and the same on ``mars-scheduler`` and ``mars-web``, not on ``mars-worker``."""

from __future__ import annotations

import functools

import pytest

from jupyter_mars.deploy import parse_supervisor_args, parse_worker_args, run_cli
from jupyter_mars.deploy.cli import parse_scheduler_args, parse_web_args
from jupyter_mars.deploy.values import to_host_names
from tests.deploy.conftest import MACHINE

WEB = ["-s", "127.0.0.1:7103", "--token", "t"]


def test_names_are_lower_cased_without_repeats_or_a_trailing_dot() -> None:
    assert to_host_names(" Mars.Domain.COM , .svc.cluster.local,mars.domain.com.") == [
        "mars.domain.com",
        ".svc.cluster.local",
    ]
    assert to_host_names(["a.b,c", "d"]) == ["a.b", "c", "d"]


def test_every_source_adds_its_names(tmp_path) -> None:
    path = tmp_path / "supervisor.yaml"
    path.write_text("allowed_hosts: [From-File.example, .svc.cluster.local]\n")
    argv = ["--allowed-hosts", "a.example,b.example", "--allowed-hosts=c.example"]
    config = parse_supervisor_args(
        [*argv, "-f", str(path)], env={"MARS_WEB_ALLOWED_HOSTS": "mars-supervisor,a.example"}
    )
    assert config.allowed_hosts == [
        "a.example",
        "b.example",
        "c.example",
        "from-file.example",
        ".svc.cluster.local",
        "mars-supervisor",
    ]


def test_none_by_default() -> None:
    assert parse_supervisor_args([], env={}).allowed_hosts == []
    assert parse_web_args(WEB, env={}).allowed_hosts == []


def test_the_scheduler_and_the_web_service_take_it_too(tmp_path) -> None:
    scheduler = parse_scheduler_args(["--allowed-hosts", "job-scheduler-0.ns.svc"], env={})
    assert scheduler.allowed_hosts == ["job-scheduler-0.ns.svc"]
    path = tmp_path / "web.yaml"
    path.write_text("allowed_hosts: mars.domain.com\n")
    web = parse_web_args(
        [*WEB, "-f", str(path), "--allowed-hosts", ".example.test"],
        env={"MARS_WEB_ALLOWED_HOSTS": "mars-web.default.svc"},
    )
    assert web.allowed_hosts == [".example.test", "mars.domain.com", "mars-web.default.svc"]


def run(capsys, parse, argv, env=None) -> tuple[int, str]:
    status = run_cli(functools.partial(parse, env=env or {}), argv, lambda config: 0)
    return status, capsys.readouterr().err


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("*", "a wildcard would let any name through"),
        ("*.example.com", "write .example.com for a domain and its subdomains"),
        ("mars.domain.com:80", "no port), got 'mars.domain.com:80'"),
        ("under_score.example", "got 'under_score.example'"),
        ("a..b", "got 'a..b'"),
        ("x.-lead.example", "got 'x.-lead.example'"),
        ("trail-.example", "got 'trail-.example'"),
        (",", "expected at least one host name"),
    ],
)
def test_bad_names_are_usage_errors_naming_the_flag(capsys, value, expected) -> None:
    for parse, argv in ((parse_supervisor_args, []), (parse_web_args, WEB)):
        status, err = run(capsys, parse, [*argv, "--allowed-hosts", value])
        assert status == 2
        assert "error: argument --allowed-hosts: " in err
        assert expected in err


def test_a_bad_name_in_the_file_or_the_environment_names_where_it_is(capsys, tmp_path) -> None:
    path = tmp_path / "supervisor.yaml"
    path.write_text("allowed_hosts: ['*']\n")
    status, err = run(capsys, parse_supervisor_args, ["-f", str(path)])
    assert status == 2
    assert f"config file {path}: key 'allowed_hosts': expected host names, got '*'" in err
    env = {"MARS_WEB_ALLOWED_HOSTS": "ok.example,bad name"}
    status, err = run(capsys, parse_web_args, WEB, env)
    assert status == 2
    assert "error: MARS_WEB_ALLOWED_HOSTS: expected host names such as" in err
    assert "got 'bad name'" in err


def test_a_worker_has_no_web_service_and_refuses_the_flag(capsys) -> None:
    parse = functools.partial(parse_worker_args, env={}, resources=MACHINE)
    status = run_cli(parse, ["-s", "127.0.0.1:7103", "--allowed-hosts", "a"], lambda c: 0)
    assert status == 2
    assert "unrecognized arguments: --allowed-hosts" in capsys.readouterr().err
