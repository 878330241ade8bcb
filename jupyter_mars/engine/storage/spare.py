"""Spare blocks: the memory of chunks the store dropped, kept for the next chunk drawn.

A chunk store short of memory drops a chunk its task can draw again (``store.py``,
``engine/recipes.py``), and the next task soon draws a chunk of the same size. Freed and
allocated anew, each such chunk is a fresh mapping: a page fault and a zeroed page per
page, and two worker processes faulting at once spend more time in the kernel than in
drawing the numbers (64 MiB chunks: 46 ms each against 21 ms drawn into memory already
mapped). So a dropped NumPy array nobody else references gives its block to this pool,
and a kernel that fills a whole new chunk (``empty``) takes it back.

The pool holds at most ``limit`` bytes (set with the heap's budget by
``heap.keep_freed_chunks``; 0, the default, keeps nothing), counts in the process's
resident memory like the heap's free memory, and is emptied by ``clear`` (when the
process nears its limits or falls idle). Its bytes are free for the next chunk, so
memory admission counts them as free (``admission.process_rss``).

>>> pool = SparePool(1 << 20)
>>> held = np.ones(1 << 17)  # 1 MiB, still referenced by ``held``: not taken
>>> pool.offer([held]); pool.nbytes
0
>>> pool.offer([np.ones(1 << 17)])  # referenced by the list alone: its block is kept
>>> pool.nbytes
1048576
>>> again = pool.empty((512, 256), np.float64)  # the same memory, reshaped
>>> pool.nbytes, again.shape
(0, (512, 256))
"""

from __future__ import annotations

import sys
import threading
from typing import Any

import numpy as np

SMALLEST = 1 << 20
"""Smaller blocks are not kept: malloc's own heap reuses them."""


class SparePool:
    """Blocks of dropped arrays by size, up to ``limit`` bytes (thread-safe)."""

    def __init__(self, limit: int = 0) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._blocks: dict[int, list[np.ndarray[Any, Any]]] = {}
        self._nbytes = 0
        self.reused = 0
        """Arrays ``empty`` made in a kept block."""

    @property
    def nbytes(self) -> int:
        """Bytes held for reuse."""
        return self._nbytes

    def offer(self, values: list[Any]) -> None:
        """Keep the blocks of ``values`` that nothing else references (the list is
        emptied: the pool takes the caller's references)."""
        while values:
            value = values.pop()
            if type(value) is not np.ndarray or value.nbytes < SMALLEST:
                continue
            # ``value`` and getrefcount's argument: nothing else holds the array
            if sys.getrefcount(value) != 2:
                continue
            owner = _owner(value)
            del value
            if owner is None:
                continue
            with self._lock:
                if self._nbytes + owner.nbytes > self.limit:
                    continue
                self._blocks.setdefault(owner.nbytes, []).append(owner)
                self._nbytes += owner.nbytes

    def empty(self, shape: tuple[int, ...], dtype: Any) -> np.ndarray[Any, Any]:
        """A new C-ordered array of ``shape`` and ``dtype`` whose values are undefined,
        in a spare block when one of its size is kept (as ``np.empty`` otherwise)."""
        dtype = np.dtype(dtype)
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        block = self._take(nbytes) if nbytes >= SMALLEST else None
        if block is None:
            return np.empty(shape, dtype)
        out: np.ndarray[Any, Any] = block.view(dtype).reshape(shape)
        return out

    def clear(self) -> None:
        """Give every block back (to malloc, which unmaps them)."""
        with self._lock:
            self._blocks.clear()
            self._nbytes = 0

    def _take(self, nbytes: int) -> np.ndarray[Any, Any] | None:
        with self._lock:
            blocks = self._blocks.get(nbytes)
            if not blocks:
                return None
            self._nbytes -= nbytes
            self.reused += 1
            return blocks.pop()


def _owner(value: np.ndarray[Any, Any]) -> np.ndarray[Any, Any] | None:
    """The array owning ``value``'s memory when ``value`` spans all of it, C-contiguous
    and writeable, and nothing but ``value`` holds the owner; else None."""
    if not (value.flags.c_contiguous and value.flags.writeable):
        return None
    if value.base is None:
        return value if value.flags.owndata else None
    owner = value.base
    if type(owner) is not np.ndarray or owner.base is not None or not owner.flags.owndata:
        return None
    if owner.nbytes != value.nbytes or owner.ctypes.data != value.ctypes.data:
        return None
    # ``value``'s reference, ``owner`` and getrefcount's argument
    return owner if sys.getrefcount(owner) == 3 else None


POOL = SparePool()
"""The process's pool: the chunk store gives to it, kernels take from it."""


def empty(shape: tuple[int, ...], dtype: Any) -> np.ndarray[Any, Any]:
    """``POOL.empty``: a new array for a kernel to fill whole."""
    return POOL.empty(shape, dtype)
