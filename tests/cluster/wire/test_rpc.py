"""rpc: calls multiplexed over authenticated comms, remote errors, failures and timeouts."""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

import numpy as np
import pytest

from jupyter_mars.cluster.wire.comm import (
    AuthenticationError,
    Comm,
    CommClosedError,
    MessageTooLargeError,
    connect,
    inproc_pair,
)
from jupyter_mars.cluster.wire.rpc import (
    Handler,
    RemoteError,
    RPCClient,
    RPCServer,
    UnknownOperationError,
    _error_reply,
)
from jupyter_mars.engine.remote_traceback import frames_of, set_frames
from jupyter_mars.engine.serialize import Pickled, dumps

TOKEN = "rpc-test-token"


class CustomError(Exception):
    """Pickles and unpickles as itself."""


class UnbuildableError(Exception):
    """Pickles, but cannot be rebuilt from its args (a common mistake in the wild)."""

    def __init__(self, code: int, detail: str) -> None:
        super().__init__(f"code {code}: {detail}")

    def __reduce__(self) -> tuple[Any, ...]:
        # spelled out, as BaseException's own: a library that teaches pickle to rebuild
        # such exceptions from their attributes (tblib, once installed) would mend it
        return (type(self), self.args)


class Calls:
    """Handlers that record what they were asked."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.release = asyncio.Event()

    async def echo(self, **kwargs: Any) -> Any:
        self.seen.append("echo")
        return kwargs

    async def sleep(self, delay: float) -> float:
        await asyncio.sleep(delay)
        return delay

    async def block(self) -> None:
        await self.release.wait()

    async def fail(self, kind: str) -> None:
        if kind == "value":
            raise ValueError("bad value 42")
        if kind == "key":
            raise KeyError("missing-chunk")
        if kind == "custom":
            raise CustomError("custom message")
        if kind == "unbuildable":
            raise UnbuildableError(7, "disk full")
        if kind == "timeout":
            raise TimeoutError("the remote side timed out")
        if kind == "users":  # a failed task's error, as a worker reports it
            error = json.JSONDecodeError("bad json", "{", 1)  # pickles without its __dict__
            set_frames(error, [["/home/me/analysis.py", 12, "parse", "json.loads(text)"]])
            raise error
        raise NotImplementedError(kind)

    async def array(self, n: int) -> np.ndarray:
        return np.arange(n, dtype=np.float64)

    def handlers(self) -> Mapping[str, Handler]:
        return {
            "echo": self.echo,
            "sleep": self.sleep,
            "block": self.block,
            "fail": self.fail,
            "array": self.array,
        }

    async def closed_socket(self) -> Any:
        sock = socket.socket()
        sock.close()
        return sock


@asynccontextmanager
async def serving(calls: Calls, **options: Any) -> AsyncIterator[RPCServer]:
    handlers = dict(calls.handlers())
    handlers["socket"] = calls.closed_socket
    server = RPCServer(handlers, TOKEN, **options)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


def test_call_round_trips_over_tcp() -> None:
    async def main() -> None:
        calls = Calls()
        async with serving(calls) as server:
            assert server.address.startswith("127.0.0.1:")
            client = RPCClient(server.address, TOKEN)
            assert await client.call("echo", a=1, b=[2, "three"]) == {"a": 1, "b": [2, "three"]}
            # "op" is positional-only, so handlers may take an argument of that name
            assert await client.call("echo", op="inner") == {"op": "inner"}
            array = await client.call("array", n=1000)
            np.testing.assert_array_equal(array, np.arange(1000.0))
            await client.close()

    asyncio.run(main())


def test_large_array_arguments_and_results() -> None:
    payload = np.random.default_rng(1).random(8 * 2**20)  # 64 MiB

    async def main() -> None:
        calls = Calls()
        async with serving(calls) as server:
            client = RPCClient(server.address, TOKEN)
            result = await client.call("echo", chunk=payload)
            await client.close()
        np.testing.assert_array_equal(result["chunk"], payload)

    asyncio.run(main())


def test_concurrent_calls_on_one_channel_complete_out_of_order() -> None:
    async def main() -> None:
        calls = Calls()
        async with serving(calls) as server:
            client = RPCClient(server.address, TOKEN, n_channels=1)
            finished: list[float] = []

            async def call(delay: float) -> None:
                finished.append(await client.call("sleep", delay=delay))

            start = time.monotonic()
            await asyncio.gather(call(0.3), call(0.15), call(0.0))
            assert finished == [0.0, 0.15, 0.3]
            assert time.monotonic() - start < 0.45 + 0.5  # ran together, not one after another
            await client.close()

    asyncio.run(main())


def test_channels_are_opened_lazily_and_used_round_robin() -> None:
    class CountingServer(RPCServer):
        connections = 0

        async def serve(self, comm: Comm) -> None:
            CountingServer.connections += 1
            await super().serve(comm)

    async def main() -> None:
        server = CountingServer(Calls().handlers(), TOKEN)
        address = await server.start()
        client = RPCClient(address, TOKEN, n_channels=3)
        await asyncio.sleep(0.01)
        assert CountingServer.connections == 0
        await client.call("echo")
        assert CountingServer.connections == 1
        await asyncio.gather(*(client.call("echo") for _ in range(6)))
        assert CountingServer.connections == 3
        await client.close()
        await server.stop()

    asyncio.run(main())


@pytest.mark.parametrize(
    ("kind", "exc_type", "message"),
    [
        ("value", ValueError, "bad value 42"),
        ("key", KeyError, "missing-chunk"),
        ("custom", CustomError, "custom message"),
        ("timeout", TimeoutError, "the remote side timed out"),
    ],
)
def test_remote_exceptions_keep_their_type(
    kind: str, exc_type: type[Exception], message: str
) -> None:
    async def main() -> None:
        async with serving(Calls()) as server:
            client = RPCClient(server.address, TOKEN, timeout=5)
            with pytest.raises(exc_type, match=message) as info:
                await client.call("fail", kind=kind)
            assert type(info.value) is exc_type
            assert await client.call("echo", after="error") == {"after": "error"}
            await client.close()

    asyncio.run(main())


def test_unrebuildable_exception_arrives_as_remote_error() -> None:
    async def main() -> None:
        async with serving(Calls()) as server:
            client = RPCClient(server.address, TOKEN)
            with pytest.raises(RemoteError, match="code 7: disk full") as info:
                await client.call("fail", kind="unbuildable")
            assert info.value.type_name.endswith("test_rpc.UnbuildableError")
            await client.close()

    asyncio.run(main())


def test_error_reply_carries_no_traceback_or_paths() -> None:
    try:
        raise ValueError("boom")
    except ValueError as exc:
        error = exc
    assert error.__traceback__ is not None
    sent = b"".join(bytes(frame) for frame in dumps(_error_reply(3, error)))
    assert __file__.encode() not in sent
    assert b"test_rpc.py" not in sent


def test_the_frames_of_the_users_code_kept_on_an_error_travel_beside_it() -> None:
    async def main() -> None:
        async with serving(Calls()) as server:
            client = RPCClient(server.address, TOKEN)
            with pytest.raises(json.JSONDecodeError) as info:
                await client.call("fail", kind="users")
            assert frames_of(info.value) == [
                ["/home/me/analysis.py", 12, "parse", "json.loads(text)"]
            ]
            with pytest.raises(ValueError, match="bad value") as plain:  # no frames kept: none sent
                await client.call("fail", kind="value")
            assert frames_of(plain.value) == []
            await client.close()

    asyncio.run(main())


def test_unknown_op_and_bad_arguments_are_errors_not_disconnects() -> None:
    async def main() -> None:
        async with serving(Calls()) as server:
            client = RPCClient(server.address, TOKEN)
            with pytest.raises(UnknownOperationError, match="'no_such_op'"):
                await client.call("no_such_op", x=1)
            with pytest.raises(TypeError):
                await client.call("sleep", seconds=1)
            assert await client.call("sleep", delay=0) == 0
            await client.close()

    asyncio.run(main())


def test_unpicklable_arguments_and_results() -> None:
    async def main() -> None:
        async with serving(Calls()) as server:
            client = RPCClient(server.address, TOKEN)
            with socket.socket() as sock, pytest.raises(TypeError):
                await client.call("echo", sock=sock)
            with pytest.raises(TypeError, match="socket"):
                await client.call("socket")  # the result cannot be pickled at the server
            assert await client.call("echo", still="working") == {"still": "working"}
            await client.close()

    asyncio.run(main())


def test_messages_over_the_limits() -> None:
    async def main() -> None:
        async with serving(Calls(), max_message_size=100_000) as server:
            client = RPCClient(server.address, TOKEN, max_message_size=100_000)
            with pytest.raises(MessageTooLargeError):
                await client.call("echo", big=np.zeros(100_000))
            with pytest.raises(MessageTooLargeError):
                await client.call("array", n=100_000)  # the reply is too large to send
            assert await client.call("echo") == {}
            await client.close()

    asyncio.run(main())


def test_call_timeout_raises_and_late_reply_is_ignored() -> None:
    async def main() -> None:
        async with serving(Calls()) as server:
            client = RPCClient(server.address, TOKEN, timeout=0.1)
            with pytest.raises(TimeoutError, match="'sleep'.*timed out"):
                await client.call("sleep", delay=0.3)
            await asyncio.sleep(0.3)  # the late reply arrives and is dropped
            assert await client.call("sleep", delay=0.01) == 0.01
            await client.close()

    asyncio.run(main())


def test_server_stop_fails_pending_calls_and_client_reconnects() -> None:
    async def main() -> None:
        calls = Calls()
        server = RPCServer(calls.handlers(), TOKEN)
        address = await server.start()
        port = int(address.rsplit(":", 1)[1])
        client = RPCClient(address, TOKEN, timeout=5)
        pending = [asyncio.ensure_future(client.call("block")) for _ in range(3)]
        await asyncio.sleep(0.05)
        await server.stop()
        for call in pending:
            with pytest.raises(ConnectionError):
                await call
        with pytest.raises(ConnectionError):
            await client.call("echo")  # nothing listens any more
        # a new server on the same port: the next call opens a fresh connection
        replacement = RPCServer(calls.handlers(), TOKEN)
        await replacement.start(port=port)
        assert await client.call("echo", back=True) == {"back": True}
        await client.close()
        await replacement.stop()

    asyncio.run(main())


def test_client_close_fails_pending_calls() -> None:
    async def main() -> None:
        async with serving(Calls()) as server:
            client = RPCClient(server.address, TOKEN)
            pending = asyncio.ensure_future(client.call("block"))
            await asyncio.sleep(0.05)
            await client.close()
            with pytest.raises(ConnectionError):
                await pending
            with pytest.raises(CommClosedError, match="closed"):
                await client.call("echo")

    asyncio.run(main())


@pytest.mark.parametrize(
    "request_",
    [
        "not a dict",
        {"op": "echo", "kwargs": {}},
        {"op": "echo", "id": "1", "kwargs": {}},
        {"op": 5, "id": 1, "kwargs": {}},
        {"op": "echo", "id": 1, "kwargs": [1, 2]},
    ],
    ids=["not-a-dict", "no-id", "str-id", "int-op", "list-kwargs"],
)
def test_malformed_request_closes_only_that_connection(
    request_: Any, caplog: pytest.LogCaptureFixture
) -> None:
    calls = Calls()

    async def main() -> None:
        async with serving(calls) as server:
            good = RPCClient(server.address, TOKEN)
            assert await good.call("echo") == {}
            raw = await connect(server.address, TOKEN)
            await raw.write(request_)
            with pytest.raises(CommClosedError):
                await asyncio.wait_for(raw.read(), 5)
            await raw.close()
            assert await good.call("echo", x=1) == {"x": 1}
            await good.close()

    with caplog.at_level(logging.WARNING):
        asyncio.run(main())
    assert "malformed request" in caplog.text
    assert calls.seen == ["echo", "echo"]


def test_raw_requests_with_dict_or_unreadable_kwargs() -> None:
    async def main() -> None:
        async with serving(Calls()) as server:
            raw = await connect(server.address, TOKEN)
            await raw.write({"op": "echo", "id": 9, "kwargs": {"a": 1}})
            reply = await raw.read()
            assert reply["id"] == 9
            assert reply["ok"] is True
            assert reply["result"].unwrap() == {"a": 1}
            # arguments the server cannot unpickle fail that call, not the connection
            missing = Pickled([b"\x80\x04cno_such_module\nThing\n."])
            await raw.write({"op": "echo", "id": 10, "kwargs": missing})
            reply = await raw.read()
            assert reply["ok"] is False
            assert reply["type"] == "ModuleNotFoundError"
            assert isinstance(reply["error"].unwrap(), ModuleNotFoundError)
            await raw.write({"op": "echo", "id": 11, "kwargs": {}})
            assert (await raw.read())["ok"] is True
            await raw.close()

    asyncio.run(main())


def test_wrong_token_fails_the_call_and_runs_no_handler() -> None:
    async def main() -> None:
        calls = Calls()
        async with serving(calls) as server:
            client = RPCClient(server.address, "not-the-token")
            with pytest.raises(AuthenticationError):
                await client.call("echo")
            await client.close()
            assert calls.seen == []

    asyncio.run(main())


def test_rpc_over_inproc_comms() -> None:
    async def main() -> None:
        server = RPCServer(Calls().handlers(), TOKEN)
        serving_tasks: list[asyncio.Task[None]] = []

        async def connector(address: str) -> Comm:
            assert address == "inproc://server"
            client_end, server_end = inproc_pair()
            serving_tasks.append(asyncio.ensure_future(server.serve(server_end)))
            return client_end

        client = RPCClient("inproc://server", TOKEN, connector=connector)
        assert await client.call("echo", x=np.ones(3)) is not None
        results = await asyncio.gather(*(client.call("sleep", delay=d) for d in (0.05, 0.0)))
        assert results == [0.05, 0.0]
        await client.close()
        await asyncio.wait_for(asyncio.gather(*serving_tasks), 5)
        await server.stop()

    asyncio.run(main())


def test_server_address_requires_start() -> None:
    server = RPCServer({}, TOKEN)
    with pytest.raises(RuntimeError, match="not started"):
        _ = server.address
    with pytest.raises(ValueError, match="n_channels"):
        RPCClient("127.0.0.1:1", TOKEN, n_channels=0)


@pytest.mark.parametrize("raised", [SystemExit(3), KeyboardInterrupt()], ids=type)
def test_a_handler_raising_system_exit_fails_its_call_not_the_server(
    raised: BaseException,
) -> None:
    async def leave() -> None:
        raise raised

    async def main() -> None:
        server = RPCServer({**Calls().handlers(), "leave": leave}, TOKEN)
        client = RPCClient(await server.start(), TOKEN)
        try:
            with pytest.raises(RemoteError) as caught:
                await client.call("leave")
            assert caught.value.type_name == type(raised).__name__
            assert await client.call("echo", still="serving") == {"still": "serving"}
        finally:
            await client.close()
            await server.stop()

    asyncio.run(main())


def test_a_connection_lost_under_a_dropped_client_logs_no_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def main() -> None:
        server = RPCServer(Calls().handlers(), TOKEN)
        client = RPCClient(await server.start(), TOKEN)
        await client.call("echo")
        await server.stop()
        with pytest.raises(ConnectionError):  # the loss is seen...
            await client.call("echo")
        del client  # ...and the client dropped without closing it, as peers' clients are
        gc.collect()

    with caplog.at_level(logging.ERROR, logger="asyncio"):
        asyncio.run(main())
    assert "never retrieved" not in caplog.text


def test_error_reply_carries_no_traceback_where_pickle_was_taught_to_send_them() -> None:
    # Dask's distributed installs tblib's pickling of tracebacks for the whole process
    script = (
        "import tblib.pickling_support; tblib.pickling_support.install()\n"
        "from jupyter_mars.cluster.wire.rpc import _error_reply\n"
        "from jupyter_mars.engine.serialize import dumps\n"
        "try:\n    raise ValueError('boom')\nexcept ValueError as exc:\n    error = exc\n"
        "sent = b''.join(bytes(f) for f in dumps(_error_reply(3, error)))\n"
        "assert b'<string>' not in sent and b'co_firstlineno' not in sent, sent\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
