"""Request/response calls over comms, multiplexed by call id.

Messages (each a dict, pickled by the comm)::

    request  {"op": str, "id": int, "kwargs": Pickled(dict)}
    reply    {"id": int, "ok": True, "result": Pickled(value)}
             {"id": int, "ok": False, "error": Pickled(exception), "type": str, "message": str,
              "traceback": [frame, ...]}

Arguments, results and exceptions are ``Pickled`` separately from the envelope, so one
that cannot be unpickled on the other side fails its own call, with its id, rather than
making the message unreadable and the connection unusable. ``type`` and ``message`` are
plain strings so that an exception whose class does not exist at the caller can still be
reported, as ``RemoteError``. Tracebacks are never sent: they hold the server's paths.
The one exception is ``traceback``: the frames of the user's own code that a worker kept
on a failed task's error (``engine/remote_traceback.py``), sent beside the exception, as
its own pickling (a class's ``__reduce__``) may drop them, and set on it again here.
A handler's ``SystemExit`` or ``KeyboardInterrupt`` is answered as a ``RemoteError`` too:
no request can end the server's process, and no reply the caller's.

The server runs each request as its own task, so one slow handler does not hold up the
others on the same connection, and replies in completion order. The client keeps one
future per call id per connection; a connection that dies fails all of its futures with
``ConnectionError`` and is reopened by the next call. Calls are never retried: an
operation may have run even though its reply was lost.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import itertools
import logging
import sys
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from jupyter_mars.cluster.wire.comm.base import Comm, CommClosedError, ProtocolError
from jupyter_mars.cluster.wire.comm.frames import DEFAULT_MAX_FRAMES, DEFAULT_MAX_MESSAGE_SIZE
from jupyter_mars.cluster.wire.comm.tcp import Listener, connect, listen
from jupyter_mars.engine.remote_traceback import frames_of, set_frames, valid_frames
from jupyter_mars.engine.serialize import Pickled, loads

logger = logging.getLogger(__name__)

Handler = Callable[..., Awaitable[Any]]
"""An RPC operation: called with the request's keyword arguments, awaited for the reply."""

Connector = Callable[[str], Awaitable[Comm]]
"""Opens a comm to an address; ``RPCClient`` uses ``tcp.connect`` unless given another."""


class RemoteError(Exception):
    """Stands in for a remote exception that could not be sent or rebuilt as itself."""

    def __init__(self, type_name: str, message: str) -> None:
        super().__init__(type_name, message)
        self.type_name = type_name
        """The qualified name of the remote exception's class."""
        self.message = message
        """``str()`` of the remote exception."""

    def __str__(self) -> str:
        return f"{self.type_name}: {self.message}"


class UnknownOperationError(LookupError):
    """The server has no handler for the requested operation."""


def _type_name(exc: BaseException) -> str:
    cls = type(exc)
    return (
        cls.__qualname__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"
    )


def _error_reply(call_id: int, exc: BaseException) -> dict[str, Any]:
    """The reply for a failed call; the exception itself when it survives a round trip."""
    type_name, message = _type_name(exc), str(exc)
    try:
        # the exception alone: a library that teaches pickle to send tracebacks (tblib,
        # which Dask's distributed installs) would otherwise send frames and file paths
        bare = copy.copy(exc)
        bare.__traceback__ = bare.__context__ = bare.__cause__ = None
        error = Pickled.wrap(bare)
        loads(error.frames)  # e.g. a custom __init__ can pickle fine and fail to unpickle
    except Exception:
        error = Pickled.wrap(RemoteError(type_name, message))
    reply = {"id": call_id, "ok": False, "error": error, "type": type_name, "message": message}
    frames = frames_of(exc)
    if frames:
        reply["traceback"] = frames
    return reply


def _as_exception(exc: BaseException) -> Exception:
    """``exc`` as an ``Exception``: a ``SystemExit`` travels as a ``RemoteError``, so that
    it can never end the caller's process either."""
    if isinstance(exc, Exception):
        return exc
    return RemoteError(_type_name(exc), str(exc))


def _parse_request(msg: Any) -> tuple[str, int, Any] | None:
    """``(op, id, kwargs)`` of a well-formed request, else None."""
    if not isinstance(msg, dict):
        return None
    op, call_id, kwargs = msg.get("op"), msg.get("id"), msg.get("kwargs")
    if not isinstance(op, str) or type(call_id) is not int:
        return None
    if not isinstance(kwargs, Pickled | dict):
        return None
    return op, call_id, kwargs


