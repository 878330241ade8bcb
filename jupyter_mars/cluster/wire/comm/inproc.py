"""Two connected comms in one event loop, for tests of code written against ``Comm``.

Messages still go through ``dumps``/``loads`` and the frame limits, and the frames are
copied into fresh ``bytearray``s as TCP delivers them, so a test fails here on exactly
what would fail over TCP: an unpicklable payload, an oversized message, a sender and a
receiver that assume they share an array.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

from jupyter_mars.cluster.wire.comm.base import Comm, CommClosedError
from jupyter_mars.cluster.wire.comm.frames import FrameLimits, encode_message
from jupyter_mars.engine.serialize import Frame, dumps, loads

_CLOSED = None
"""Queued behind the last message when a side closes; readers stop on it."""

_pair_ids = itertools.count()


class InProcComm(Comm):
    """One end of an ``inproc_pair``."""

    def __init__(self, peer: str, limits: FrameLimits) -> None:
        self._peer = peer
        self._limits = limits
        self._inbox: asyncio.Queue[list[Frame] | None] = asyncio.Queue()
        self._other: InProcComm | None = None
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def peer(self) -> str:
        return self._peer

    async def read(self) -> Any:
        if self._closed:
            raise CommClosedError(f"comm to {self._peer} is closed")
        frames = await self._inbox.get()
        if frames is _CLOSED:
            self._closed = True
            raise CommClosedError(f"comm to {self._peer} was closed")
        return loads(frames)

    async def write(self, msg: Any) -> None:
        other = self._other
        if self._closed or other is None or other._closed:
            raise CommClosedError(f"comm to {self._peer} is closed")
        buffers = encode_message(dumps(msg), self._limits)
        # Skip the length-and-header buffer; copy the frames as the kernel would.
        other._inbox.put_nowait([bytearray(frame) for frame in buffers[1:]])

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._inbox.put_nowait(_CLOSED)  # wakes our own pending reader
        if self._other is not None and not self._other._closed:
            self._other._inbox.put_nowait(_CLOSED)  # after the messages already sent


def inproc_pair(limits: FrameLimits | None = None) -> tuple[Comm, Comm]:
    """Two comms wired to each other: what one writes, the other reads."""
    limits = limits or FrameLimits()
    name = f"inproc://{next(_pair_ids)}"
    left = InProcComm(f"{name}/1", limits)
    right = InProcComm(f"{name}/0", limits)
    left._other, right._other = right, left
    return left, right
