"""Logging of the ``mars-supervisor``, ``mars-worker``, ``mars-scheduler`` and ``mars-web``
processes.

``--log-conf`` names a ``logging.config.fileConfig`` file; without it, a ``logging.conf``
in the working directory is read, as Mars does; without either the root logger writes to
stderr in ``--log-format``. ``--log-level`` and ``--log-format``, when given,
apply on top of a conf file too. When nothing gives a level, it is ``info``.
"""

from __future__ import annotations

import configparser
import logging
import logging.config
import os

from jupyter_mars.deploy.errors import UsageError

DEFAULT_FORMAT = "%(asctime)s %(levelname)s %(process)d %(name)s: %(message)s"
DEFAULT_LEVEL = "info"
DEFAULT_CONF = "logging.conf"
"""Read from the working directory when ``--log-conf`` is not given."""
_CONF_ERRORS = (
    configparser.Error,
    RuntimeError,  # what fileConfig wraps configparser errors in since 3.11
    KeyError,
    ValueError,
    TypeError,
    AttributeError,
    ImportError,
)


def configure_logging(level: str | None, fmt: str | None, conf_file: str | None) -> None:
    """Set up the root logger once, at process start.

    Raises ``UsageError`` for a conf file that is missing or that ``fileConfig`` rejects.
    """
    root = logging.getLogger()
    source = "argument --log-conf"
    if conf_file is None and os.path.isfile(DEFAULT_CONF):
        conf_file = os.path.abspath(DEFAULT_CONF)
        source = f"{DEFAULT_CONF} in the working directory (--log-conf FILE picks another)"
    if conf_file is None:
        logging.basicConfig(format=fmt or DEFAULT_FORMAT, force=True)
        root.setLevel((level or DEFAULT_LEVEL).upper())
        return
    if not os.path.isfile(conf_file):
        raise UsageError(f"argument --log-conf: expected a logging config file, got {conf_file}")
    try:
        logging.config.fileConfig(conf_file, disable_existing_loggers=False)
    except _CONF_ERRORS as error:
        # First line only: configparser quotes the offending source line after it.
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise UsageError(f"{source}: invalid logging config {conf_file}: {reason}") from None
    if fmt is not None:
        for handler in root.handlers:
            handler.setFormatter(logging.Formatter(fmt))
    if level is not None:
        root.setLevel(level.upper())
