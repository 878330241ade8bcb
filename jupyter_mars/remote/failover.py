"""Finding the active supervisor among those a client knows of.

Every supervisor answers ``GET /api/v1/cluster``, standbys included, with ``active`` and
the list of supervisors with their web addresses as it knows them; the client asks each
address it knows until one says it is active, learning new addresses on the way.

It waits (until a deadline) only while a failover can still happen: while some address
does not answer in time (a host or network may come back) or answers as a standby. When
every known address refuses the connection, no supervisor of the cluster runs any more,
and it says so at once (``NothingListens``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from jupyter_mars.remote.http import HttpClient, NothingListens

POLL_INTERVAL = 0.2
"""Seconds between two rounds over the known supervisors."""
_WILDCARD_HOSTS = ("0.0.0.0", "::", "[::]", "")


def web_urls(cluster: Any) -> list[str]:
    """The web URLs of the supervisors a cluster model lists (those with a known one).

    A supervisor listening on every interface reports ``0.0.0.0:port``: its RPC address's
    host is used instead, since it answers there. The supervisors of a cluster share
    their ``--web-base-path``, which the model names.
    """
    supervisors = cluster.get("supervisors") if isinstance(cluster, dict) else None
    base_path = cluster.get("web_base_path", "/") if isinstance(cluster, dict) else "/"
    base = base_path.rstrip("/") if isinstance(base_path, str) else ""
    urls = []
    for entry in supervisors if isinstance(supervisors, list) else []:
        web = entry.get("web") if isinstance(entry, dict) else None
        if not isinstance(web, str) or ":" not in web:
            continue
        host, _, port = web.rpartition(":")
        if host in _WILDCARD_HOSTS:
            host = str(entry.get("address", "")).rpartition(":")[0] or "127.0.0.1"
        urls.append(f"http://{host}:{port}{base}")
    return urls


def find_active(
    known: list[str],
    token: str | None,
    deadline: float,
    request_timeout: float = 1.0,
    pause: Callable[[float], None] = time.sleep,
) -> tuple[str, dict[str, Any]]:
    """The URL and cluster model of the first supervisor in ``known`` that is active.

    Asks every known URL in turn, adding to ``known`` (in place) those the answers name,
    with a ``pause`` between rounds, until ``time.monotonic()`` passes ``deadline``; then
    raises ``ConnectionError``. Raises ``NothingListens`` after the first round in which
    every known URL refused the connection.
    """
    while True:
        refused = 0
        for url in list(known):
            try:
                model = HttpClient(url, token, request_timeout).json("GET", "/api/v1/cluster")
            except NothingListens:
                refused += 1
                continue
            except (ConnectionError, PermissionError, RuntimeError, ValueError):
                continue
            for other in web_urls(model):
                if other not in known:
                    known.append(other)
            # a supervisor of one, older than several-supervisor support, is active
            if isinstance(model, dict) and model.get("active", True):
                return url, model
        if refused == len(known):
            raise NothingListens("nothing listens at " + ", ".join(known) + " any more")
        if time.monotonic() >= deadline:
            raise ConnectionError(
                "no active jupyter_mars supervisor among " + ", ".join(known) + " answers"
            )
        pause(POLL_INTERVAL)
