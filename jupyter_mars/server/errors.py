"""The errors of the server extension, each with the HTTP status a handler answers it with.

The manager and the supervisor client raise them; ``handlers.py`` turns one into a JSON
error body (``models.error_model``) without knowing which it was.
"""

from __future__ import annotations


class ClusterError(Exception):
    """Something a request asked for cannot be done; ``str()`` says why, for the user."""

    status = 500


class InvalidRequest(ClusterError):
    """The request itself is wrong: a bad body, field or host list."""

    status = 400


class NotFound(ClusterError):
    """The request names something that does not exist, such as an execution."""

    status = 404


class Conflict(ClusterError):
    """The cluster is not in a state that allows this now (starting twice, scaling while
    stopped, ...)."""

    status = 409


class SupervisorError(ClusterError):
    """The cluster's supervisor could not be reached, or refused a call (its status is
    passed on for 4xx answers, 502 otherwise)."""

    def __init__(self, message: str, status: int = 502) -> None:
        super().__init__(message)
        self.status = status
