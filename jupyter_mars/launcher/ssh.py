"""The SSH transport of the host-list launcher: run commands and move files on one host.

``SSHConnection`` wraps one paramiko client behind a small interface (``connect``, ``run``,
``write_file``, ``read_file``, ``close``) so that nothing else in the package imports
paramiko. Failures surface as two exception types, both ``ConnectionError``:

- ``HostKeyError``: the host's key is not in the known_hosts file, or it changed. Unknown
  keys are refused unless ``accept_new_host_key`` (OpenSSH's ``StrictHostKeyChecking
  accept-new``), which records a new key but never replaces a recorded one.
- ``SSHError``: the host cannot be reached, authentication fails, or a step times out
  (``SSHCommandTimeout`` for commands that outlive their ``timeout``).

Commands are strings for the remote user's shell; quoting is the caller's job
(``shlex.quote``). Secrets travel on stdin or in files, never on a command line, and
``run`` logs only the command, at DEBUG, never its stdin.
"""

from __future__ import annotations

import contextlib
import getpass
import logging
import os
import posixpath
import secrets
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import paramiko

logger = logging.getLogger(__name__)

_READ_SIZE = 65536
_POLL_INTERVAL = 0.05
"""How often ``run`` drains output while it waits for the exit status."""
FILE_TIMEOUT = 30.0
"""Seconds ``write_file`` and ``read_file`` wait for each answer of the server."""
MAX_SESSIONS = 8
"""Commands and file transfers open at once per connection; more wait for a free one.
OpenSSH refuses sessions beyond its ``MaxSessions`` (10 by default)."""
_known_hosts_lock = threading.Lock()


class HostKeyError(ConnectionError):
    """The host's key is unknown, or differs from the one in the known_hosts file."""


class SSHError(ConnectionError):
    """The host cannot be reached or logged into, or the connection broke or timed out."""


class SSHCommandTimeout(SSHError, TimeoutError):
    """A command run over SSH did not finish within its timeout."""


@dataclass(frozen=True)
class Target:
    """Where to log in."""

    host: str
    port: int = 22
    user: str | None = None
    """None: the local user name (``getpass.getuser()``)."""
    key_file: str | None = None
    """The private key; None: paramiko's defaults (the agent if allowed, ``~/.ssh/id_*``)."""

    @property
    def login_user(self) -> str:
        return self.user if self.user is not None else getpass.getuser()

    @property
    def label(self) -> str:
        """``user@host:port``, as error messages name the target."""
        return f"{self.login_user}@{self.host}:{self.port}"


def known_hosts_name(host: str, port: int) -> str:
    """The name OpenSSH writes in known_hosts: ``host``, or ``[host]:port`` off port 22."""
    return host if port == 22 else f"[{host}]:{port}"


class _RejectUnknownHostKey(paramiko.MissingHostKeyPolicy):  # type: ignore[misc]
    def __init__(self, known_hosts: str) -> None:
        self.known_hosts = known_hosts

    def missing_host_key(self, client: Any, hostname: str, key: Any) -> None:
        raise HostKeyError(
            f"{hostname}: unknown host key ({key.get_name()} {key.fingerprint}), not in "
            f"{self.known_hosts}; add it to that file or allow accept_new_host_key"
        )


class _AcceptNewHostKey(paramiko.MissingHostKeyPolicy):  # type: ignore[misc]
    """Record a host's first key in the known_hosts file. Only called for hosts with no
    recorded key: paramiko itself refuses a key that differs from a recorded one."""

    def __init__(self, known_hosts: str) -> None:
        self.known_hosts = known_hosts

    def missing_host_key(self, client: Any, hostname: str, key: Any) -> None:
        line = f"{hostname} {key.get_name()} {key.get_base64()}\n"
        directory = os.path.dirname(self.known_hosts)
        with _known_hosts_lock:
            if directory:
                os.makedirs(directory, mode=0o700, exist_ok=True)
            with open(self.known_hosts, "a+b") as file:
                # append on a line of its own even when the file lacks a final newline
                end = file.seek(0, os.SEEK_END)
                if end:
                    file.seek(end - 1)
                    if file.read(1) != b"\n":
                        line = "\n" + line
                file.write(line.encode())
        logger.info(
            "recorded the new host key of %s (%s %s) in %s",
            hostname,
            key.get_name(),
            key.fingerprint,
            self.known_hosts,
        )


