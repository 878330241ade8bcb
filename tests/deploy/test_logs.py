"""``configure_logging``: format and level on stderr, or a fileConfig file."""

from __future__ import annotations

import logging
import textwrap

import pytest

from jupyter_mars.deploy import UsageError, configure_logging
from jupyter_mars.deploy.logs import DEFAULT_FORMAT


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


def test_defaults_are_info_on_stderr():
    configure_logging(None, None, None)
    root = logging.getLogger()
    assert root.level == logging.INFO
    assert len(root.handlers) == 1
    assert root.handlers[0].formatter._fmt == DEFAULT_FORMAT


def test_level_and_format():
    configure_logging("debug", "%(levelname)s %(message)s", None)
    root = logging.getLogger()
    assert root.level == logging.DEBUG
    assert root.handlers[0].formatter._fmt == "%(levelname)s %(message)s"


def write_conf(tmp_path, level="WARNING"):
    path = tmp_path / "logging.conf"
    path.write_text(
        textwrap.dedent(
            f"""\
            [loggers]
            keys=root
            [handlers]
            keys=stderr
            [formatters]
            keys=plain
            [logger_root]
            level={level}
            handlers=stderr
            [handler_stderr]
            class=StreamHandler
            formatter=plain
            args=(sys.stderr,)
            [formatter_plain]
            format=CONF %(message)s
            """
        )
    )
    return path


def test_a_conf_file_sets_level_and_format(tmp_path):
    configure_logging(None, None, str(write_conf(tmp_path)))
    root = logging.getLogger()
    assert root.level == logging.WARNING
    assert root.handlers[0].formatter._fmt == "CONF %(message)s"


def test_flags_apply_on_top_of_a_conf_file(tmp_path):
    configure_logging("error", "%(message)s", str(write_conf(tmp_path)))
    root = logging.getLogger()
    assert root.level == logging.ERROR
    assert root.handlers[0].formatter._fmt == "%(message)s"


def test_a_missing_conf_file_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="argument --log-conf: expected a logging config file"):
        configure_logging(None, None, str(tmp_path / "absent.conf"))


@pytest.mark.parametrize("text", ["not an ini file\n", "[loggers]\nkeys=root\n"])
def test_a_malformed_conf_file_is_a_one_line_usage_error(tmp_path, text):
    path = tmp_path / "bad.conf"
    path.write_text(text)
    with pytest.raises(UsageError, match="argument --log-conf: invalid logging config") as info:
        configure_logging(None, None, str(path))
    assert "\n" not in str(info.value)
