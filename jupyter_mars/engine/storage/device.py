"""GPU chunks: the CuPy arrays of one process, counted apart from the host chunk store.

A chunk on a CUDA device takes no host memory, so it must not count against a host limit
(``memory_limit``, ``--cache-mem``) and must not be spilled as a host chunk would be.
``DeviceStore`` keeps them in least-recently-used order with their device bytes
(``sizeof`` of a CuPy array is its ``nbytes``) and, with a ``limit``, names the chunks to
move to host memory (``over_limit``), the oldest first, where the host store takes them
and may spill them to disk in turn. Whoever moves one copies it with ``to_host`` and puts
it there; a GPU task that reads it copies it back to its device.

CuPy keeps the blocks of freed arrays in its memory pool for the next array. When the last
chunk leaves the store, the free blocks of every device it used go back to the driver, so
that the memory shows as free to other processes and to the dashboard.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

Key = Hashable


class DeviceStore:
    """GPU chunks by key, with their device bytes; thread-safe.

    ``limit``: device bytes the chunks may take before ``over_limit`` names some to move
    to host memory; None: no limit.
    """

    def __init__(self, limit: int | None = None) -> None:
        if limit is not None and limit < 0:
            raise ValueError(f"limit must be >= 0 bytes, got {limit}")
        self.limit = limit
        self._chunks: OrderedDict[Key, tuple[Any, int]] = OrderedDict()
        self._pinned: dict[Key, int] = {}
        """Keys read by running tasks -> how many: not moved to host meanwhile."""
        self._devices: set[int] = set()
        """Devices that held a chunk since the pools were last emptied."""
        self._lock = threading.Lock()
        self.nbytes = 0
        """Device bytes of the chunks held."""

    def __contains__(self, key: Key) -> bool:
        return key in self._chunks

    def __len__(self) -> int:
        return len(self._chunks)

    def put(self, key: Key, value: Any, nbytes: int) -> None:
        """Keep ``value`` (a CuPy array, or a tuple of them) under ``key``."""
        with self._lock:
            old = self._chunks.pop(key, None)
            if old is not None:
                self.nbytes -= old[1]
            self._chunks[key] = (value, nbytes)
            self.nbytes += nbytes
            device = getattr(getattr(value, "device", None), "id", None)
            if isinstance(device, int):
                self._devices.add(device)

    def get(self, key: Key) -> Any:
        """The chunk of ``key`` (``KeyError`` if not here); it becomes the most recent."""
        with self._lock:
            value, _ = self._chunks[key]
            self._chunks.move_to_end(key)
            return value

    def pop(self, key: Key) -> Any | None:
        """Remove and return the chunk of ``key``; None if not here."""
        with self._lock:
            entry = self._chunks.pop(key, None)
            if entry is None:
                return None
            self.nbytes -= entry[1]
            empty = not self._chunks
        if empty:
            self.free_pools()
        return entry[0]

    def pin(self, key: Key) -> None:
        """A running task reads ``key``: ``over_limit`` leaves it on the device."""
        with self._lock:
            self._pinned[key] = self._pinned.get(key, 0) + 1

    def unpin(self, key: Key) -> None:
        with self._lock:
            left = self._pinned.get(key, 0) - 1
            if left > 0:
                self._pinned[key] = left
            else:
                self._pinned.pop(key, None)

    def over_limit(self, room: int = 0) -> list[Key]:
        """Least recently used chunks, not pinned, to move to host memory so that the rest
        and ``room`` more bytes fit under the limit (none without a limit)."""
        with self._lock:
            if self.limit is None:
                return []
            excess = self.nbytes + room - self.limit
            keys: list[Key] = []
            for key, (_, nbytes) in self._chunks.items():
                if excess <= 0:
                    break
                if key in self._pinned:
                    continue
                keys.append(key)
                excess -= nbytes
            return keys

    def keys(self) -> list[Key]:
        with self._lock:
            return list(self._chunks)

    def clear(self) -> None:
        with self._lock:
            self._chunks.clear()
            self._pinned.clear()
            self.nbytes = 0
        self.free_pools()

    def info(self) -> dict[str, int]:
        """Device bytes held and the number of chunks, for memory figures."""
        with self._lock:
            return {"device_bytes": self.nbytes, "n_device": len(self._chunks)}

    def free_pools(self) -> None:
        """Give the free blocks of CuPy's pool back to the driver, on every device used."""
        cupy = sys.modules.get("cupy")
        with self._lock:
            devices, self._devices = sorted(self._devices), set()
        if cupy is None or not devices:
            return
        pool = cupy.get_default_memory_pool()
        for device in devices:  # the pool frees the current device's blocks only
            with cupy.cuda.Device(device):
                pool.free_all_blocks()
