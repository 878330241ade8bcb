"""comm: the TCP transport (handshake, framing, limits) and the in-process pair."""

from __future__ import annotations

import asyncio
import gc
import logging
import socket
import struct
import time
import tracemalloc
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import msgpack
import numpy as np
import pytest

from jupyter_mars.cluster.wire.comm import (
    AuthenticationError,
    Comm,
    CommClosedError,
    Listener,
    MessageTooLargeError,
    ProtocolError,
    connect,
    inproc_pair,
    listen,
)
from jupyter_mars.cluster.wire.comm.auth import MAGIC, NONCE_SIZE, client_handshake
from jupyter_mars.cluster.wire.comm.frames import FrameLimits, encode_message
from jupyter_mars.cluster.wire.comm.rejections import RejectionThrottle
from jupyter_mars.cluster.wire.comm.tcp import format_address, parse_address
from jupyter_mars.engine.serialize import Pickled, dumps
from tests.fresh_interpreter import run_in_fresh_interpreter

TOKEN = "s3cret-cluster-token"


async def echo(comm: Comm) -> None:
    while True:
        try:
            msg = await comm.read()
        except CommClosedError:
            return
        await comm.write(msg)


@asynccontextmanager
async def serving(
    handler: Callable[[Comm], Awaitable[None]] = echo, token: str = TOKEN, **options: Any
) -> AsyncIterator[Listener]:
    listener = await listen("127.0.0.1", 0, token, handler, **options)
    try:
        yield listener
    finally:
        await listener.stop()