class RPCServer:
    """Serves ``handlers`` by name to authenticated clients."""

    def __init__(
        self,
        handlers: Mapping[str, Handler],
        token: str,
        *,
        max_message_size: int = DEFAULT_MAX_MESSAGE_SIZE,
        max_frames: int = DEFAULT_MAX_FRAMES,
    ) -> None:
        self._handlers = dict(handlers)
        self._token = token
        self._limits = {"max_message_size": max_message_size, "max_frames": max_frames}
        self._listener: Listener | None = None
        self._calls: set[asyncio.Task[None]] = set()

    @property
    def address(self) -> str:
        """``"host:port"`` the server listens on; set by ``start``."""
        if self._listener is None:
            raise RuntimeError("the RPC server is not started")
        return self._listener.address

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        """Listen on ``host:port`` (0 picks a free port) and return the address."""
        if self._listener is not None:
            raise RuntimeError("the RPC server is already started")
        self._listener = await listen(host, port, self._token, self.serve, **self._limits)
        return self._listener.address

    async def stop(self) -> None:
        """Close every connection and cancel the calls in flight (clients see them fail)."""
        if self._listener is not None:
            listener, self._listener = self._listener, None
            await listener.stop()  # first, so no new call starts
        for task in list(self._calls):
            task.cancel()
        await asyncio.gather(*self._calls, return_exceptions=True)

    async def serve(self, comm: Comm) -> None:
        """Answer requests on ``comm`` until it closes (public so tests can use inproc comms)."""
        while True:
            try:
                msg = await comm.read()
            except ProtocolError as exc:
                logger.warning("dropping connection from %s: %s", comm.peer, exc)
                return
            except CommClosedError:
                return
            except Exception as exc:  # an envelope that does not unpickle
                logger.warning(
                    "dropping connection from %s: unreadable request (%r)", comm.peer, exc
                )
                await comm.close()
                return
            request = _parse_request(msg)
            if request is None:
                logger.warning("dropping connection from %s: malformed request", comm.peer)
                await comm.close()
                return
            task = asyncio.create_task(self._answer(comm, *request))
            self._calls.add(task)
            task.add_done_callback(self._calls.discard)

    async def _answer(self, comm: Comm, op: str, call_id: int, kwargs: Any) -> None:
        try:
            handler = self._handlers.get(op)
            if handler is None:
                raise UnknownOperationError(f"unknown operation {op!r}")
            arguments = kwargs.unwrap() if isinstance(kwargs, Pickled) else kwargs
            if not isinstance(arguments, dict):
                raise TypeError(f"keyword arguments of {op!r} must be a dict")
            reply = {"id": call_id, "ok": True, "result": Pickled.wrap(await handler(**arguments))}
        except asyncio.CancelledError:
            raise
        except BaseException as exc:
            # SystemExit or KeyboardInterrupt raised by a handler (a task calling sys.exit()
            # in a worker's slot) fails that call: left to escape, it would stop the
            # server's event loop, and the process with it, for one request
            logger.debug("operation %r from %s failed", op, comm.peer, exc_info=True)
            reply = _error_reply(call_id, _as_exception(exc))
        try:
            await comm.write(reply)
        except CommClosedError:
            logger.debug("reply to %r lost: connection to %s closed", op, comm.peer)
        except Exception as exc:  # e.g. a result over the message size limit
            try:
                await comm.write(_error_reply(call_id, exc))
            except Exception:  # nothing left to tell the caller with; it will time out
                logger.warning("could not reply to %r from %s", op, comm.peer, exc_info=True)


class _Channel:
    """One connection of an ``RPCClient`` and the calls waiting for replies on it."""

    def __init__(self, comm: Comm) -> None:
        self.comm = comm
        self.pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.reader = asyncio.create_task(self._read_replies())

    @property
    def alive(self) -> bool:
        return not self.comm.closed and not self.reader.done()

    async def _read_replies(self) -> None:
        reason: BaseException | None = None
        try:
            while True:
                reply = await self.comm.read()
                if not _is_reply(reply):
                    raise ProtocolError(f"malformed reply from {self.comm.peer}")
                future = self.pending.pop(reply["id"], None)
                if future is not None and not future.done():
                    future.set_result(reply)
        except Exception as exc:
            # the connection died or broke the protocol: the calls waiting are told below;
            # raising it as well would only log "Task exception was never retrieved" with a
            # traceback whenever the channel is dropped
            reason = exc
        except BaseException as exc:  # cancellation by RPCClient.close
            reason = exc
            raise
        finally:
            await self.comm.close()
            lost = CommClosedError(f"connection to {self.comm.peer} lost before the reply")
            lost.__cause__ = reason
            for future in self.pending.values():
                if not future.done():
                    future.set_exception(lost)
            self.pending.clear()


