"""The asyncio protocol a ``TCPComm`` runs on once its connection is authenticated.

Reading: the protocol parses the layout of ``frames.py`` as bytes arrive and queues whole
messages. While a large frame is being received, ``get_buffer`` hands the transport the
unfilled tail of that frame's ``bytearray``, so the kernel writes straight into it and
no byte is copied in user space; length prefixes, headers and small frames go through a
small scratch buffer, so a burst of small messages costs one ``recv``. Reading pauses
while more than ``_QUEUE_HIGH_WATER`` bytes of messages wait for a reader. A bad header
stops the parsing and is raised, after the messages before it, by ``read_message``.
Cancelling ``read_message`` loses nothing: the bytes keep landing in the protocol. A
connection lost mid-message drops that message's buffers at once.

Writing: ``write_message`` sends small buffers joined and large frames in chunks, each
handed to the transport only once its buffer is empty, so the transport sends them from
the frame's own memory instead of copying the frame into its buffer. If the writing task
is cancelled midway, the rest of the message is queued at once (copied), so a message
always goes out whole. Once the connection is going (a send failed, or the peer ended its
stream and the transport closes), the write fails with ``ConnectionResetError`` at its
next chunk: the rest of the message never goes to a dead or torn-down transport.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Sequence

from jupyter_mars.cluster.wire.comm.base import ProtocolError
from jupyter_mars.cluster.wire.comm.frames import LENGTH, FrameLimits, parse_header
from jupyter_mars.engine.serialize import Frame, empty_frame, frame_nbytes

_SCRATCH_SIZE = 2**16
"""Bytes read at once when no large frame is being received."""

_DIRECT_MIN = 2**14
"""A frame with at least this many bytes left is received in place."""

_QUEUE_HIGH_WATER = 2**21
"""Reading pauses while more than this many bytes of whole messages wait for a reader."""

_WRITE_CHUNK = 2**20
"""Bytes of a large frame handed to the transport at once."""


class FrameProtocol(asyncio.BufferedProtocol):
    """Whole messages in and out of one authenticated transport."""

    def __init__(self, transport: asyncio.Transport, limits: FrameLimits) -> None:
        self._transport = transport
        self.limits = limits
        """What a message may contain, checked both ways."""
        self._loop = asyncio.get_running_loop()
        self._scratch = memoryview(bytearray(_SCRATCH_SIZE))
        self._direct = False
        # parsing state: a prefix or header is gathered in _partial; a frame in _frame
        self._need = LENGTH.size
        self._in_header = False
        self._partial = bytearray()
        self._sizes: list[int] = []
        self._frames: list[Frame] = []
        self._frame: memoryview | None = None
        self._filled = 0
        # whole messages waiting for a reader
        self._messages: collections.deque[tuple[list[Frame], int]] = collections.deque()
        self._queued_bytes = 0
        self._reading_paused = False
        self._read_waiter: asyncio.Future[None] | None = None
        self._error: ConnectionError | None = None
        # writing
        self._writing_paused = False
        self._drain_waiter: asyncio.Future[None] | None = None
        self._lost = False
        self._closed: asyncio.Future[None] = self._loop.create_future()
        # resume writing only once the transport's buffer is empty (see write_message)
        transport.set_write_buffer_limits(high=0, low=0)

    def start(self, received: bytes) -> None:
        """Take over the connection, with the bytes already read from it."""
        if received:
            self._feed(memoryview(received))
        if self._transport.is_closing():
            self.connection_lost(None)

    # ---- reading -------------------------------------------------------------------

    async def read_message(self) -> list[Frame]:
        """The next message's frames; raises ``ConnectionError`` once none can come."""
        while not self._messages:
            if self._error is not None:
                raise self._error
            waiter = self._loop.create_future()
            self._read_waiter = waiter
            try:
                await waiter
            finally:
                self._read_waiter = None
        frames, nbytes = self._messages.popleft()
        self._queued_bytes -= nbytes
        if self._reading_paused and self._queued_bytes <= _QUEUE_HIGH_WATER:
            self._reading_paused = False
            self._transport.resume_reading()
        return frames

    def get_buffer(self, sizehint: int) -> memoryview:
        frame = self._frame
        if frame is not None and len(frame) - self._filled >= _DIRECT_MIN:
            self._direct = True
            return frame[self._filled :]
        self._direct = False
        return self._scratch

    def buffer_updated(self, nbytes: int) -> None:
        if not self._direct:
            self._feed(self._scratch[:nbytes])
            return
        assert self._frame is not None
        self._filled += nbytes
        if self._filled == len(self._frame):
            self._next_frame()

    def _feed(self, data: memoryview) -> None:
        pos, end = 0, len(data)
        while pos < end and self._error is None:
            frame = self._frame
            if frame is not None:
                take = min(len(frame) - self._filled, end - pos)
                frame[self._filled : self._filled + take] = data[pos : pos + take]
                self._filled += take
                pos += take
                if self._filled == len(frame):
                    self._next_frame()
            else:
                take = min(self._need - len(self._partial), end - pos)
                self._partial += data[pos : pos + take]
                pos += take
                if len(self._partial) == self._need:
                    self._prefix_or_header_done()

    def _prefix_or_header_done(self) -> None:
        raw, self._partial = bytes(self._partial), bytearray()
        try:
            if not self._in_header:
                (header_size,) = LENGTH.unpack(raw)
                if header_size > self.limits.max_header_size:
                    raise ProtocolError(f"message header of {header_size} bytes is too large")
                self._in_header, self._need = True, int(header_size)
                if self._need == 0:
                    self._prefix_or_header_done()
                return
            self._sizes = parse_header(raw, self.limits)
        except ProtocolError as exc:
            self._fail(exc)
            return
        self._in_header, self._need = False, LENGTH.size
        self._frames = []
        self._next_frame()

    def _next_frame(self) -> None:
        """Finish the frame just filled (if any) and start the next non-empty one."""
        if self._frame is not None:
            self._frame = None
        while len(self._frames) < len(self._sizes):
            frame = empty_frame(self._sizes[len(self._frames)])
            self._frames.append(frame)
            if frame:
                self._frame, self._filled = memoryview(frame), 0
                return
        frames, nbytes = self._frames, sum(self._sizes)
        self._frames, self._sizes = [], []
        self._messages.append((frames, nbytes))
        self._queued_bytes += nbytes
        if self._queued_bytes > _QUEUE_HIGH_WATER and not self._reading_paused:
            self._reading_paused = True
            self._transport.pause_reading()
        self._wake_reader()

    def _fail(self, error: ConnectionError) -> None:
        """Stop parsing; ``read_message`` raises ``error`` after the queued messages."""
        if self._error is None:
            self._error = error
            # the message being received can never complete: drop its buffers now rather
            # than when the comm is collected (it may be a frame of gigabytes)
            self._frame, self._frames, self._sizes = None, [], []
            self._partial = bytearray()
            if not self._lost and not self._reading_paused:
                self._reading_paused = True
                self._transport.pause_reading()
        self._wake_reader()

    def _wake_reader(self) -> None:
        if self._read_waiter is not None and not self._read_waiter.done():
            self._read_waiter.set_result(None)

    def eof_received(self) -> bool | None:
        return None  # close the transport; connection_lost follows

    def connection_lost(self, exc: Exception | None) -> None:
        if self._lost:
            return
        self._lost = True
        error = ConnectionResetError("connection lost")
        error.__cause__ = exc
        self._fail(error)
        waiter = self._drain_waiter
        if waiter is not None and not waiter.done():
            waiter.set_exception(ConnectionResetError("connection lost"))
        if not self._closed.done():
            self._closed.set_result(None)

    # ---- writing -------------------------------------------------------------------

    async def write_message(self, buffers: Sequence[Frame]) -> None:
        """Send ``buffers`` in order and wait until the transport has taken them all."""
        small: list[Frame] = []
        for index, buffer in enumerate(buffers):
            if frame_nbytes(buffer) < _WRITE_CHUNK:
                small.append(buffer)
                continue
            if small:
                self._send(b"".join(small))
                small = []
            view = memoryview(buffer).cast("B")
            for start in range(0, len(view), _WRITE_CHUNK):
                try:
                    await self.drain()
                except asyncio.CancelledError:
                    if not self._going:
                        self._send(view[start:])
                        for rest in buffers[index + 1 :]:
                            self._send(rest)
                    raise
                self._send(view[start : start + _WRITE_CHUNK])
        if small:
            self._send(b"".join(small))
        await self.drain()

    @property
    def _going(self) -> bool:
        """Whether the connection is lost or closing: nothing more can be sent on it."""
        return self._lost or self._transport.is_closing()

    def _send(self, data: Frame) -> None:
        """Hand ``data`` to the transport, unless the connection is going.

        A send that failed closes the transport at once but reports the loss only on the
        next loop turn; a transport closed gracefully (the peer ended its stream) is torn
        down once it has sent what it held, possibly in the turn that woke ``drain``.
        Writing to either would send the rest of the message nowhere, or raise
        ``AttributeError`` from the torn-down transport.
        """
        if self._going:
            raise ConnectionResetError("connection lost")
        self._transport.write(data)

    def abort(self) -> None:
        """Drop the connection now, unless it is already gone (aborting a transport that
        was torn down raises ``AttributeError``)."""
        if not self._lost:
            self._transport.abort()

    async def drain(self) -> None:
        """Wait until the transport's write buffer is empty."""
        if self._going:  # see _send
            raise ConnectionResetError("connection lost")
        if not self._writing_paused:
            return
        waiter = self._loop.create_future()
        self._drain_waiter = waiter
        try:
            await waiter
        finally:
            self._drain_waiter = None

    def pause_writing(self) -> None:
        self._writing_paused = True

    def resume_writing(self) -> None:
        self._writing_paused = False
        waiter = self._drain_waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def wait_closed(self) -> None:
        """Wait until the connection is gone."""
        await asyncio.shield(self._closed)
