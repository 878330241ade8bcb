"""Which supervisor's web service a standalone web process (``mars-web``) forwards to.

The web process is given the supervisors' RPC addresses (``-s``), as workers are; each
supervisor already answers ``ping`` with its web address and whether it is active
(``cluster/supervisor/server.py``), so no other call is needed. The address is asked once
and kept; a request that cannot reach it asks again, so that a standby supervisor that
took over is found.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from jupyter_mars.cluster.wire.rpc import RPCClient

PING_TIMEOUT = 5.0
"""Seconds one supervisor may take to answer, connecting included."""
WILDCARD_HOSTS = frozenset({"0.0.0.0", "::", "[::]", ""})


class SupervisorUnreachable(Exception):
    """No supervisor of ``-s`` answered as active; the message says what each did."""


def web_address_of(rpc_address: str, reply: Mapping[str, Any]) -> str:
    """The web address in a supervisor's ``ping`` reply, reachable from here: a supervisor
    listening on every interface names ``0.0.0.0``, so its RPC host is used instead.

    >>> web_address_of("10.0.0.5:7103", {"web": "0.0.0.0:7104"})
    '10.0.0.5:7104'
    >>> web_address_of("h:1", {"web": "10.0.0.9:80"})
    '10.0.0.9:80'
    """
    web = str(reply.get("web") or "")
    host, _, port = web.rpartition(":")
    if host in WILDCARD_HOSTS:
        host = rpc_address.rpartition(":")[0]
    return f"{host}:{port}"


def choose(answers: Sequence[tuple[str, Mapping[str, Any] | Exception]]) -> str:
    """The web address of the first active supervisor among ``(rpc address, ping reply or
    the error asking it)``; ``SupervisorUnreachable`` naming each answer when none is.

    >>> choose([("a:1", ConnectionError("refused")), ("b:2", {"web": "b:3", "active": True})])
    'b:3'
    """
    for address, answer in answers:
        if isinstance(answer, Mapping) and answer.get("active") and answer.get("web"):
            return web_address_of(address, answer)
    said = []
    for address, answer in answers:
        if isinstance(answer, Exception):
            said.append(f"{address}: {answer or type(answer).__name__}")
        elif not answer.get("web"):
            said.append(f"{address}: serves no web service")
        else:
            said.append(f"{address}: standing by")
    detail = "; ".join(said) or "no supervisor given"
    raise SupervisorUnreachable(f"no active supervisor answers ({detail})")


class Upstream:
    """The active supervisor's web address, asked of ``supervisors`` over RPC."""

    def __init__(self, supervisors: Sequence[str], token: str) -> None:
        self.supervisors = list(supervisors)
        self._clients = {a: RPCClient(a, token, timeout=PING_TIMEOUT) for a in supervisors}
        self._address: str | None = None
        self._lock = asyncio.Lock()

    async def find(self, refresh: bool = False) -> str:
        """The web address; asked again when ``refresh`` or not known yet. Raises
        ``SupervisorUnreachable``."""
        async with self._lock:
            if self._address is None or refresh:
                self._address = None
                answers = await asyncio.gather(*(self._ask(a) for a in self.supervisors))
                self._address = choose(list(zip(self.supervisors, answers, strict=True)))
            return self._address

    def forget(self) -> None:
        """Ask again next time (the supervisor answered as a standby)."""
        self._address = None

    async def _ask(self, address: str) -> Mapping[str, Any] | Exception:
        try:
            reply = await self._clients[address].call("ping")
        except (OSError, ValueError) as error:  # refused, reset, timed out, wrong token
            return error
        return reply if isinstance(reply, Mapping) else ValueError(f"answered {reply!r}")

    async def close(self) -> None:
        for client in self._clients.values():
            await client.close()
