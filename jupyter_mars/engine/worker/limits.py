"""A worker's memory limits: its memory (``--phy-mem``), a soft and a hard limit within it.

Below the soft limit the worker works as usual. Above it, it spills chunks it holds in
memory (even within ``--cache-mem``) and admits no new task, so the tasks running can
finish within what is left. Past the hard limit a task is growing the process toward the
machine's end (swap, the OOM killer, every chunk lost with the worker): the task that grew
it is stopped with a ``MemoryError`` naming it and the limit. The defaults, 75 % and 90 %
of the worker's memory, are Mars's.

>>> limits = MemoryLimits.of(1000)
>>> limits.soft, limits.hard
(750, 900)
>>> MemoryLimits.of(1000, hard=500).soft, MemoryLimits.of(1000, soft=950).hard
(500, 950)
>>> MemoryLimits.of(400 * MIB).describe_hard()
'360 MiB (90% of the worker memory, 400 MiB)'
"""

from __future__ import annotations

from dataclasses import dataclass

SOFT_SHARE = 0.75
"""Default soft limit, as a share of the worker's memory."""
HARD_SHARE = 0.90
"""Default hard limit, as a share of the worker's memory."""
MIB = 1 << 20


@dataclass(frozen=True)
class MemoryLimits:
    """Bytes of a worker's memory and of its two limits within it."""

    memory: int
    """What the worker may use in all (``--phy-mem``)."""
    soft: int
    """Above it: spill, admit no new task (``--memory-soft-limit``)."""
    hard: int
    """Past it: the growing task is stopped (``--memory-hard-limit``)."""

    @classmethod
    def of(cls, memory: int, soft: int | None = None, hard: int | None = None) -> MemoryLimits:
        """The limits of a worker with ``memory`` bytes; None takes the default share.

        Raises ``ValueError`` naming the argument unless ``0 < soft <= hard <= memory``.
        """
        if memory <= 0:
            raise ValueError(f"memory must be > 0 bytes, got {memory}")
        # a limit given alone moves the other default so that soft <= hard still holds
        if soft is None:
            soft = int(memory * SOFT_SHARE) if hard is None else min(int(memory * SOFT_SHARE), hard)
        if hard is None:
            hard = max(int(memory * HARD_SHARE), soft)
        if not 0 < hard <= memory:
            raise ValueError(f"hard must be within the worker's memory ({memory}), got {hard}")
        if not 0 < soft <= hard:
            raise ValueError(f"soft must be > 0 and at most the hard limit ({hard}), got {soft}")
        return cls(memory, soft, hard)

    def describe_hard(self) -> str:
        """The hard limit, for messages."""
        share = round(100 * self.hard / self.memory)
        return f"{mib(self.hard)} ({share}% of the worker memory, {mib(self.memory)})"

    def describe_soft(self) -> str:
        """The soft limit, for messages."""
        share = round(100 * self.soft / self.memory)
        return f"{mib(self.soft)} ({share}% of the worker memory, {mib(self.memory)})"


def mib(nbytes: int) -> str:
    """Bytes in MiB, for messages.

    >>> mib(3 * MIB // 2)
    '1.5 MiB'
    """
    return f"{nbytes / MIB:.4g} MiB"
