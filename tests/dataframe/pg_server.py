"""A throwaway PostgreSQL server for tests: initdb in a temporary folder, loopback only.

``start_server`` finds the server binaries (``/usr/lib/postgresql/<version>/bin``, installing
them with ``scripts/install-postgres`` when missing and possible), creates a cluster in a
new temporary folder with trust authentication, and starts it with ``pg_ctl`` listening on
127.0.0.1 at a free port, with its Unix socket in the same folder. PostgreSQL refuses to
run as root, so under root the folder is given to the ``postgres`` system user (created
when missing) and the binaries run through ``runuser``. ``Server.stop`` stops the server
and deletes the folder.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

INSTALL_SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "install-postgres"
USER = "postgres"


class Unavailable(RuntimeError):
    """No PostgreSQL server can be started here; the message says why."""


def _version_key(path: str) -> tuple[int, ...]:
    version = Path(path).parent.parent.name
    return tuple(int(p) for p in version.split(".") if p.isdigit())


def find_binaries(install: bool = True) -> Path:
    """The newest ``bin`` folder holding ``initdb``, installing PostgreSQL if allowed."""
    found = glob.glob("/usr/lib/postgresql/*/bin/initdb")
    if not found and install and INSTALL_SCRIPT.exists():
        result = subprocess.run([str(INSTALL_SCRIPT)], capture_output=True, text=True)
        if result.returncode != 0:
            raise Unavailable(f"{INSTALL_SCRIPT} failed: {result.stderr.strip()}")
        found = glob.glob("/usr/lib/postgresql/*/bin/initdb")
    if not found:
        raise Unavailable(
            "PostgreSQL server binaries not found (no /usr/lib/postgresql/*/bin/initdb); "
            f"run {INSTALL_SCRIPT} as root"
        )
    return Path(max(found, key=_version_key)).parent


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_user() -> list[str]:
    """The command prefix that runs a binary as a user PostgreSQL accepts."""
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam(USER)
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER],
            check=True,
            capture_output=True,
        )
    return ["runuser", "-u", USER, "--"]


def _run(prefix: list[str], *args: str) -> None:
    result = subprocess.run([*prefix, *args], capture_output=True, text=True)
    if result.returncode != 0:
        raise Unavailable(f"{Path(args[0]).name} failed: {result.stdout}{result.stderr}")


@dataclass
class Server:
    """A running server; ``url`` reaches its ``postgres`` database as user ``postgres``."""

    url: str
    folder: str
    bin: Path
    prefix: list[str]
    start_seconds: float

    def stop(self) -> None:
        try:
            data = os.path.join(self.folder, "data")
            pg_ctl = str(self.bin / "pg_ctl")
            subprocess.run(
                [*self.prefix, pg_ctl, "-D", data, "-m", "fast", "-w", "-s", "stop"],
                capture_output=True,
                timeout=60,
            )
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


def start_server(attempts: int = 3) -> Server:
    """Initialise and start a server in a new temporary folder (see the module docstring)."""
    began = time.perf_counter()
    bin_dir = find_binaries()
    prefix = _as_user()
    folder = tempfile.mkdtemp(prefix="mars-pg-")
    if prefix:
        shutil.chown(folder, USER)
    data = os.path.join(folder, "data")
    try:
        _run(prefix, str(bin_dir / "initdb"), "-D", data, "-U", USER, "-A", "trust",
             "-E", "UTF8", "--no-locale", "--no-sync")  # fmt: skip
        for attempt in range(attempts):
            port = _free_port()
            options = f"-h 127.0.0.1 -p {port} -k {folder} -F -c fsync=off"
            log = os.path.join(folder, "server.log")
            try:
                _run(prefix, str(bin_dir / "pg_ctl"), "-D", data, "-l", log, "-o", options,
                     "-w", "-t", "30", "-s", "start")  # fmt: skip
            except Unavailable:
                if attempt == attempts - 1:  # another process may have taken the port
                    raise
                continue
            url = f"postgresql+psycopg://{USER}@127.0.0.1:{port}/postgres"
            return Server(url, folder, bin_dir, prefix, time.perf_counter() - began)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    raise AssertionError("unreachable")
