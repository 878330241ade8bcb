"""The cluster token: a shared secret every supervisor, worker and client must prove.

Where it comes from, first found wins: ``--token``, the config file's ``token``, the
environment's ``MARS_TOKEN``. When none gives one, the supervisor generates one and
stores it in a file only its user can read, named after the supervisor's address, where a
client or worker run by the same user on that machine finds it::

    $JUPYTER_MARS_TOKEN_DIR/<address>.token          when that variable is set
    $XDG_RUNTIME_DIR/jupyter_mars/<address>.token    else when that one is set
    ~/.jupyter_mars/tokens/<address>.token           otherwise

The directory is made mode 0700 and the file 0600, written atomically so that a reader
never sees half a token. A token file that other users could read is refused, as ssh
refuses such a private key. Nothing here ever logs or raises with the token in it.
"""

from __future__ import annotations

import logging
import os
import secrets
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import quote

logger = logging.getLogger(__name__)
TOKEN_ENV = "MARS_TOKEN"
DIR_ENV = "JUPYTER_MARS_TOKEN_DIR"


def resolve_token(
    cli_token: str | None, config_token: str | None, env: Mapping[str, str]
) -> str | None:
    """The token from the command line, else the config file, else ``MARS_TOKEN``."""
    for token in (cli_token, config_token, env.get(TOKEN_ENV)):
        if token is not None and token.strip():
            return token.strip()
    return None


def generate_token() -> str:
    """A fresh random token: 32 bytes, URL-safe base64 (43 characters).

    It never starts with ``-``, so that ``--token <it>`` does not read as a flag.
    """
    while True:
        token = secrets.token_urlsafe(32)
        if not token.startswith("-"):
            return token


def token_dir(env: Mapping[str, str] | None = None) -> Path:
    """The per-user directory holding token files (see the module docstring)."""
    env = os.environ if env is None else env
    if env.get(DIR_ENV):
        return Path(env[DIR_ENV])
    if env.get("XDG_RUNTIME_DIR"):
        return Path(env["XDG_RUNTIME_DIR"]) / "jupyter_mars"
    return Path.home() / ".jupyter_mars" / "tokens"


def token_path(address: str) -> Path:
    """The token file of ``address``; the name is the address percent-encoded, so that
    ``[::1]:7001`` and ``host:7001`` both give a plain file name and no two collide."""
    return token_dir() / f"{quote(address, safe='')}.token"


def write_token_file(address: str, token: str) -> Path:
    """Store ``token`` for ``address`` readable by this user alone; returns the file."""
    path = token_path(address)
    _make_private_dir(path.parent)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=".token-")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
            os.fchmod(stream.fileno(), 0o600)  # mkstemp makes it 0600; say so, not rely on it
            stream.write(token + "\n")
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def read_token_file(address: str) -> str | None:
    """The token stored for ``address``, or None when there is none or it is unsafe.

    A file that is a symbolic link, belongs to another user, or is readable or writable
    by group or others is refused (and the reason logged, without the token).
    """
    path = token_path(address)
    try:
        descriptor = os.open(
            path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
        )
    except FileNotFoundError:
        return None
    except OSError as error:
        logger.warning("cannot open token file %s: %s", path, error.strerror)
        return None
    with os.fdopen(descriptor, encoding="utf-8") as stream:
        info = os.fstat(stream.fileno())
        problem = _unsafe(info)
        if problem is not None:
            logger.warning("refusing token file %s: %s", path, problem)
            return None
        token = stream.read().strip()
    return token or None


def remove_token_file(address: str) -> None:
    """Forget the token stored for ``address``; nothing happens if there is none."""
    token_path(address).unlink(missing_ok=True)


def _unsafe(info: os.stat_result) -> str | None:
    """Why a token file with this status must not be trusted, or None if it may be."""
    if not stat.S_ISREG(info.st_mode):
        return "it is not a regular file"
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return f"it belongs to user id {info.st_uid}, not to this user"
    if info.st_mode & 0o077:
        mode = stat.S_IMODE(info.st_mode)
        return f"its mode {mode:04o} lets other users at it; run chmod 600 on it"
    return None


def _make_private_dir(directory: Path) -> None:
    """Create ``directory`` (and parents) and make sure only this user can enter it."""
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = directory.stat()
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise PermissionError(f"token directory {directory} belongs to another user")
    if stat.S_IMODE(info.st_mode) != 0o700:
        directory.chmod(0o700)
