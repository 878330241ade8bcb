"""Checks of values against this machine: hosts resolve, ports are free, spill dirs exist.

They run once every value has been converted, so that a worker started with a typo stops
at once with one line naming the flag, instead of failing later inside the event loop.
Each raises ``ValueError`` with what was expected; the caller prefixes the flag.
"""

from __future__ import annotations

import errno
import os
import socket


def check_file(path: str | None) -> None:
    """``path``, when given, is an existing file (a ``--log-conf``, say)."""
    if path is not None and not os.path.isfile(path):
        raise ValueError(f"expected an existing file, got {path}")


def check_resolvable(host: str) -> None:
    """``host`` names an address this machine can look up."""
    try:
        socket.getaddrinfo(host, None, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError):
        raise ValueError(
            f"expected a host name or IP address that resolves, got {host!r}"
        ) from None


def check_local(host: str) -> None:
    """``host`` is an address of this machine: a server can listen on it (on any port)."""
    try:
        _try_bind(host, 0)
    except OSError as error:
        if error.errno == errno.EADDRNOTAVAIL:
            raise ValueError(f"expected an address of this machine, got {host!r}") from None
        raise ValueError(f"cannot listen on {host}: {error.strerror}") from None


def is_local_address(host: str) -> bool:
    """``host`` resolves to an address of this machine (a name that does not resolve is
    another machine's, as far as this one can tell)."""
    try:
        _try_bind(host, 0)
    except (OSError, UnicodeError):
        return False
    return True


def check_port_free(host: str, port: int) -> None:
    """A server could listen on ``host:port`` now; port 0 (any free port) always can."""
    if port == 0:
        return
    try:
        _try_bind(host, port)
    except OSError as error:
        raise ValueError(_bind_problem(host, port, error)) from None


def _try_bind(host: str, port: int) -> None:
    """Bind as asyncio's ``start_server`` does (``SO_REUSEADDR`` on POSIX, IPv6 sockets
    IPv6-only), on every address ``host`` resolves to, and let go at once."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    for family, kind, proto, _, address in infos:
        with socket.socket(family, kind, proto) as probe:
            if os.name == "posix":
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            probe.bind(address)


def _bind_problem(host: str, port: int, error: OSError) -> str:
    if error.errno == errno.EADDRINUSE:
        return f"expected a free port, but port {port} on {host} is already in use"
    if error.errno == errno.EACCES:
        return f"expected a port this user may listen on, got {port} (below 1024 needs root)"
    return f"cannot listen on {host}:{port}: {error.strerror}"


def prepare_spill_dirs(paths: list[str]) -> None:
    """Each directory exists and is writable; a missing one is created (mode 0700) when
    its parent exists, so that a typo in the parent is caught rather than built. All are
    checked before any is created."""
    missing = [path for path in paths if not os.path.isdir(path)]
    for path in paths:
        if os.path.lexists(path) and not os.path.isdir(path):
            raise ValueError(f"expected a directory to spill to, but {path} is not a directory")
        parent = os.path.dirname(path)
        if path in missing and not os.path.isdir(parent):
            raise ValueError(
                f"expected spill directories whose parent exists, but {parent} does not"
            )
    for path in missing:
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            pass  # another worker on this machine made it meanwhile
        except OSError as error:
            raise ValueError(f"cannot create spill directory {path}: {error.strerror}") from None
    for path in paths:
        if not os.access(path, os.W_OK | os.X_OK):
            raise ValueError(f"expected a writable spill directory, but {path} is not writable")
