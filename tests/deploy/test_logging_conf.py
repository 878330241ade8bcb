"""A ``logging.conf`` in the working directory is read by default (document 001), by
every command; ``--log-conf`` wins; a broken one is a usage error naming it."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from jupyter_mars.deploy import UsageError, configure_logging
from jupyter_mars.launcher.local import _Process
from tests.cluster.processes import RPC, WEB, wait_until


def conf_writing_to(path: Path) -> str:
    """A fileConfig text sending every record to the file ``path``."""
    return textwrap.dedent(
        f"""\
        [loggers]
        keys=root

        [handlers]
        keys=file

        [formatters]
        keys=plain

        [logger_root]
        level=INFO
        handlers=file

        [handler_file]
        class=FileHandler
        formatter=plain
        args=({str(path)!r},)

        [formatter_plain]
        format=CONF %(name)s %(message)s
        """
    )


@pytest.fixture(autouse=True)
def _restore_root_logger():
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    for handler in root.handlers:
        if handler not in handlers:
            handler.close()
    root.handlers[:] = handlers
    root.setLevel(level)


def test_logging_conf_in_the_working_directory_is_read(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "logging.conf").write_text(conf_writing_to(tmp_path / "found.log"))
    configure_logging(None, None, None)
    logging.getLogger("here").info("hello")
    assert "CONF here hello" in (tmp_path / "found.log").read_text()


def test_an_explicit_log_conf_wins(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "logging.conf").write_text(conf_writing_to(tmp_path / "found.log"))
    other = tmp_path / "other.conf"
    other.write_text(conf_writing_to(tmp_path / "other.log"))
    configure_logging(None, None, str(other))
    logging.getLogger("here").info("hello")
    assert "CONF here hello" in (tmp_path / "other.log").read_text()
    assert not (tmp_path / "found.log").exists()


def test_a_broken_logging_conf_is_a_usage_error_naming_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "logging.conf").write_text("[loggers]\nkeys=root\n")
    with pytest.raises(UsageError) as broken:
        configure_logging(None, None, None)
    assert broken.value.message.startswith(
        "logging.conf in the working directory (--log-conf FILE picks another): "
        f"invalid logging config {tmp_path / 'logging.conf'}: "
    )


@pytest.mark.parametrize(
    ("module", "prog", "args"),
    [
        ("supervisor", "mars-supervisor", ["-H", "127.0.0.1"]),
        ("scheduler", "mars-scheduler", ["-a", "127.0.0.1"]),
        ("worker", "mars-worker", ["-a", "127.0.0.1", "-s", "127.0.0.1:1", "--no-nanny"]),
        ("web", "mars-web", ["-a", "127.0.0.1", "-s", "127.0.0.1:1"]),
    ],
)
def test_every_command_reads_it_and_refuses_a_broken_one(tmp_path, module, prog, args):
    (tmp_path / "logging.conf").write_text("[loggers]\nkeys=root\n")
    done = subprocess.run(
        [sys.executable, "-m", f"jupyter_mars.deploy.{module}", *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "MARS_TOKEN": "t"},
        check=False,
    )
    assert done.returncode == 2
    assert (
        done.stderr.strip()
        .splitlines()[-1]
        .startswith(
            f"{prog}: error: logging.conf in the working directory (--log-conf FILE picks "
            f"another): invalid logging config {tmp_path / 'logging.conf'}: "
        )
    )


def test_processes_log_as_the_working_directory_says(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "logging.conf").write_text(conf_writing_to(tmp_path / "found.log"))
    (tmp_path / "other.conf").write_text(conf_writing_to(tmp_path / "other.log"))
    env = {**os.environ, "MARS_TOKEN": "t", "JUPYTER_MARS_TOKEN_DIR": str(tmp_path / "tokens")}
    python = [sys.executable, "-m"]
    argv = [*python, "jupyter_mars.deploy.scheduler", "-a", "127.0.0.1", "--log-conf", "other.conf"]
    scheduler = _Process(argv, env)
    web: _Process | None = None
    try:
        address = scheduler.wait_for(RPC, 60)
        web = _Process([*python, "jupyter_mars.deploy.web", "-a", "127.0.0.1", "-s", address], env)
        listening = web.wait_for(WEB, 60)
        found, other = tmp_path / "found.log", tmp_path / "other.log"
        assert wait_until(lambda: found.exists() and listening in found.read_text(), 10)
        assert f"CONF jupyter_mars.web.proxy web service on {listening}" in found.read_text()
        assert "CONF jupyter_mars.cluster.supervisor.server supervisor" in other.read_text()
        assert "jupyter_mars.cluster" not in found.read_text()
    finally:
        if web is not None:
            web.stop()
        scheduler.stop()
