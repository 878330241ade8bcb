"""Which of several supervisors is active: one at a time, and it keeps the role while it lives.

Theory of operation. Every supervisor knows the list and its own rank in it (its index).
It pings the others over RPC every ``interval`` seconds; a ping answers with the peer's
web address and whether it is active. The rules:

- An active supervisor stays active while it lives. It yields only to a live peer ranked
  before it that says it is active too (two actives can only meet after a partition
  heals; the first in the list keeps its term).
- A standby never takes the role from a live active peer: a supervisor restarted on its
  old address, first of the list or not, stands by, so a restart never resets the workers
  and loses the jobs of the supervisor that took over.
- With no live active peer, the first supervisor of the list that is alive takes over:
  a standby takes over once every supervisor ranked before it has been silent for a while.
- A supervisor decides nothing before every live peer has answered once: at start it does
  not know yet whether another one is active.

"Silent for a while" depends on how a ping fails. A refused or reset connection means
nothing listens there any more: ``takeover_after`` seconds (2) of that and the peer is
dead. A ping that times out may only mean a busy or unreachable host: such a peer is
given ``unresponsive_after`` seconds (6), because two active supervisors would reset each
other's workers. A peer that rejects this supervisor's token is alive: it answered, with a
token of its own. This one cannot learn whether that peer is active, so it never takes
over from it; it says once that the supervisors do not share a token.

``Election`` holds the view and decides, with no IO (tests feed it answers and times);
``ElectionMonitor`` is the loop that pings and reports changes. State of ``Election``:

- ``supervisors``: the list, this supervisor included, at index ``rank``.
- ``peers``: per other address, a ``PeerView`` (last answer, last failure, web, active).
- ``started``: when this supervisor started; a peer never heard of counts from then.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from jupyter_mars.cluster.wire.comm import AuthenticationError

logger = logging.getLogger(__name__)

WILDCARD_HOSTS = frozenset({"0.0.0.0", "::", "[::]", ""})


@dataclass
class PeerView:
    """What this supervisor knows of another one, from its pings."""

    address: str
    """The peer's RPC address, as written in the list."""
    web: str = ""
    """The peer's web address (``host:port``), once it answered a ping."""
    active: bool = False
    """Whether the peer said it was active in its last answer."""
    last_answer: float | None = None
    """``time.monotonic()`` of its last answer; None: it never answered."""
    timed_out: bool = False
    """Whether its last ping timed out (rather than being refused)."""
    rejected: bool = False
    """Whether its last answer was a refusal of this supervisor's token."""


class Election:
    def __init__(
        self,
        supervisors: Sequence[str],
        rank: int,
        *,
        now: float,
        takeover_after: float = 2.0,
        unresponsive_after: float = 6.0,
    ) -> None:
        if not 0 <= rank < len(supervisors):
            raise ValueError(f"rank must index the {len(supervisors)} supervisors, got {rank}")
        self.supervisors = list(supervisors)
        self.rank = rank
        self.started = now
        self.takeover_after = takeover_after
        self.unresponsive_after = unresponsive_after
        self.peers = {a: PeerView(a) for i, a in enumerate(self.supervisors) if i != rank}

    @property
    def before(self) -> list[PeerView]:
        """The peers ranked before this supervisor: while one lives, this one stands by."""
        return [self.peers[a] for a in self.supervisors[: self.rank]]

    def answered(self, address: str, now: float, web: str, active: bool) -> None:
        peer = self.peers[address]
        peer.last_answer, peer.timed_out, peer.web, peer.active = now, False, web, active
        peer.rejected = False

    def rejected(self, address: str, now: float) -> None:
        """The peer refused this supervisor's token: alive, in a state this one cannot see.

        Taking it for dead would make two supervisors active, each with workers of its own.
        """
        peer = self.peers[address]
        peer.last_answer, peer.timed_out, peer.web, peer.active = now, False, "", False
        peer.rejected = True

    def failed(self, address: str, now: float, timed_out: bool) -> None:
        self.peers[address].timed_out = timed_out

    def alive(self, peer: PeerView, now: float) -> bool:
        silent = now - (self.started if peer.last_answer is None else peer.last_answer)
        limit = self.unresponsive_after if peer.timed_out else self.takeover_after
        return silent < limit

    def should_be_active(self, now: float, active: bool = False) -> bool:
        """Whether this supervisor should be active now; ``active``: whether it is."""
        alive = [peer for peer in self.peers.values() if self.alive(peer, now)]
        if active:
            ranked_before = set(self.supervisors[: self.rank])
            return not any(peer.active and peer.address in ranked_before for peer in alive)
        if any(peer.active or peer.last_answer is None for peer in alive):
            return False  # another one is active, or a live peer has not said yet
        return not any(self.alive(peer, now) for peer in self.before)