def _is_reply(msg: Any) -> bool:
    if not isinstance(msg, dict) or type(msg.get("id")) is not int:
        return False
    if msg.get("ok") is True:
        return isinstance(msg.get("result"), Pickled)
    return (
        msg.get("ok") is False
        and isinstance(msg.get("error"), Pickled)
        and isinstance(msg.get("type"), str)
        and isinstance(msg.get("message"), str)
    )


class RPCClient:
    """Calls operations on one server over ``n_channels`` lazily opened connections."""

    def __init__(
        self,
        address: str,
        token: str,
        n_channels: int = 1,
        timeout: float | None = None,
        *,
        connect_timeout: float = 10.0,
        max_message_size: int = DEFAULT_MAX_MESSAGE_SIZE,
        max_frames: int = DEFAULT_MAX_FRAMES,
        connector: Connector | None = None,
    ) -> None:
        if n_channels < 1:
            raise ValueError(f"n_channels must be at least 1, got {n_channels}")
        self.address = address
        """The server's ``"host:port"``."""
        self.timeout = timeout
        """Seconds a call may take, connecting included; None waits forever."""
        self._connector: Connector = connector or functools.partial(
            connect,
            token=token,
            timeout=connect_timeout,
            max_message_size=max_message_size,
            max_frames=max_frames,
        )
        self._channels: list[_Channel | None] = [None] * n_channels
        self._opening = [asyncio.Lock() for _ in range(n_channels)]
        self._next_slot = 0
        self._call_ids = itertools.count()
        self._closed = False

    async def call(self, op: str, /, **kwargs: Any) -> Any:
        """Run ``op(**kwargs)`` on the server and return its result.

        Raises the remote exception (same type and message; ``RemoteError`` when it
        could not be rebuilt here), ``ConnectionError`` when the connection fails or
        dies first, and ``TimeoutError`` after ``timeout`` seconds. Arguments that cannot
        be pickled, or exceed the message limits, raise here and nothing is sent.
        """
        if self._closed:
            raise CommClosedError(f"the RPC client for {self.address} is closed")
        loop = asyncio.get_running_loop()
        deadline = None if self.timeout is None else loop.time() + self.timeout
        call_id = next(self._call_ids)
        request = {"op": op, "id": call_id, "kwargs": Pickled.wrap(kwargs)}
        channel = await self._within(deadline, op, self._channel())
        future: asyncio.Future[dict[str, Any]] = loop.create_future()
        channel.pending[call_id] = future
        try:
            await self._within(deadline, op, channel.comm.write(request))
            reply = await self._within(deadline, op, future)
        finally:
            channel.pending.pop(call_id, None)
        return self._result(op, reply)

    async def close(self) -> None:
        """Close every connection; calls still waiting raise ``ConnectionError``."""
        self._closed = True
        channels = [channel for channel in self._channels if channel is not None]
        self._channels = [None] * len(self._channels)
        for channel in channels:
            channel.reader.cancel()
        await asyncio.gather(*(channel.reader for channel in channels), return_exceptions=True)

    async def _channel(self) -> _Channel:
        slot = self._next_slot
        self._next_slot = (slot + 1) % len(self._channels)
        async with self._opening[slot]:
            channel = self._channels[slot]
            if channel is None or not channel.alive:
                comm = await self._connector(self.address)
                if self._closed:
                    await comm.close()
                    raise CommClosedError(f"the RPC client for {self.address} is closed")
                channel = self._channels[slot] = _Channel(comm)
            return channel

    async def _within(self, deadline: float | None, op: str, step: Awaitable[Any]) -> Any:
        """Await ``step`` until ``deadline``; a ``TimeoutError`` names the call."""
        if deadline is None:
            return await step
        remaining = max(deadline - asyncio.get_running_loop().time(), 0.0)
        try:
            return await asyncio.wait_for(step, remaining)
        except asyncio.TimeoutError:
            raise TimeoutError(
                f"call {op!r} to {self.address} timed out after {self.timeout} s"
            ) from None

    def _result(self, op: str, reply: dict[str, Any]) -> Any:
        if reply["ok"]:
            return reply["result"].unwrap()
        try:
            exc = reply["error"].unwrap()
        except Exception:
            exc = None
        if not isinstance(exc, Exception):  # a peer's SystemExit must not end this process
            exc = RemoteError(reply["type"], reply["message"])
        if sys.version_info >= (3, 11):
            exc.add_note(f"(raised by operation {op!r} on {self.address})")
        set_frames(exc, valid_frames(reply.get("traceback")))
        raise exc
