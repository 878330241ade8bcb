"""Freed memory: kept for the next chunk, given back when the process nears its limits.

glibc's malloc gives a block of ``M_MMAP_THRESHOLD`` bytes or more a mapping of its own,
unmapped when freed, and returns free memory at the top of a heap past
``M_TRIM_THRESHOLD``. By default it raises the mmap threshold after each large free, so
chunk-sized arrays end up on the heap and are reused, but then freed memory stays
resident for as long as glibc likes, and a process whose limits watch its resident set
(``admission.process_rss``) would spill for memory nobody uses.

A process that runs chunks (a worker, an embedded runtime) fixes both thresholds instead
(``keep_freed_chunks``) to a budget, a sixteenth of the memory its chunks may take
(``--cache-mem``, ``memory_limit``, the machine's memory without a limit) and at most
``MAX_KEPT``; the smallest budget asked for in the process holds: arrays up to
half the budget come from the heap (larger ones are mapped apart: a freed one would leave
a hole that only a trim gives back), and up to the budget of freed memory stays at the
top of the heap for the next ones; a process with a small cache keeps almost nothing.
A fresh mapping costs a page fault per 4 KiB page on first touch, several times what an
element-wise operation costs on the same bytes inside a virtual machine, so unmapping
every chunk as it was freed made a worker spend more time in the kernel than computing.
What is kept is given back (``trim``) when the process's memory nears its limits (see
``admission.process_rss``), after spilling, and once the process has run no task for
``IDLE_GIVE_BACK`` seconds, so that limits and the figures users see count live memory:
between two cells of a notebook the kept memory is gone, while the chunks of one job, or
of a loop of jobs, reuse it. Elsewhere (musl, macOS) these are no-ops.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import threading
import time
from typing import Any

from jupyter_mars.engine.storage import spare

logger = logging.getLogger(__name__)

M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
"""``mallopt`` parameters (glibc's ``malloc.h``)."""
MAX_KEPT = 256 << 20
"""The most freed memory kept for reuse, and the largest block taken from the heap."""
KEPT_SHARE = 16
"""The budget is the chunks' memory over this."""
TRIM_EVERY = 0.25
"""Seconds between two trims asked for by memory samples (a trim walks the heaps)."""
IDLE_GIVE_BACK = 1.0
"""Seconds without a task after which a runtime gives the kept memory back."""


def _libc() -> Any:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
    except OSError:
        return None
    if not hasattr(libc, "mallopt") or not hasattr(libc, "malloc_trim"):
        return None
    return libc


_LIBC = _libc()
_last_trim = 0.0
_trim_lock = threading.Lock()
_budget: int | None = None
"""The budget in force (the smallest asked for), None before any."""


def kept_budget(chunk_bytes: int) -> int:
    """Freed memory kept for reuse by a process whose chunks may take ``chunk_bytes``.

    >>> kept_budget(8 << 20) >> 10, kept_budget(1 << 30) >> 20, kept_budget(1 << 40) >> 20
    (512, 64, 256)
    """
    return max(0, min(MAX_KEPT, chunk_bytes // KEPT_SHARE))


def keep_freed_chunks(chunk_bytes: int) -> bool:
    """Fix glibc's thresholds for a process whose chunks may take ``chunk_bytes``, unless
    a smaller budget holds already (see the module docstring); whether they are fixed."""
    global _budget
    budget = kept_budget(chunk_bytes)
    if _budget is not None and _budget <= budget:
        return _LIBC is not None
    _budget = budget
    spare.POOL.limit = budget  # dropped chunks' blocks, beside what malloc keeps
    if _LIBC is None:
        return False
    done = bool(_LIBC.mallopt(M_MMAP_THRESHOLD, budget // 2))
    done = bool(_LIBC.mallopt(M_TRIM_THRESHOLD, budget)) and done
    if not done:
        logger.debug("mallopt refused the thresholds: freed memory may stay resident")
    return done


def trim() -> None:
    """Give the free memory of every heap back to the system now."""
    global _last_trim
    if _LIBC is not None:
        _LIBC.malloc_trim(0)
        _last_trim = time.monotonic()


def give_back() -> None:
    """``trim``, and the spare blocks too (``spare.py``): the process is idle, or past a
    limit."""
    spare.POOL.clear()
    trim()


def trim_now_and_then() -> bool:
    """``trim`` unless one ran in the last ``TRIM_EVERY`` seconds; whether it ran."""
    with _trim_lock:
        if time.monotonic() - _last_trim < TRIM_EVERY:
            return False
        trim()
        return True
