"""Mutual authentication over the cluster token, before any message is read.

Unpickling runs arbitrary code, so a comm must know its peer holds the cluster token
before it unpickles a single frame. Both sides prove it with HMAC-SHA256 over fresh
nonces; the token itself never crosses the wire::

    server -> client   MAGIC, server_nonce
    client -> server   HMAC(token, CLIENT_CONTEXT | server_nonce | client_nonce), client_nonce
    server -> client   HMAC(token, SERVER_CONTEXT | server_nonce | client_nonce)

The two directions use different context strings, so an answer computed by one side can
never be replayed as the other side's proof (a reflection attack). The server checks with
``hmac.compare_digest`` and, on a bad proof, closes the connection without answering; the
client checks the server's proof so that it never sends work to an impostor.

Every step has a fixed length, so nothing here parses input of a size the peer chooses.
This protects who may talk; it does not encrypt what they say (use a trusted network or a
tunnel for that).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets

from jupyter_mars.cluster.wire.comm.base import ProtocolError

MAGIC = b"jupyter_mars comm v1\n"
"""Opens every connection, so talking to something else fails fast and clearly."""

NONCE_SIZE = 32
DIGEST_SIZE = hashlib.sha256().digest_size

_CLIENT_CONTEXT = b"jupyter_mars client proof\0"
_SERVER_CONTEXT = b"jupyter_mars server proof\0"


class AuthenticationError(ConnectionError):
    """The peer could not prove that it holds the cluster token (or we could not).

    Its message never contains the token.
    """


def _token_key(token: str) -> bytes:
    if not token:
        raise ValueError("the cluster token must not be empty")
    return token.encode("utf-8")


def _proof(key: bytes, context: bytes, server_nonce: bytes, client_nonce: bytes) -> bytes:
    return hmac.new(key, context + server_nonce + client_nonce, hashlib.sha256).digest()


async def server_handshake(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, token: str
) -> None:
    """Authenticate the client on a freshly accepted connection.

    Raises ``AuthenticationError`` on a wrong proof and ``asyncio.IncompleteReadError``
    when the client hangs up; the caller closes the connection in both cases.
    """
    key = _token_key(token)
    server_nonce = secrets.token_bytes(NONCE_SIZE)
    writer.write(MAGIC + server_nonce)
    await writer.drain()
    answer = await reader.readexactly(DIGEST_SIZE + NONCE_SIZE)
    client_proof, client_nonce = answer[:DIGEST_SIZE], answer[DIGEST_SIZE:]
    expected = _proof(key, _CLIENT_CONTEXT, server_nonce, client_nonce)
    if not hmac.compare_digest(client_proof, expected):
        raise AuthenticationError("the client failed to prove it holds the cluster token")
    writer.write(_proof(key, _SERVER_CONTEXT, server_nonce, client_nonce))
    await writer.drain()


async def client_handshake(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, token: str
) -> None:
    """Authenticate to the server, and the server to us, on a fresh connection.

    Raises ``AuthenticationError`` when either proof fails (a server that rejects us just
    hangs up), ``ProtocolError`` when the peer is not a jupyter_mars comm at all.
    """
    key = _token_key(token)
    try:
        hello = await reader.readexactly(len(MAGIC) + NONCE_SIZE)
    except asyncio.IncompleteReadError:
        raise ProtocolError("the server closed the connection before greeting") from None
    if not hello.startswith(MAGIC):
        raise ProtocolError("the server does not speak the jupyter_mars comm protocol")
    server_nonce = hello[len(MAGIC) :]
    client_nonce = secrets.token_bytes(NONCE_SIZE)
    writer.write(_proof(key, _CLIENT_CONTEXT, server_nonce, client_nonce) + client_nonce)
    await writer.drain()
    try:
        server_proof = await reader.readexactly(DIGEST_SIZE)
    except (asyncio.IncompleteReadError, ConnectionError):
        raise AuthenticationError(
            "the server rejected our proof (are both sides using the same cluster token?)"
        ) from None
    expected = _proof(key, _SERVER_CONTEXT, server_nonce, client_nonce)
    if not hmac.compare_digest(server_proof, expected):
        raise AuthenticationError("the server failed to prove it holds the cluster token")