class SSHConnection:
    """One SSH connection to ``target``; commands and file transfers share it.

    ``connect`` is called by every operation and only connects when there is no live
    connection (the first time, or after the previous one broke). Safe to share between
    threads: each command and each file transfer uses a channel of its own.
    """

    def __init__(
        self,
        target: Target,
        *,
        known_hosts: str | None = None,
        accept_new_host_key: bool = False,
        allow_agent: bool = False,
        connect_timeout: float = 10.0,
    ) -> None:
        self.target = target
        self.known_hosts = os.path.expanduser(known_hosts or "~/.ssh/known_hosts")
        self.accept_new_host_key = accept_new_host_key
        self.allow_agent = allow_agent
        self.connect_timeout = connect_timeout
        self._client: Any = None
        self._lock = threading.Lock()
        self._sessions = threading.BoundedSemaphore(MAX_SESSIONS)

    def __repr__(self) -> str:
        return f"SSHConnection({self.target.label})"

    def __enter__(self) -> SSHConnection:
        self.connect()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- connecting -----------------------------------------------------------------------

    def connect(self) -> None:
        """Connect and authenticate, unless already connected. Raises ``HostKeyError`` or
        ``SSHError`` within ``connect_timeout`` seconds (TCP, handshake and login together)."""
        with self._lock:
            transport = self._client.get_transport() if self._client is not None else None
            if transport is not None and transport.is_active():
                return
            self._close_client()
            self._client = self._open_client()

    def close(self) -> None:
        """Close the connection; commands still running remotely are not waited for."""
        with self._lock:
            self._close_client()

    def _close_client(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def _open_client(self) -> Any:
        target, timeout = self.target, self.connect_timeout
        if target.key_file and not os.path.isfile(os.path.expanduser(target.key_file)):
            raise SSHError(f"{target.label}: the key file {target.key_file} does not exist")
        deadline = time.monotonic() + timeout
        sock = self._open_socket()
        client = paramiko.SSHClient()
        try:
            self._load_known_hosts(client)
            policy = _AcceptNewHostKey if self.accept_new_host_key else _RejectUnknownHostKey
            client.set_missing_host_key_policy(policy(self.known_hosts))
            self._login(client, sock, max(deadline - time.monotonic(), 0.01))
        except BaseException:
            client.close()
            sock.close()
            raise
        logger.debug("connected to %s", target.label)
        return client

    def _open_socket(self) -> socket.socket:
        target = self.target
        try:
            return socket.create_connection(
                (target.host, target.port), timeout=self.connect_timeout
            )
        except socket.gaierror as error:
            raise SSHError(f"{target.label}: cannot resolve {target.host!r}: {error}") from error
        except TimeoutError as error:
            raise SSHError(
                f"{target.label}: cannot connect: no answer within {self.connect_timeout} s"
            ) from error
        except OSError as error:
            raise SSHError(f"{target.label}: cannot connect: {error.strerror or error}") from error

    def _load_known_hosts(self, client: Any) -> None:
        # loaded as "system" keys: paramiko never writes those back, our policy appends
        if not os.path.exists(self.known_hosts):
            return
        try:
            client.load_system_host_keys(self.known_hosts)
        except (OSError, paramiko.SSHException) as error:
            raise HostKeyError(f"cannot read known_hosts {self.known_hosts}: {error}") from error

    def _login(self, client: Any, sock: socket.socket, timeout: float) -> None:
        """The SSH handshake, host key check and authentication, all within ``timeout``:
        paramiko's own timeouts apply to each step separately, so a watchdog shuts the
        socket down when the whole has taken too long."""
        target = self.target
        expired = threading.Event()

        def expire() -> None:
            expired.set()
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

        watchdog = threading.Timer(timeout, expire)
        watchdog.daemon = True
        watchdog.start()
        try:
            client.connect(
                target.host,
                target.port,
                username=target.login_user,
                key_filename=os.path.expanduser(target.key_file) if target.key_file else None,
                look_for_keys=target.key_file is None,
                allow_agent=self.allow_agent,
                sock=sock,
                timeout=timeout,
                banner_timeout=timeout,
                auth_timeout=timeout,
                channel_timeout=timeout,
            )
        except HostKeyError:
            raise
        except paramiko.BadHostKeyException as error:
            name = known_hosts_name(target.host, target.port)
            raise HostKeyError(
                f"{name}: the host key CHANGED: the server offers {error.key.get_name()} "
                f"{error.key.fingerprint}, {self.known_hosts} records "
                f"{error.expected_key.get_name()} {error.expected_key.fingerprint}; refusing to "
                "connect (if the host was reinstalled, remove its old line from that file)"
            ) from error
        except paramiko.AuthenticationException as error:
            raise SSHError(f"{target.label}: authentication failed: {error}") from error
        except (paramiko.SSHException, EOFError, OSError) as error:
            if expired.is_set():
                raise SSHError(
                    f"{target.label}: no SSH login within {self.connect_timeout} s "
                    "(the port answers but the handshake or login stalls)"
                ) from error
            raise SSHError(f"{target.label}: SSH handshake failed: {error}") from error
        finally:
            watchdog.cancel()
        if expired.is_set():  # the watchdog fired just as the login succeeded
            raise SSHError(f"{target.label}: no SSH login within {self.connect_timeout} s")

    def _transport(self) -> Any:
        self.connect()
        transport = self._client.get_transport() if self._client is not None else None
        if transport is None or not transport.is_active():
            raise SSHError(f"{self.target.label}: the connection closed")
        return transport

    # -- commands -------------------------------------------------------------------------

    def run(
        self, command: str, *, stdin: bytes | None = None, timeout: float = 30.0
    ) -> tuple[int, str, str]:
        """Run ``command`` with the remote user's shell and return ``(exit status, stdout,
        stderr)``, decoded as UTF-8 (undecodable bytes replaced).

        ``stdin`` is written in full, then closed (the command always sees end of input);
        it is never logged. Raises ``SSHCommandTimeout`` when the command has not finished
        after ``timeout`` seconds (waiting for a free session counts): the channel is
        closed, but the remote process may go on running (there is no terminal to hang
        up), so long-running commands should limit themselves. The exit status is -1 when
        the server sends none (a command killed by a signal).
        """
        label = self.target.label
        deadline = time.monotonic() + timeout
        logger.debug("%s: running %s", label, command)
        with self._session_slot(timeout, f"command {command}"):
            try:
                channel = self._transport().open_session(timeout=timeout)
            except (paramiko.SSHException, EOFError, OSError) as error:
                if isinstance(error, SSHError):
                    raise
                raise SSHError(f"{label}: cannot open a session: {error}") from error
            try:
                return _exchange(channel, command, stdin, deadline)
            except TimeoutError as error:
                raise SSHCommandTimeout(
                    f"{label}: command did not finish within {timeout} s: {command}"
                ) from error
            except (paramiko.SSHException, EOFError, OSError) as error:
                raise SSHError(f"{label}: the connection broke while running: {command}") from (
                    error
                )
            finally:
                channel.close()

    @contextlib.contextmanager
    def _session_slot(self, timeout: float, purpose: str) -> Iterator[None]:
        """Hold one of the ``MAX_SESSIONS`` sessions this connection may have open at once."""
        if not self._sessions.acquire(timeout=timeout):
            raise SSHCommandTimeout(
                f"{self.target.label}: no free SSH session within {timeout} s for {purpose} "
                f"({MAX_SESSIONS} in use)"
            )
        try:
            yield
        finally:
            self._sessions.release()

    # -- files ----------------------------------------------------------------------------

    def write_file(self, path: str, data: bytes, mode: int = 0o600) -> None:
        """Write ``data`` to ``path`` (absolute, or relative to the login directory) with
        permissions ``mode``, replacing the file atomically.

        The file is never readable by others with any other mode, not even while empty:
        it is written inside a fresh directory of mode 0700 next to ``path``, given
        ``mode``, and only then renamed into place. Missing directories, permissions and
        the like raise the matching ``OSError`` naming ``user@host:port:path``.
        """
        parent = posixpath.dirname(path) or "."
        staging = posixpath.join(parent, f".{posixpath.basename(path)}.{secrets.token_hex(6)}.tmp")
        staged = posixpath.join(staging, "data")
        with self._sftp(path) as sftp:
            sftp.mkdir(staging, mode=0o700)
            try:
                with sftp.open(staged, "wb") as file:
                    file.set_pipelined(True)  # no round trip per 32 KiB
                    file.write(data)
                sftp.chmod(staged, mode)
                sftp.posix_rename(staged, path)
            finally:
                try:
                    sftp.remove(staged)
                except OSError:
                    pass  # renamed into place: the usual case
                sftp.rmdir(staging)

    def read_file(self, path: str, max_bytes: int | None = None) -> bytes:
        """The content of ``path``; with ``max_bytes``, only its last ``max_bytes`` bytes
        (the tail of a log). A missing file raises ``FileNotFoundError``."""
        with self._sftp(path) as sftp, sftp.open(path, "rb") as file:
            size = file.stat().st_size or 0
            file.seek(0 if max_bytes is None else max(size - max_bytes, 0))
            file.prefetch(size)  # many reads in flight, not one round trip per 32 KiB
            data = bytes(file.read())
        if max_bytes is not None and len(data) > max_bytes:  # it grew since stat
            data = data[len(data) - max_bytes :]
        return data

    @contextlib.contextmanager
    def _sftp(self, path: str) -> Iterator[Any]:
        """An SFTP session whose errors name ``user@host:port:path``."""
        where = f"{self.target.label}:{path}"
        with self._session_slot(FILE_TIMEOUT, f"a transfer of {path}"):
            try:
                sftp = self._transport().open_sftp_client()
            except (paramiko.SSHException, EOFError) as error:
                raise SSHError(f"{where}: cannot start SFTP: {error}") from error
            try:
                sftp.get_channel().settimeout(FILE_TIMEOUT)
                yield sftp
            except TimeoutError as error:
                raise SSHError(f"{where}: no answer within {FILE_TIMEOUT} s") from error
            except (paramiko.SSHException, EOFError) as error:
                raise SSHError(f"{where}: the SFTP session broke: {error}") from error
            except OSError as error:
                if isinstance(error, SSHError) or not error.errno:
                    raise
                # paramiko's errors carry the server's text but not the file
                raise OSError(error.errno, os.strerror(error.errno), where) from error
            finally:
                sftp.close()


def _exchange(
    channel: Any, command: str, stdin: bytes | None, deadline: float
) -> tuple[int, str, str]:
    """Run ``command`` on a fresh session ``channel``; raises ``TimeoutError`` at ``deadline``."""
    stdout, stderr = bytearray(), bytearray()
    channel.settimeout(max(deadline - time.monotonic(), 0.01))
    channel.exec_command(command)
    if stdin:
        channel.sendall(stdin)
    channel.shutdown_write()
    # the exit status wakes this at once; meanwhile drain the output, which would
    # otherwise fill the SSH window and stall the command
    while not channel.status_event.wait(_POLL_INTERVAL):
        _drain(channel, stdout, stderr)
        if time.monotonic() > deadline:
            raise TimeoutError
    # the exit status comes after the output: read what is buffered, up to EOF
    channel.settimeout(max(deadline - time.monotonic(), 1.0))
    while chunk := channel.recv(_READ_SIZE):
        stdout += chunk
    while chunk := channel.recv_stderr(_READ_SIZE):
        stderr += chunk
    status = channel.recv_exit_status()
    if status == -1 and not channel.get_transport().is_active():
        raise EOFError("the connection closed")
    return status, _decode(stdout), _decode(stderr)


def _drain(channel: Any, stdout: bytearray, stderr: bytearray) -> None:
    while channel.recv_ready():
        stdout += channel.recv(_READ_SIZE)
    while channel.recv_stderr_ready():
        stderr += channel.recv_stderr(_READ_SIZE)


def _decode(data: bytes | bytearray) -> str:
    return bytes(data).decode("utf-8", errors="replace")
