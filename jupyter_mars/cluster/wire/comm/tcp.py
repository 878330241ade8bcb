"""Comms over TCP: ``connect`` dials, ``listen`` accepts.

Every connection runs the handshake of ``auth.py`` first, over asyncio streams, and is
dropped (and logged, without the token) when it fails; no frame is parsed before that.
Only then is the transport handed to a ``FrameProtocol`` (``protocol.py``) and wrapped in a
``TCPComm``. Messages use the layout of ``frames.py``.

Each message is written whole under a lock, so concurrent writers never interleave, and
large frames are sent from their own memory, not copied into a pickle or a joined buffer
first. Each incoming frame is received into one preallocated ``bytearray`` and arrays
are built on it without a further copy (so they arrive writable, and own no memory
shared with anything else). Cancelling a ``read`` loses nothing, wherever it stands; a
cancelled ``write`` still sends its message whole.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, cast

from jupyter_mars.cluster.wire.comm.auth import client_handshake, server_handshake
from jupyter_mars.cluster.wire.comm.base import Comm, CommClosedError, ProtocolError
from jupyter_mars.cluster.wire.comm.frames import (
    DEFAULT_MAX_FRAMES,
    DEFAULT_MAX_MESSAGE_SIZE,
    FrameLimits,
    encode_message,
)
from jupyter_mars.cluster.wire.comm.protocol import FrameProtocol
from jupyter_mars.cluster.wire.comm.rejections import RejectionThrottle
from jupyter_mars.engine.serialize import dumps, loads

logger = logging.getLogger(__name__)

_STREAM_LIMIT = 2**20
"""Stream buffer high-water mark: large enough that big frames are read in few wake-ups."""

_CLOSE_GRACE = 1.0
"""Seconds ``close`` waits for buffered bytes to flush before dropping the connection."""


def parse_address(address: str) -> tuple[str, int]:
    """Split ``"host:port"`` (or ``"[v6 address]:port"``) into host and port."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise ValueError(f"expected an address 'host:port', got {address!r}")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    return host, int(port)


