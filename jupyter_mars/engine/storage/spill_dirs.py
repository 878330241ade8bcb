"""A store's own corner of each spill directory, and which one to write to next.

Several workers (or several stores in tests) may share a ``--spill-dir``; each store
writes only under a subdirectory of its own, locked while it lives (``spill_owner``), so
``close()`` can remove that subdirectory whole without touching anyone else's files, and
a starting store removes the subdirectories of stores that died without closing. Files
go to the directory holding the fewest of this store's bytes, which spreads the load over
disks of the same size; a directory whose last write failed (full, read-only) goes to the
back of the line until a write to it succeeds again, so a dead disk does not cost a failed
write per spill.

Not thread-safe: the store calls it under its lock.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Sequence

from jupyter_mars.engine.graph import Key
from jupyter_mars.engine.storage.spill_owner import OwnedDir, claim

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


class SpillDirs:
    """The store's private subdirectories, with the bytes it has spilled to each."""

    def __init__(self, roots: Sequence[str]) -> None:
        """Create one private subdirectory under each root (created if missing), after
        removing those of stores that died there.

        A root that cannot be used raises ``OSError`` here, at worker start, where a
        misconfigured ``--spill-dir`` is easiest to see.
        """
        self._owned: list[OwnedDir] = []
        try:
            for root in roots:
                os.makedirs(root, exist_ok=True)
                self._owned.append(claim(root))
        except OSError:
            self.remove_all()
            raise
        self.paths = [owned.path for owned in self._owned]
        self._bytes = [0] * len(self.paths)
        self._failing = [False] * len(self.paths)
        self._serial = itertools.count()

    def __bool__(self) -> bool:
        return bool(self.paths)

    def candidates(self, key: Key) -> list[tuple[int, str]]:
        """``(dir index, new file path)`` to try in order, least used directory first.

        The file name carries a serial number, so a key put again while its old file is
        still being written never collides with it, and a readable form of the key, for
        whoever looks in the directory.
        """
        name = f"{next(self._serial):08d}-{_UNSAFE.sub('_', str(key))[:80]}.chunk"
        order = sorted(
            range(len(self.paths)),
            key=lambda index: (self._failing[index], self._bytes[index], index),
        )
        return [(index, os.path.join(self.paths[index], name)) for index in order]

    def add(self, index: int, nbytes: int) -> None:
        """Count ``nbytes`` spilled to directory ``index``; it works again."""
        self._bytes[index] += nbytes
        self._failing[index] = False

    def record_failure(self, index: int) -> None:
        """A write to directory ``index`` failed: try it after the others from now on."""
        self._failing[index] = True

    def total_bytes(self) -> int:
        """Bytes in this store's files, over every directory."""
        return sum(self._bytes)

    def remove(self, index: int, nbytes: int) -> None:
        """Count ``nbytes`` no longer on directory ``index``."""
        self._bytes[index] -= nbytes

    def remove_all(self) -> None:
        """Delete the private subdirectories and every file in them; idempotent."""
        for owned in self._owned:
            owned.release()
