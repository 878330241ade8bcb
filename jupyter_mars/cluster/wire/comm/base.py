"""The message channel every transport implements, and the errors it raises.

A ``Comm`` moves whole Python objects between two endpoints, in order. Supervisors and
workers are written against this interface only, so tests can swap TCP for the in-process
pair (``inproc.py``) without touching them.

Concurrency: any number of tasks may ``write`` at once (each message goes out whole); only
one task may ``read`` at a time, as a comm has a single incoming stream.
"""

from __future__ import annotations

import abc
from typing import Any


class CommClosedError(ConnectionError):
    """The comm is closed, or the peer went away, so the message cannot be read or written."""


class ProtocolError(CommClosedError):
    """The peer sent bytes that break the wire format; the connection has been closed."""


class MessageTooLargeError(ValueError):
    """A message to write exceeds the size or frame-count limits; nothing was written.

    The comm stays usable: only the offending message is refused.
    """


class Comm(abc.ABC):
    """A bidirectional, ordered channel of Python objects."""

    @abc.abstractmethod
    async def read(self) -> Any:
        """The next message; raises ``CommClosedError`` once the channel is closed."""

    @abc.abstractmethod
    async def write(self, msg: Any) -> None:
        """Send ``msg``; raises ``CommClosedError`` if the channel is closed.

        ``msg`` is pickled before this returns control, so pickling errors (and
        ``MessageTooLargeError``) are raised here and leave the comm usable. Buffers the
        message shares (NumPy arrays) must not be mutated until ``write`` returns.
        """

    @abc.abstractmethod
    async def close(self) -> None:
        """Close the channel; idempotent. A pending ``read`` raises ``CommClosedError``."""

    @property
    @abc.abstractmethod
    def closed(self) -> bool:
        """Whether the channel is known to be closed (by either side)."""

    @property
    @abc.abstractmethod
    def peer(self) -> str:
        """A printable name of the other endpoint, for logs and errors."""

    def __repr__(self) -> str:
        state = "closed" if self.closed else "open"
        return f"<{type(self).__name__} peer={self.peer} {state}>"