def format_address(host: str, port: int) -> str:
    """The inverse of ``parse_address``; IPv6 hosts get brackets."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _peer_name(writer: asyncio.StreamWriter) -> str:
    name: Any = writer.get_extra_info("peername")
    if isinstance(name, tuple) and len(name) >= 2:
        return format_address(str(name[0]), int(name[1]))
    return str(name)


async def _upgrade(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, limits: FrameLimits
) -> TCPComm:
    """Move an authenticated stream pair onto a ``FrameProtocol``."""
    transport = cast(asyncio.Transport, writer.transport)
    protocol = FrameProtocol(transport, limits)
    transport.set_protocol(protocol)
    # Bytes the stream already holds (the start of the peer's first message) go first.
    # With EOF fed, reading them does not suspend, so nothing can reach the new protocol
    # before them.
    reader.feed_eof()
    try:
        received = await reader.read()
    except OSError:  # the connection broke right after the handshake
        received = b""
    protocol.start(received)
    return TCPComm(writer, protocol, _peer_name(writer))


class TCPComm(Comm):
    """A ``Comm`` over an authenticated transport."""

    def __init__(self, writer: asyncio.StreamWriter, protocol: FrameProtocol, peer: str) -> None:
        # Held only to keep it alive: a StreamWriter closes its transport when collected.
        self._writer = writer
        self._transport = cast(asyncio.Transport, writer.transport)
        self._protocol = protocol
        self._peer = peer
        self._write_lock = asyncio.Lock()
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed or self._transport.is_closing()

    @property
    def peer(self) -> str:
        return self._peer

    async def read(self) -> Any:
        if self.closed:
            raise CommClosedError(f"comm to {self._peer} is closed")
        try:
            frames = await self._protocol.read_message()
        except ProtocolError as exc:
            self._abort()
            raise ProtocolError(f"{exc} (from {self._peer})") from None
        except OSError as exc:  # ConnectionError is an OSError
            self._abort()
            raise CommClosedError(f"connection to {self._peer} was closed") from exc
        return loads(frames)

    async def write(self, msg: Any) -> None:
        if self.closed:
            raise CommClosedError(f"comm to {self._peer} is closed")
        buffers = encode_message(dumps(msg), self._protocol.limits)
        async with self._write_lock:
            if self.closed:
                raise CommClosedError(f"comm to {self._peer} is closed")
            try:
                await self._protocol.write_message(buffers)
            except OSError as exc:
                self._abort()
                raise CommClosedError(f"connection to {self._peer} was closed") from exc

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._transport.close()
        try:
            await asyncio.wait_for(self._protocol.wait_closed(), _CLOSE_GRACE)
        except (asyncio.TimeoutError, OSError):
            self._protocol.abort()

    def _abort(self) -> None:
        self._closed = True
        self._protocol.abort()


async def connect(
    address: str,
    token: str,
    timeout: float = 10.0,
    *,
    max_message_size: int = DEFAULT_MAX_MESSAGE_SIZE,
    max_frames: int = DEFAULT_MAX_FRAMES,
) -> Comm:
    """Open an authenticated comm to ``address``; one attempt, no retries.

    ``timeout`` bounds the TCP connect and the handshake together, so a server that
    accepts and never answers raises ``TimeoutError`` too. Raises ``AuthenticationError``
    when the tokens differ and ``ConnectionError``/``OSError`` when nothing listens.
    """
    host, port = parse_address(address)
    limits = FrameLimits(max_message_size, max_frames)
    streams: list[asyncio.StreamWriter] = []

    async def open_and_authenticate() -> Comm:
        reader, writer = await asyncio.open_connection(host, port, limit=_STREAM_LIMIT)
        streams.append(writer)
        await client_handshake(reader, writer, token)
        return await _upgrade(reader, writer, limits)

    try:
        return await asyncio.wait_for(open_and_authenticate(), timeout)
    except BaseException as exc:
        for writer in streams:
            writer.transport.abort()
        if isinstance(exc, asyncio.TimeoutError):
            raise TimeoutError(f"connecting to {address} timed out after {timeout} s") from None
        if isinstance(exc, OSError) and not isinstance(exc, ConnectionError):
            # "No route to host", DNS failures...: to callers, all mean "peer unreachable".
            raise ConnectionError(f"cannot connect to {address}: {exc}") from exc
        raise


ConnectionHandler = Callable[[Comm], Awaitable[None]]
"""Serves one authenticated comm; the listener closes the comm when it returns."""


class Listener:
    """Accepts connections, authenticates them and hands each comm to a handler."""

    def __init__(
        self,
        host: str,
        token: str,
        handler: ConnectionHandler,
        limits: FrameLimits,
        handshake_timeout: float,
    ) -> None:
        self._host = host
        self._token = token
        self._handler = handler
        self._limits = limits
        self._handshake_timeout = handshake_timeout
        self._server: asyncio.AbstractServer | None = None
        self._port = 0
        self._comms: set[Comm] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._rejections = RejectionThrottle()

    @property
    def port(self) -> int:
        """The bound port (the real one when listening on port 0)."""
        return self._port

    @property
    def address(self) -> str:
        """``"host:port"`` with the host as given to ``listen``."""
        return format_address(self._host, self._port)

    async def _start(self, port: int) -> None:
        self._server = await asyncio.start_server(
            self._on_connection, self._host, port, limit=_STREAM_LIMIT
        )
        self._port = int(self._server.sockets[0].getsockname()[1])

    async def stop(self) -> None:
        """Stop accepting, close every live comm and end the handlers still running."""
        if self._server is None:
            return
        server, self._server = self._server, None
        server.close()
        await asyncio.gather(*(comm.close() for comm in list(self._comms)))
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await server.wait_closed()

    async def _on_connection(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            await self._authenticate_and_serve(reader, writer)
        finally:
            self._tasks.discard(task)

    async def _authenticate_and_serve(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        peer = _peer_name(writer)
        try:
            await asyncio.wait_for(
                server_handshake(reader, writer, self._token), self._handshake_timeout
            )
        except (Exception, asyncio.CancelledError) as exc:
            writer.transport.abort()
            if isinstance(exc, asyncio.CancelledError):
                raise
            # Only our own messages and the exception type are logged: never the token.
            left_out = self._rejections.admit(peer.rpartition(":")[0], time.monotonic())
            if left_out is not None:
                level = logging.WARNING if isinstance(exc, ConnectionError) else logging.INFO
                since = f" ({left_out} more from that host since the last one logged)"
                logger.log(
                    level,
                    "rejected connection from %s: %s%s",
                    peer,
                    _describe(exc),
                    since if left_out else "",
                )
            return
        comm = await _upgrade(reader, writer, self._limits)
        self._comms.add(comm)
        try:
            await self._handler(comm)
        except Exception:
            logger.exception("connection handler for %s failed", peer)
        finally:
            self._comms.discard(comm)
            await comm.close()


def _describe(exc: BaseException) -> str:
    if isinstance(exc, asyncio.TimeoutError):
        return "authentication timed out"
    if isinstance(exc, asyncio.IncompleteReadError):
        return "peer hung up during authentication"
    return f"{type(exc).__name__}: {exc}"


async def listen(
    host: str,
    port: int,
    token: str,
    handler: ConnectionHandler,
    *,
    max_message_size: int = DEFAULT_MAX_MESSAGE_SIZE,
    max_frames: int = DEFAULT_MAX_FRAMES,
    handshake_timeout: float = 10.0,
) -> Listener:
    """Listen on ``host:port`` (port 0 picks a free one) and serve each comm with ``handler``.

    A client that fails authentication, or does not finish it within
    ``handshake_timeout`` seconds, is disconnected before the handler sees it.
    """
    if not token:
        raise ValueError("the cluster token must not be empty")
    listener = Listener(
        host, token, handler, FrameLimits(max_message_size, max_frames), handshake_timeout
    )
    await listener._start(port)
    return listener
