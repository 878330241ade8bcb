"""When a nanny restarts the worker it watches, and how it says why the worker died.

Pure: the nanny (``nanny.py``) passes the clock in.

>>> policy = RestartPolicy(max_restarts=3, window=60.0, first_delay=0.5, max_delay=10.0)
>>> [policy.after_death(t) for t in (0.0, 1.0, 2.0, 3.0)]
[0.5, 1.0, 2.0, None]
>>> policy = RestartPolicy(max_restarts=3, window=60.0, first_delay=0.5, max_delay=10.0)
>>> [policy.after_death(t) for t in (0.0, 100.0, 200.0, 300.0)]
[0.5, 0.5, 0.5, 0.5]
"""

from __future__ import annotations

import signal
from dataclasses import dataclass, field


@dataclass
class RestartPolicy:
    """Restart with a doubling delay, and give up after ``max_restarts`` deaths within
    ``window`` seconds: a worker that cannot start (a bad disk, a library that crashes on
    import) would otherwise be restarted for ever and hide the cause in its log."""

    max_restarts: int = 5
    window: float = 60.0
    first_delay: float = 0.5
    max_delay: float = 10.0
    _deaths: list[float] = field(default_factory=list)

    def after_death(self, now: float) -> float | None:
        """Record a death at ``now``: the seconds to wait before restarting, or None to
        give up. The delay doubles with each death in the window, so a worker that ran
        well for a while is restarted quickly."""
        self._deaths = [t for t in self._deaths if now - t < self.window]
        self._deaths.append(now)
        if len(self._deaths) > self.max_restarts:
            return None
        delay: float = self.first_delay * 2.0 ** (len(self._deaths) - 1)
        return min(delay, self.max_delay)


def describe_exit(returncode: int) -> str:
    """How a child process ended, from ``Popen.returncode``.

    >>> describe_exit(-9)
    'was killed by SIGKILL (out of memory, or kill -9)'
    >>> describe_exit(1)
    'exited with status 1'
    """
    if returncode >= 0:
        return f"exited with status {returncode}"
    try:
        name = signal.Signals(-returncode).name
    except ValueError:
        name = f"signal {-returncode}"
    hint = " (out of memory, or kill -9)" if returncode == -signal.SIGKILL else ""
    return f"was killed by {name}{hint}"


def exit_status(returncode: int) -> int:
    """The shell's exit status for ``Popen.returncode``: ``128 + n`` for signal ``n``.

    >>> exit_status(-15), exit_status(3)
    (143, 3)
    """
    return 128 - returncode if returncode < 0 else returncode