@asynccontextmanager
async def raw_server(
    on_connection: Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]],
) -> AsyncIterator[str]:
    """A plain TCP server standing in for a misbehaving peer."""
    writers: list[asyncio.StreamWriter] = []

    async def wrapped(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writers.append(writer)
        await on_connection(reader, writer)

    server = await asyncio.start_server(wrapped, "127.0.0.1", 0)
    try:
        yield f"127.0.0.1:{server.sockets[0].getsockname()[1]}"
    finally:
        server.close()
        for writer in writers:
            writer.transport.abort()
        await server.wait_closed()


async def authenticated_raw_stream(
    address: str, token: str = TOKEN
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    host, port = parse_address(address)
    reader, writer = await asyncio.open_connection(host, port)
    await client_handshake(reader, writer, token)
    return reader, writer


async def assert_echo_works(address: str) -> None:
    comm = await connect(address, TOKEN)
    try:
        await comm.write({"ping": 1})
        assert await comm.read() == {"ping": 1}
    finally:
        await comm.close()


# ---- addresses ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("address", "host", "port"),
    [("127.0.0.1:80", "127.0.0.1", 80), ("[::1]:8080", "::1", 8080), ("node-3:0", "node-3", 0)],
)
def test_addresses_parse_and_format(address: str, host: str, port: int) -> None:
    assert parse_address(address) == (host, port)
    assert format_address(host, port) == address


@pytest.mark.parametrize("address", ["localhost", ":80", "host:", "host:http"])
def test_bad_addresses_are_rejected(address: str) -> None:
    with pytest.raises(ValueError, match="host:port"):
        parse_address(address)


# ---- round trips ----------------------------------------------------------------------


def test_tcp_round_trips_python_objects_and_arrays() -> None:
    async def main() -> None:
        async with serving() as listener:
            assert listener.port > 0
            assert listener.address == f"127.0.0.1:{listener.port}"
            comm = await connect(listener.address, TOKEN)
            assert comm.peer == listener.address
            messages = [
                None,
                {"op": "x", "kwargs": {"a": [1, 2.5, "s", b"b"]}},
                np.arange(100).reshape(10, 10).T,
                [np.ones(3, dtype=np.float32), np.array(["a", "b"])],
                lambda x: x + 1,
            ]
            for msg in messages:
                await comm.write(msg)
                got = await comm.read()
                if callable(msg):
                    assert got(1) == 2
                elif isinstance(msg, list):
                    for a, b in zip(got, msg):
                        np.testing.assert_array_equal(a, b)
                else:
                    np.testing.assert_array_equal(got, msg)
            await comm.close()
            assert comm.closed
            with pytest.raises(CommClosedError):
                await comm.read()

    asyncio.run(main())


def test_tcp_over_ipv6_loopback() -> None:
    if not socket.has_ipv6:
        pytest.skip("no IPv6")
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback")

    async def main() -> None:
        listener = await listen("::1", 0, TOKEN, echo)
        try:
            assert listener.address == f"[::1]:{listener.port}"
            await assert_echo_works(listener.address)
        finally:
            await listener.stop()

    asyncio.run(main())


def test_large_array_arrives_equal() -> None:
    array = np.random.default_rng(0).random(8 * 2**20)  # 64 MiB

    async def main() -> None:
        async with serving() as listener:
            comm = await connect(listener.address, TOKEN)
            await comm.write({"chunk": array})
            got = (await comm.read())["chunk"]
            await comm.close()
        np.testing.assert_array_equal(got, array)
        assert got.flags.writeable
        assert not np.shares_memory(got, array)

    asyncio.run(main())


def test_concurrent_writes_do_not_interleave() -> None:
    arrays = [np.full(50_000 + i, i, dtype=np.int64) for i in range(20)]

    async def main() -> None:
        async with serving() as listener:
            comm = await connect(listener.address, TOKEN)
            await asyncio.gather(*(comm.write(a) for a in arrays))
            received = [await comm.read() for _ in arrays]
            await comm.close()
        assert sorted(len(r) for r in received) == [len(a) for a in arrays]
        for r in received:
            assert (r == len(r) - 50_000).all()

    asyncio.run(main())


def test_cancelling_an_idle_read_keeps_the_comm_usable() -> None:
    async def main() -> None:
        async with serving() as listener:
            comm = await connect(listener.address, TOKEN)
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(comm.read(), 0.05)
            await comm.write("still here")
            assert await comm.read() == "still here"
            await comm.close()

    asyncio.run(main())


# ---- authentication -------------------------------------------------------------------


@pytest.mark.parametrize(("client_token", "server_token"), [("wrong", TOKEN), (TOKEN, "wrong")])
def test_wrong_token_is_refused_and_server_keeps_serving(
    client_token: str, server_token: str, caplog: pytest.LogCaptureFixture
) -> None:
    calls: list[Comm] = []

    async def handler(comm: Comm) -> None:
        calls.append(comm)
        await echo(comm)

    async def main() -> None:
        async with serving(handler, token=server_token) as listener:
            with pytest.raises(AuthenticationError) as info:
                await connect(listener.address, client_token)
            assert TOKEN not in str(info.value)
            assert "wrong" not in str(info.value)
            assert isinstance(info.value, ConnectionError)
            assert calls == []
            # the same server still serves a client with its token
            comm = await connect(listener.address, server_token)
            await comm.write(1)
            assert await comm.read() == 1
            await comm.close()
            assert len(calls) == 1

    with caplog.at_level(logging.INFO):
        asyncio.run(main())
    assert "rejected connection" in caplog.text
    assert TOKEN not in caplog.text


def test_client_rejects_a_server_that_cannot_prove_the_token() -> None:
    async def impostor(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(MAGIC + b"n" * NONCE_SIZE)
        answer = await reader.readexactly(64)
        writer.write(answer[:32])  # reflect the client's own proof back
        await writer.drain()
        await reader.read()

    async def main() -> None:
        async with raw_server(impostor) as address:
            with pytest.raises(AuthenticationError, match="server failed to prove"):
                await connect(address, TOKEN)

    asyncio.run(main())


def test_client_rejects_a_peer_that_is_not_a_comm() -> None:
    async def web_server(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"HTTP/1.1 400 Bad Request\r\n\r\n" + b" " * 64)
        await writer.drain()
        await reader.read()

    async def main() -> None:
        async with raw_server(web_server) as address:
            with pytest.raises(ProtocolError, match="does not speak"):
                await connect(address, TOKEN)

    asyncio.run(main())


def test_server_drops_garbage_before_authentication_without_echo() -> None:
    calls: list[Comm] = []

    async def handler(comm: Comm) -> None:
        calls.append(comm)

    async def main() -> None:
        async with serving(handler) as listener:
            reader, writer = await asyncio.open_connection("127.0.0.1", listener.port)
            hello = await reader.readexactly(len(MAGIC) + NONCE_SIZE)
            assert hello.startswith(MAGIC)
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n".ljust(64, b"\0"))
            assert await reader.read() == b""  # closed, nothing sent back
            writer.close()
            await writer.wait_closed()
            assert calls == []

    asyncio.run(main())


def test_server_drops_a_client_that_never_authenticates() -> None:
    async def main() -> None:
        async with serving(handshake_timeout=0.2) as listener:
            reader, writer = await asyncio.open_connection("127.0.0.1", listener.port)
            start = time.monotonic()
            await reader.readexactly(len(MAGIC) + NONCE_SIZE)
            assert await asyncio.wait_for(reader.read(), 5) == b""
            assert time.monotonic() - start < 3
            writer.close()
            await writer.wait_closed()

    asyncio.run(main())


def test_empty_token_is_refused() -> None:
    async def main() -> None:
        with pytest.raises(ValueError, match="empty"):
            await listen("127.0.0.1", 0, "", echo)

    asyncio.run(main())


# ---- connect failures -----------------------------------------------------------------


def test_connect_times_out_on_a_server_that_never_answers() -> None:
    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read()

    async def main() -> None:
        async with raw_server(silent) as address:
            start = time.monotonic()
            with pytest.raises(TimeoutError, match="timed out"):
                await connect(address, TOKEN, timeout=0.2)
            assert time.monotonic() - start < 2

    asyncio.run(main())


def test_connect_to_a_closed_port_raises_connection_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(ConnectionError):
        asyncio.run(connect(f"127.0.0.1:{port}", TOKEN, timeout=2))


# ---- framing and limits ---------------------------------------------------------------


@pytest.mark.parametrize(
    "garbage",
    [
        struct.pack("<Q", 2**40),  # an absurd header length
        struct.pack("<Q", 5) + b"\xc1\xc1\xc1\xc1\xc1",  # not msgpack
        struct.pack("<Q", 1) + b"\x01",  # msgpack, but not a header
        struct.pack("<Q", 10) + b"\x81\xa5sizes\x91\xcf\xff",  # truncated integer
        struct.pack("<Q", 9) + b"\x81\xa5sizes\x91\xff",  # a negative size
        struct.pack("<Q", 17) + b"\x81\xa5sizes\x91\xcf" + struct.pack(">Q", 2**62),
    ],
    ids=["huge-length", "not-msgpack", "not-a-map", "truncated", "negative-size", "huge-frame"],
)
def test_garbage_header_closes_only_that_connection(
    garbage: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    errors: list[BaseException] = []

    async def handler(comm: Comm) -> None:
        try:
            await comm.read()
        except CommClosedError as exc:
            errors.append(exc)

    async def main() -> None:
        async with serving(handler) as listener:
            bystander = await connect(listener.address, TOKEN)
            reader, writer = await authenticated_raw_stream(listener.address)
            writer.write(garbage)
            assert await asyncio.wait_for(reader.read(), 5) == b""
            writer.close()
            await writer.wait_closed()
            assert len(errors) == 1
            assert not bystander.closed
            await bystander.close()

    asyncio.run(main())
    assert isinstance(errors[0], ProtocolError)


def test_frame_sizes_over_the_receivers_limit_close_the_connection() -> None:
    async def main() -> None:
        async with serving(max_message_size=1000) as listener:
            comm = await connect(listener.address, TOKEN)  # the client's limit is larger
            await comm.write(np.zeros(1000))
            with pytest.raises(CommClosedError):
                await comm.read()
            await comm.close()
            await assert_echo_works(listener.address)

    asyncio.run(main())


def test_writing_over_the_limits_raises_and_keeps_the_comm() -> None:
    async def main() -> None:
        async with serving() as listener:
            comm = await connect(listener.address, TOKEN, max_message_size=10_000, max_frames=3)
            with pytest.raises(MessageTooLargeError, match="bytes"):
                await comm.write(np.zeros(2_000))
            with pytest.raises(MessageTooLargeError, match="frames"):
                await comm.write([np.zeros(1), np.zeros(1), np.zeros(1)])
            with socket.socket() as sock, pytest.raises(TypeError):
                await comm.write(sock)
            await comm.write("fine")
            assert await comm.read() == "fine"
            await comm.close()

    asyncio.run(main())


def test_limits_must_be_positive() -> None:
    with pytest.raises(ValueError, match="positive"):
        FrameLimits(max_message_size=0)


# ---- stopping -------------------------------------------------------------------------


def test_listener_stop_closes_live_comms() -> None:
    async def main() -> None:
        listener = await listen("127.0.0.1", 0, TOKEN, echo)
        comm = await connect(listener.address, TOKEN)
        pending = asyncio.ensure_future(comm.read())
        await asyncio.sleep(0.01)
        await listener.stop()
        with pytest.raises(CommClosedError):
            await asyncio.wait_for(pending, 5)
        await comm.close()
        with pytest.raises(ConnectionError):
            await connect(listener.address, TOKEN, timeout=2)

    asyncio.run(main())


# ---- in-process pair ------------------------------------------------------------------


def test_inproc_pair_round_trips_through_pickle() -> None:
    async def main() -> None:
        left, right = inproc_pair()
        array = np.arange(10)
        await left.write({"array": array})
        got = (await right.read())["array"]
        np.testing.assert_array_equal(got, array)
        assert not np.shares_memory(got, array)
        assert got.flags.writeable  # as over TCP
        await right.write("back")
        assert await left.read() == "back"
        assert left.peer != right.peer

    asyncio.run(main())


def test_inproc_catches_unpicklable_payloads() -> None:
    async def main() -> None:
        left, _right = inproc_pair()
        with socket.socket() as sock, pytest.raises(TypeError):
            await left.write({"socket": sock})

    asyncio.run(main())


def test_inproc_close_delivers_sent_messages_then_fails() -> None:
    async def main() -> None:
        left, right = inproc_pair()
        await left.write(1)
        await left.write(2)
        await left.close()
        assert left.closed
        assert [await right.read(), await right.read()] == [1, 2]
        with pytest.raises(CommClosedError):
            await right.read()
        assert right.closed
        with pytest.raises(CommClosedError):
            await right.write(3)

    asyncio.run(main())


def test_inproc_close_wakes_a_pending_reader() -> None:
    async def main() -> None:
        left, _right = inproc_pair()
        pending = asyncio.ensure_future(left.read())
        await asyncio.sleep(0)
        await left.close()
        with pytest.raises(CommClosedError):
            await pending

    asyncio.run(main())


def test_inproc_enforces_limits() -> None:
    async def main() -> None:
        left, _right = inproc_pair(FrameLimits(max_message_size=100))
        with pytest.raises(MessageTooLargeError):
            await left.write(b"x" * 1000)

    asyncio.run(main())


def test_rejections_of_one_host_are_logged_once_then_counted() -> None:
    throttle = RejectionThrottle(interval=60.0)
    assert throttle.admit("10.0.0.1", 0.0) == 0
    assert [throttle.admit("10.0.0.1", t) for t in (1.0, 2.0, 30.0)] == [None] * 3
    assert throttle.admit("10.0.0.2", 2.0) == 0  # another host is logged at once
    assert throttle.admit("10.0.0.1", 61.0) == 3
    assert throttle.admit("10.0.0.1", 62.0) is None


def test_a_peer_retrying_a_wrong_token_is_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    async def handler(comm: Comm) -> None:
        await comm.close()

    async def main() -> None:
        async with serving(handler, token=TOKEN) as listener:
            for _ in range(5):
                with pytest.raises(AuthenticationError):
                    await connect(listener.address, "another token")

    with caplog.at_level(logging.INFO, logger="jupyter_mars.cluster.wire.comm.tcp"):
        asyncio.run(main())
    assert caplog.text.count("rejected connection") == 1


# ---- connections closed mid-frame -----------------------------------------------------


async def _send_to_a_peer_that_hangs_up(array: np.ndarray) -> bool:
    """Write ``array`` nested as the RPC layer nests results to a peer that reads a little
    of it and hangs up; whether the write failed as a closed comm."""
    failed = asyncio.Event()

    async def handler(comm: Comm) -> None:
        try:
            await comm.write({"id": 1, "ok": True, "result": Pickled.wrap({"chunk": array})})
        except CommClosedError:
            failed.set()

    async with serving(handler) as listener:
        reader, writer = await authenticated_raw_stream(listener.address)
        await reader.readexactly(2**20)
        writer.transport.abort()
        await asyncio.wait_for(failed.wait(), 30)
    return failed.is_set()


def writes_cut_off_mid_frame() -> None:
    """Scenario (run in its own process): replies cut off by peers that die mid-frame,
    then a collection of what the failed writes left in reference cycles."""
    array = np.arange(4 * 2**20, dtype=np.float64)  # 32 MiB: more than the socket buffers
    for _ in range(5):
        assert asyncio.run(_send_to_a_peer_that_hangs_up(array))
        gc.collect()
    assert (array == np.arange(4 * 2**20)).all(), "the sent array was changed"


def test_a_write_cut_off_mid_frame_fails_and_its_buffers_are_freed_safely() -> None:
    stderr = run_in_fresh_interpreter(__name__, writes_cut_off_mid_frame.__name__)
    assert "BufferError" not in stderr


def test_a_read_cut_off_mid_frame_delivers_what_came_whole_and_drops_the_rest() -> None:
    frame_size = 64 * 2**20
    header = msgpack.packb({"sizes": [frame_size]})
    results: list[Any] = []

    async def handler(comm: Comm) -> None:
        results.append(await comm.read())
        try:
            await comm.read()
        except CommClosedError as exc:
            results.append(exc)
        gc.collect()
        # the comm is still referenced here: the half-received frame must not be
        results.append(tracemalloc.get_traced_memory()[0])
        results.append(comm.closed)

    async def main() -> None:
        async with serving(handler) as listener:
            reader, writer = await authenticated_raw_stream(listener.address)
            whole = dumps_message({"first": np.ones(2**16)})
            writer.write(whole + struct.pack("<Q", len(header)) + header)
            writer.write(b"\x00" * (frame_size // 2))
            await writer.drain()
            writer.transport.abort()
            deadline = time.monotonic() + 30
            while len(results) < 4 and time.monotonic() < deadline:
                await asyncio.sleep(0.05)

    tracemalloc.start()
    try:
        asyncio.run(main())
    finally:
        tracemalloc.stop()
    first, error, held, closed = results
    np.testing.assert_array_equal(first["first"], np.ones(2**16))
    assert isinstance(error, CommClosedError)
    assert held < frame_size // 4, f"{held} bytes still held after the connection was lost"
    assert closed


def dumps_message(msg: Any) -> bytes:
    """``msg`` as one message on the wire."""
    return b"".join(bytes(b) for b in encode_message(dumps(msg), FrameLimits()))


def test_a_write_to_a_peer_that_closes_its_end_mid_frame_fails_as_a_closed_comm() -> None:
    # The peer's end-of-stream closes the transport gracefully: it finishes sending what it
    # holds, then is torn down under the message still being written.
    raised: list[BaseException] = []

    async def handler(comm: Comm) -> None:
        try:
            await comm.write({"chunk": np.ones(4 * 2**20)})  # 32 MiB
        except BaseException as exc:
            raised.append(exc)
            raise

    async def main() -> None:
        async with serving(handler) as listener:
            reader, writer = await authenticated_raw_stream(listener.address)
            await reader.readexactly(2**20)
            writer.write_eof()
            while await reader.read(2**20):  # keep reading: the server's sends succeed
                pass
            writer.close()
            deadline = time.monotonic() + 30
            while not raised and time.monotonic() < deadline:
                await asyncio.sleep(0.01)

    asyncio.run(main())
    assert len(raised) == 1
    assert isinstance(raised[0], CommClosedError), repr(raised[0])
