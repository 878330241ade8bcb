"""Admission control: may a worker start a task whose result needs ``nbytes`` more?

The cache limit (``--cache-mem``) is soft: beyond it the store spills. The physical limit
(``--phy-mem``) is hard: past it the machine swaps or the OOM killer ends the worker and
every chunk it held. What the process really uses is its resident set, which also counts
task temporaries, imported libraries and fragmentation the store never sees, so the check
measures RSS rather than trusting the store's own accounting, and credits only the bytes
that spilling could still give back.
"""

from __future__ import annotations

import math
import os

import psutil

from jupyter_mars.engine.storage import heap, spare

_process: psutil.Process | None = None


def process_rss(trim_above: float = math.inf, *, live: bool = False) -> int:
    """Resident set size of this process, in bytes (cheap enough to ask before each task).
    Past ``trim_above`` the free memory the heaps keep for the next chunks is given back
    first (``heap``), so that the figure counts live memory where it matters: near the
    limits. ``live`` leaves out the spare blocks kept for the next chunks drawn
    (``spare``): free memory, for a limit."""
    kept = spare.POOL.nbytes if live else 0
    rss = _rss() - kept
    if rss > trim_above and heap.trim_now_and_then():
        rss = _rss() - kept
    return rss


def _rss() -> int:
    global _process
    if _process is None or _process.pid != os.getpid():  # first call, or a forked child
        _process = psutil.Process()
    return int(_process.memory_info().rss)


def physical_memory() -> int:
    """Total physical memory of the machine, the limit when ``--phy-mem`` is not given."""
    return int(psutil.virtual_memory().total)


def fits(nbytes: int, rss: int, limit: int, reclaimable: int) -> bool:
    """Whether ``nbytes`` more fits under ``limit`` once ``reclaimable`` bytes are spilled.

    >>> fits(100, rss=900, limit=1000, reclaimable=0)
    True
    >>> fits(200, rss=900, limit=1000, reclaimable=0)
    False
    >>> fits(200, rss=900, limit=1000, reclaimable=150)
    True
    """
    return rss + nbytes - reclaimable <= limit
