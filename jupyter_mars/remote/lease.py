"""A remote session's lease on its supervisor, kept alive while the client lives.

The supervisor closes a session, freeing its results on every worker, once its client has
not been heard from for the session timeout (``cluster/supervisor/sessions.py``). While the
client lives, a daemon thread sends a keep-alive a few times per timeout; when the
process ends (a script's end, a kernel restart) or its network goes, the keep-alives stop
and the supervisor frees the session after the timeout. A process that exits normally
closes its sessions at once (``weakref.finalize`` runs at interpreter exit).

The lease only reads the supervisor and session it is given (``target``): the session
points it at a new one after a failover. It holds no reference to the session, so it
never keeps one alive.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from jupyter_mars.remote.http import HttpClient, SessionGone

logger = logging.getLogger(__name__)

RENEWALS_PER_TIMEOUT = 4
"""Keep-alives sent per session timeout: a few may be lost before the session is."""
MAX_INTERVAL = 60.0
"""Longest wait between two keep-alives, in seconds, whatever the timeout."""


def renew_interval(session_timeout: float) -> float:
    """Seconds between keep-alives for a supervisor that closes silent sessions after
    ``session_timeout`` seconds.

    >>> renew_interval(300.0), renew_interval(2.0), renew_interval(3600.0)
    (60.0, 0.5, 60.0)
    """
    return min(session_timeout / RENEWALS_PER_TIMEOUT, MAX_INTERVAL)


class Lease:
    """Sends keep-alives for one session from a daemon thread until ``stop``."""

    def __init__(self, http: HttpClient, session_id: str, session_timeout: float) -> None:
        self._lock = threading.Lock()
        self._target = (http, session_id)
        self._interval = renew_interval(session_timeout)
        self._stopped = threading.Event()
        self.ended: str | None = None
        """Set once a keep-alive found the session gone (said once in the log)."""
        self._thread = threading.Thread(target=self._run, name="mars-session-lease", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def retarget(self, http: HttpClient, session_id: str, session_timeout: float) -> None:
        """Keep the session opened on another supervisor alive from now on."""
        with self._lock:
            self._target = (http, session_id)
            self._interval = renew_interval(session_timeout)
            self.ended = None

    def stop(self) -> None:
        self._stopped.set()

    def close_session(self) -> None:
        """Stop the keep-alives and close the session now (at exit, or by ``close()``)."""
        self.stop()
        http, session_id = self.target
        try:
            http.json("DELETE", f"/api/v1/sessions/{session_id}")
        except (ConnectionError, RuntimeError, PermissionError):
            pass  # gone already, with the supervisor or by expiry

    @property
    def target(self) -> tuple[HttpClient, str]:
        with self._lock:
            return self._target

    def _run(self) -> None:
        while not self._stopped.wait(self._interval):
            http, session_id = self.target
            try:
                http.json("POST", f"/api/v1/sessions/{session_id}/keepalive")
            except SessionGone as error:
                if self.target == (http, session_id) and self.ended is None:
                    self.ended = f"session {session_id} was closed by the cluster"
                    logger.warning(
                        "%s (%s): it did not hear from this client for its session timeout; "
                        "the next request opens another session, and results of this one "
                        "are computed again when fetched",
                        self.ended,
                        error,
                    )
            except ConnectionError:
                continue  # passing, or a failover the session's next request handles
            except Exception:  # noqa: BLE001 - the keep-alive must outlive odd answers
                logger.debug("keep-alive of session %s failed", session_id, exc_info=True)


def session_timeout_of(model: Any, default: float) -> float:
    """The session timeout a supervisor announced when a session was opened (older
    supervisors announce none: ``default``)."""
    value = model.get("session_timeout") if isinstance(model, dict) else None
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return float(value)
    return default
