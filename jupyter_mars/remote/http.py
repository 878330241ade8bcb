"""A small JSON/binary HTTP client for the supervisor's API (one connection per call).

Every failure to reach a supervisor, a standby's 503, and a 404 for a session the
supervisor no longer has, is a ``ConnectionError``: the one signal on which a session
looks for the active supervisor (and opens a session there).
"""

from __future__ import annotations

import http.client
import json
from typing import Any
from urllib.parse import urlsplit

from jupyter_mars.engine import pieces
from jupyter_mars.remote.tokens import read_token_file

BODY_BYTES_PER_SECOND = 50e6
"""The slowest rate at which a supervisor is expected to take in and read a request's
body: each byte adds its share to the time a call waits for an answer."""


class NothingListens(ConnectionError):
    """The supervisor's address refused the connection: no process listens there (it
    stopped), as opposed to one that does not answer in time (a host or network down)."""


class SupervisorUnavailable(ConnectionError):
    """The supervisor answered 503: it stands by while another one is active."""


class SessionGone(ConnectionError):
    """The supervisor answered that it has no such session: it was restarted, or it
    closed the session (its client was silent for longer than its lease). The client
    opens another one, as after a failover."""


class HttpClient:
    def __init__(self, url: str, token: str | None, timeout: float) -> None:
        parts = urlsplit(url)
        if parts.scheme != "http" or not parts.hostname or not parts.port:
            raise ValueError(f"address must look like 'http://host:port', got {url!r}")
        self.prefix = parts.path.rstrip("/")
        """The path the supervisor's web service is served under (``--web-base-path``)."""
        self.url = f"http://{parts.hostname}:{parts.port}{self.prefix}"
        self.host, self.port = parts.hostname, parts.port
        self.token = token
        self.timeout = timeout

    def request(
        self, method: str, path: str, body: bytes | None = None, content_type: str | None = None
    ) -> http.client.HTTPResponse:
        """Send a request; the caller reads the response and then ``close``s it."""
        # a large body (a graph carrying arrays made here) takes the supervisor time to
        # take in and read before it answers: the wait grows with it
        timeout = self.timeout + (len(body) / BODY_BYTES_PER_SECOND if body else 0.0)
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        headers = {"Authorization": f"token {self.token or ''}", "Connection": "close"}
        if content_type:
            headers["Content-Type"] = content_type
        try:
            conn.request(method, self.prefix + path, body=body, headers=headers)
            response = conn.getresponse()
        except ConnectionRefusedError:
            raise NothingListens(
                f"no jupyter_mars supervisor answers at {self.url}: nothing listens there "
                "(connection refused)"
            ) from None
        except (OSError, http.client.HTTPException) as exc:
            raise ConnectionError(
                f"no jupyter_mars supervisor answers at {self.url} ({exc})"
            ) from None
        finally:
            # the response keeps its own reference to the socket until it is closed
            conn.close()
        return response

    def json(self, method: str, path: str, body: Any = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        response = self.request(method, path, data, "application/json" if data else None)
        return self.check(response)

    def check(self, response: http.client.HTTPResponse) -> Any:
        """The JSON body of a response, or the error it reports, raised."""
        try:
            with response:
                payload = response.read()
        except (OSError, http.client.HTTPException) as exc:
            raise ConnectionError(f"the supervisor at {self.url} went away ({exc})") from None
        if response.status == 401:
            raise PermissionError(f"the supervisor at {self.url} refused the cluster token")
        try:
            model = json.loads(payload or b"null")
        except ValueError:
            model = None
        if response.status >= 400:
            message = model.get("error") if isinstance(model, dict) else None
            error = f"{self.url}: HTTP {response.status}: {message or 'error'}"
            if response.status == 503:
                raise SupervisorUnavailable(error)
            if response.status == 404 and str(message).startswith("no session"):
                raise SessionGone(error)
            raise RuntimeError(error)
        return model


def read_piece(response: http.client.HTTPResponse) -> Any:
    """The next object of a data stream (``pieces``' format)."""

    def read_into(view: memoryview) -> int:
        try:
            return response.readinto(view)
        except (OSError, http.client.HTTPException) as exc:
            raise ConnectionError(f"the result stream broke ({exc})") from None

    return pieces.read_piece(read_into)


def token_for(address: str) -> str | None:
    """The token a local supervisor stored for this address, if it did."""
    parts = urlsplit(address)
    if not parts.hostname or not parts.port:
        return None
    return read_token_file(f"{parts.hostname}:{parts.port}")
