"""Wrong tokens slow their sender down; a ``?token=`` link works once. No IO here.

Theory of operation. ``LoginThrottle`` counts, per client address, the wrong tokens it
sent (in the login form, a ``?token=`` link, an ``Authorization`` header or a login
cookie). Only a value not seen before from that client is a new guess: a program or a
browser tab that keeps sending the same stale token is not guessing, and must not lock
out the other users of its address (every local user is ``127.0.0.1``). The first
``FREE_GUESSES`` cost nothing; each one after them locks the client out for
``FIRST_LOCK`` seconds, doubled with every further guess up to ``LONGEST_LOCK``. While
locked out, a client's requests are refused before any token is compared, the right one
included (comparing it would tell a guesser when it hit); the lock always ends, and the
right token then works. A client is forgotten ``FORGET_AFTER`` seconds after its last
guess. State, per client: ``guesses`` (the count), ``seen`` (digests of its latest
wrong values), ``last`` (when it last guessed), ``locked_until``.

``LinkToken`` is the one use of a ``?token=`` link: the first request carrying the
right token is exchanged for the login cookie; after it, such links are refused.

``LoginCodes`` are the codes of login links that an authenticated client asks for
(``POST /api/v1/login-links``; ``%mars connect`` shows one): random, never derived from
the token, each good for one use within ``LOGIN_CODE_SECONDS``. State: ``codes``, the
digest of each code not used yet and when it expires, oldest first, at most
``MAX_LOGIN_CODES``.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

FREE_GUESSES = 10
"""Wrong tokens a client may send before it is slowed down."""
FIRST_LOCK = 1.0
"""Seconds a client is locked out after its first guess beyond the free ones."""
LONGEST_LOCK = 60.0
"""The longest lock-out, however many guesses a client made."""
FORGET_AFTER = 900.0
"""Seconds after its last wrong guess that a client starts afresh."""
MAX_CLIENTS = 10_000
"""Clients tracked at once; the one that guessed least recently goes first."""
SEEN_PER_CLIENT = 16
"""Wrong values remembered per client, to tell a new guess from a repeated one."""
LOGIN_CODE_SECONDS = 300.0
"""How long a login link works, unless it is used first: time to click it."""
MAX_LOGIN_CODES = 64
"""Login links not used yet that are kept at once; asking for more drops the oldest."""


@dataclass
class _Client:
    guesses: int = 0
    """Distinct wrong tokens counted."""
    seen: OrderedDict[bytes, None] = field(default_factory=OrderedDict)
    """Digests of its latest wrong tokens, oldest first."""
    last: float = 0.0
    """When it last sent a new wrong token."""
    locked_until: float = 0.0
    """Until when its requests are refused."""


class LoginThrottle:
    """Per client address: how long until it may try a token again (module docstring)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._clients: OrderedDict[str, _Client] = OrderedDict()

    def wait(self, client: str) -> float:
        """Seconds until ``client`` may send a token again; 0 when it may now."""
        state = self._current(client)
        return 0.0 if state is None else max(0.0, state.locked_until - self._clock())

    def failed(self, client: str, given: str) -> None:
        """``client`` sent the wrong token ``given``: a guess, unless it sent it before."""
        now = self._clock()
        state = self._current(client) or _Client()
        digest = hashlib.sha256(given.encode("utf-8", "surrogatepass")).digest()
        if digest in state.seen:
            return
        state.seen[digest] = None
        if len(state.seen) > SEEN_PER_CLIENT:
            state.seen.popitem(last=False)
        state.guesses += 1
        state.last = now
        beyond = state.guesses - FREE_GUESSES
        if beyond > 0:
            lock = min(FIRST_LOCK * 2.0 ** min(beyond - 1, 32), LONGEST_LOCK)
            state.locked_until = now + lock
        self._clients[client] = state
        self._clients.move_to_end(client)
        while len(self._clients) > MAX_CLIENTS:
            self._clients.popitem(last=False)

    def _current(self, client: str) -> _Client | None:
        state = self._clients.get(client)
        if state is not None and self._clock() - state.last > FORGET_AFTER:
            del self._clients[client]
            return None
        return state


class LinkToken:
    """Whether the ``?token=`` link was used: it logs in one browser, once."""

    def __init__(self) -> None:
        self.spent = False

    def use(self) -> bool:
        """True the first time (the link logs the browser in), False ever after."""
        if self.spent:
            return False
        self.spent = True
        return True


def _digest(code: str) -> bytes:
    return hashlib.sha256(code.encode("utf-8", "surrogatepass")).digest()


class LoginCodes:
    """Single-use codes of login links, valid for a few minutes (module docstring)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._codes: OrderedDict[bytes, float] = OrderedDict()
        """Digest of each code not used yet -> when it expires."""

    def mint(self) -> str:
        """A new code: random, unrelated to the token, for one use."""
        self._forget_expired()
        code = secrets.token_urlsafe(24)
        self._codes[_digest(code)] = self._clock() + LOGIN_CODE_SECONDS
        while len(self._codes) > MAX_LOGIN_CODES:
            self._codes.popitem(last=False)
        return code

    def redeem(self, code: str) -> bool:
        """True for a code minted here, not used yet and not expired; it is used now."""
        self._forget_expired()
        return self._codes.pop(_digest(code), None) is not None

    def _forget_expired(self) -> None:
        now = self._clock()
        while self._codes and next(iter(self._codes.values())) <= now:
            self._codes.popitem(last=False)


@dataclass
class Logins:
    """What the web service remembers of logins: one of each, shared by its routes."""

    throttle: LoginThrottle = field(default_factory=LoginThrottle)
    """Wrong tokens per client."""
    link: LinkToken = field(default_factory=LinkToken)
    """The one use of a ``?token=`` link."""
    codes: LoginCodes = field(default_factory=LoginCodes)
    """Login links handed to authenticated clients, each for one use."""