def rank_of(supervisors: Sequence[str], own: Collection[str], port: str) -> int | None:
    """This supervisor's index in ``supervisors``: an entry equal to one of its ``own``
    addresses, else the first entry on its ``port`` whose host is an address of this
    machine; None when it is not in the list."""
    for index, entry in enumerate(supervisors):
        if entry in own:
            return index
    for index, entry in enumerate(supervisors):
        host, _, entry_port = entry.rpartition(":")
        if entry_port == port and is_local_host(host.strip("[]")):
            return index
    return None


def is_local_host(host: str) -> bool:
    """``host`` names an address of this machine (a socket can be bound to it)."""
    try:
        infos = socket.getaddrinfo(host, 0, type=socket.SOCK_STREAM)
    except OSError:
        return False
    for family, kind, proto, _, address in infos:
        try:
            with socket.socket(family, kind, proto) as probe:
                probe.bind(address)
                return True
        except OSError:
            continue
    return False


Ping = Callable[[str], Awaitable[dict[str, Any]]]
"""Pings one supervisor: its reply (``web``, ``active``), or raises."""


class ElectionMonitor:
    """Pings every other supervisor each ``interval`` seconds and reports decisions.

    ``on_decision(active)`` is awaited after every round in which ``should_be_active``
    differs from what the supervisor is now (``is_active()``).
    """

    def __init__(
        self,
        election: Election,
        ping: Ping,
        is_active: Callable[[], bool],
        on_decision: Callable[[bool], Awaitable[None]],
        interval: float = 0.5,
    ) -> None:
        self.election = election
        self.ping = ping
        self.is_active = is_active
        self.on_decision = on_decision
        self.interval = interval

    async def run(self) -> None:
        while True:
            await self.round()
            await asyncio.sleep(self.interval)

    async def round(self) -> None:
        await asyncio.gather(*(self._ping(address) for address in self.election.peers))
        active = self.is_active()
        decision = self.election.should_be_active(time.monotonic(), active)
        if decision != active:
            await self.on_decision(decision)

    async def _ping(self, address: str) -> None:
        try:
            reply = await self.ping(address)
            web, active = str(reply["web"]), bool(reply["active"])
        except AuthenticationError:  # before ConnectionError: it is one
            if not self.election.peers[address].rejected:
                logger.error(
                    "supervisor %s rejects this supervisor's token: every supervisor in -s "
                    "needs the same one (--token, MARS_TOKEN or 'token' in the -f config "
                    "file); while it runs, this one does not take its place",
                    address,
                )
            self.election.rejected(address, time.monotonic())
        except TimeoutError:  # before OSError: TimeoutError is one
            self.election.failed(address, time.monotonic(), timed_out=True)
        except (ConnectionError, OSError) as exc:
            logger.debug("supervisor %s does not answer: %s", address, exc)
            self.election.failed(address, time.monotonic(), timed_out=False)
        except Exception:  # noqa: BLE001 - e.g. a peer of another version: not a live peer
            logger.warning("supervisor %s answered the ping wrongly", address, exc_info=True)
            self.election.failed(address, time.monotonic(), timed_out=False)
        else:
            self.election.answered(address, time.monotonic(), web, active)
