"""How the training tasks find each other: through a service in this process (the driver).

XGBoost's tracker (``xgboost.tracker.RabitTracker``) runs here, and so does the
``Rendezvous`` where LightGBM's workers tell each other the address each listens on
(LightGBM needs all of them, ``machines``, before any connects). Both listen on
``driver_host(session)``: the address of this machine that the session's workers reach,
the one its route to the cluster's supervisor leaves from (loopback for the embedded
session). The workers must be able to connect to this machine, as a dask client's
workers connect to its scheduler.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from typing import Any
from urllib.parse import urlsplit

__all__ = ["CONNECT_TIMEOUT", "Rendezvous", "driver_host", "join", "reserve_port"]

CONNECT_TIMEOUT = 300
"""Seconds the trainers wait for each other to start before giving up with an error: a
trainer that cannot start (its worker's slots taken by other work for that long) fails
the training rather than keep the others waiting for ever."""


def driver_host(session: Any) -> str:
    """The address of this machine that ``session``'s workers reach: loopback for a
    session without a remote address (the embedded one), else the one the route to that
    address leaves from (a cluster's supervisor, a Ray cluster's head)."""
    address = getattr(session, "address", None)
    if not isinstance(address, str) or not address:
        return "127.0.0.1"
    host = urlsplit(address if "//" in address else f"//{address}").hostname or "127.0.0.1"
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect((host, 9))  # no packet is sent: this only picks the route
            return str(probe.getsockname()[0])
    except OSError:  # a name that does not resolve, no route: this machine's own name
        try:
            return socket.gethostbyname(socket.gethostname())
        except OSError:
            return "127.0.0.1"


def reserve_port() -> socket.socket:
    """A socket bound to a free port of every interface: the port is this worker's until
    the socket is closed, just before LightGBM listens on it. It does not listen itself:
    a peer connecting meanwhile is refused, and LightGBM tries again; one accepted here
    would be reset when the socket closes, and LightGBM gives up on that."""
    held = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    held.bind(("", 0))
    return held


class Rendezvous:
    """A service that waits for ``n`` workers to say where they listen, then tells each
    of them all the addresses, in the order of the indices they gave (``join``).

    ``address`` is where it listens (``host:port``); ``close()`` stops it, and answers
    the workers still waiting with an error. It fails them the same way when not all
    came within ``timeout`` seconds.
    """

    def __init__(self, n: int, host: str, timeout: float = CONNECT_TIMEOUT) -> None:
        self.n = n
        self.timeout = timeout
        self._server = socket.create_server((host, 0))
        self._server.settimeout(0.2)
        self.address = f"{host}:{self._server.getsockname()[1]}"
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="mars-rendezvous", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        deadline = time.monotonic() + self.timeout
        joined: list[tuple[socket.socket, int, str]] = []
        try:
            while len(joined) < self.n:
                if self._closed.is_set() or time.monotonic() > deadline:
                    reason = "closed" if self._closed.is_set() else "timed out"
                    came = f"{len(joined)} of {self.n} workers came ({reason})"
                    self._answer(joined, {"error": came})
                    return
                try:
                    conn, _ = self._server.accept()
                except TimeoutError:
                    continue
                conn.settimeout(self.timeout)
                try:
                    said = json.loads(_read_line(conn))
                except (OSError, ValueError):
                    conn.close()
                    continue
                joined.append((conn, int(said["index"]), f"{said['host']}:{said['port']}"))
            machines = [address for _, _, address in sorted(joined, key=lambda j: j[1])]
            self._answer(joined, {"machines": machines})
        finally:
            self._server.close()

    @staticmethod
    def _answer(joined: list[tuple[socket.socket, int, str]], message: dict[str, Any]) -> None:
        payload = (json.dumps(message) + "\n").encode()
        for conn, _, _ in joined:
            with contextlib.suppress(OSError):
                conn.sendall(payload)
            conn.close()

    def close(self) -> None:
        self._closed.set()
        self._thread.join()

    def __enter__(self) -> Rendezvous:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def join(
    address: str, index: int, port: int, timeout: float = CONNECT_TIMEOUT
) -> tuple[list[str], str]:
    """Tell the ``Rendezvous`` at ``address`` that worker ``index`` listens on ``port``
    (of the address it reaches the rendezvous from); every worker's ``host:port`` once
    all came, by index, and this one's."""
    host, service = address.rsplit(":", 1)
    # the answer comes once all came: the rendezvous gives up after its own timeout
    with socket.create_connection((host, int(service)), timeout=timeout + 30) as conn:
        own_host = conn.getsockname()[0]
        said = {"index": index, "host": own_host, "port": port}
        conn.sendall((json.dumps(said) + "\n").encode())
        answer = json.loads(_read_line(conn))
    if "error" in answer:
        raise ConnectionError(f"the workers could not all meet: {answer['error']}")
    return list(answer["machines"]), f"{own_host}:{port}"


def _read_line(conn: socket.socket) -> str:
    data = b""
    while not data.endswith(b"\n"):
        chunk = conn.recv(4096)
        if not chunk:
            raise ConnectionError("the connection closed before a whole line came")
        data += chunk
    return data.decode()
