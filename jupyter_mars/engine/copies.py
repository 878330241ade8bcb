"""Chunks copied into their places in one result, on several threads.

Putting a large result together from its chunks is one copy of every byte; on one
thread it costs as much as a cheap chunk function over all the data. NumPy releases the
GIL while it copies numbers, so the copies are shared out among the cores the session
runs tasks on, never more: a session of one core gathers on one thread.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

PARALLEL_BYTES = 16 << 20
"""Below this many bytes in all, one thread copies: starting threads would cost more."""

Copy = tuple[np.ndarray[Any, Any], Any]
"""A destination view and what is copied into it."""


def _nbytes(copy: Copy) -> int:
    return int(copy[0].nbytes)


def _shares(copies: Sequence[Copy], threads: int) -> list[list[Copy]]:
    """``copies`` in ``threads`` runs of consecutive copies holding about as many bytes."""
    total = sum(_nbytes(c) for c in copies)
    runs: list[list[Copy]] = [[]]
    done = 0
    for copy in copies:
        if done >= total * len(runs) / threads and len(runs) < threads:
            runs.append([])
        runs[-1].append(copy)
        done += _nbytes(copy)
    return runs


def _run(copies: list[Copy]) -> None:
    for target, source in copies:
        target[...] = source


def copy_all(copies: Sequence[Copy], threads: int) -> None:
    """Copy each source into its destination, on up to ``threads`` threads."""
    threads = min(threads, len(copies))
    if threads <= 1 or sum(_nbytes(c) for c in copies) < PARALLEL_BYTES:
        _run(list(copies))
        return
    with ThreadPoolExecutor(threads, thread_name_prefix="mars-gather") as pool:
        for done in [pool.submit(_run, run) for run in _shares(copies, threads)]:
            done.result()
