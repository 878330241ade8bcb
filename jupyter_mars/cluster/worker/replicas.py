"""Copies of chunks a worker fetched from its peers, kept for the next task that reads them.

A matrix product reads each row panel once per output column: without copies, every such
task would fetch the panel again from the worker that computed it. The copies live in
memory only, within a byte budget, least recently used first out; the worker sets the
budget to the room its chunk store leaves in ``--cache-mem``, so chunks and copies
together stay within it. They are never the
record of a chunk (the holder's store is): the supervisor knows who has copies, for
placement and to delete them with the chunk, but does not recover lost chunks from them.
Used on one thread (the worker's event loop).

>>> import numpy as np
>>> cache = ReplicaCache(max_bytes=100)
>>> cache.put("a", np.zeros(8))  # 64 bytes
>>> cache.put("b", np.zeros(8))  # over budget: "a" goes
>>> "a" in cache, cache.get("b").shape
(False, (8,))
>>> cache.put("c", np.zeros(20))  # larger than the budget: not kept
>>> "c" in cache, cache.nbytes
(False, 64)
>>> cache.shrink(0)
>>> len(cache), cache.nbytes
(0, 0)
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from jupyter_mars.engine.graph import Key
from jupyter_mars.engine.sizeof import sizeof


class ReplicaCache:
    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.nbytes = 0
        self._entries: OrderedDict[Key, tuple[Any, int]] = OrderedDict()

    def __contains__(self, key: Key) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Key) -> Any:
        """The copy of ``key`` (KeyError when there is none), now the most recently used."""
        value, _ = self._entries[key]
        self._entries.move_to_end(key)
        return value

    def put(self, key: Key, value: Any) -> None:
        nbytes = sizeof(value)
        if nbytes > self.max_bytes:
            return
        self.discard(key)
        self.shrink(self.max_bytes - nbytes)
        self._entries[key] = (value, nbytes)
        self.nbytes += nbytes

    def shrink(self, max_bytes: int) -> None:
        """Drop the least recently used copies until they take at most ``max_bytes``."""
        while self._entries and self.nbytes > max_bytes:
            _, (_, freed) = self._entries.popitem(last=False)
            self.nbytes -= freed

    def discard(self, key: Key) -> None:
        entry = self._entries.pop(key, None)
        if entry is not None:
            self.nbytes -= entry[1]

    def clear(self) -> None:
        self._entries.clear()
        self.nbytes = 0
