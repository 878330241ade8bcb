"""Which rejected connections to log, so that a peer retrying with a wrong token does not
fill the log: the first from each host, then at most one every ``interval`` seconds, which
says how many were left out since. Pure bookkeeping; the listener does the logging.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_HOSTS = 1024
"""Hosts remembered at most; past it, those whose quiet time is over are forgotten."""


@dataclass
class _Quiet:
    until: float
    """Until when further rejections of this host are left out of the log."""
    left_out: int = 0
    """Rejections left out since the last one logged."""


class RejectionThrottle:
    def __init__(self, interval: float = 60.0) -> None:
        self.interval = interval
        self._hosts: dict[str, _Quiet] = {}

    def admit(self, host: str, now: float) -> int | None:
        """None: leave this rejection of ``host`` out of the log; else log it, with the
        number of its rejections left out since the last one logged."""
        quiet = self._hosts.get(host)
        if quiet is not None and now < quiet.until:
            quiet.left_out += 1
            return None
        if len(self._hosts) >= MAX_HOSTS:
            self._hosts = {h: q for h, q in self._hosts.items() if now < q.until}
        self._hosts[host] = _Quiet(now + self.interval)
        return 0 if quiet is None else quiet.left_out
