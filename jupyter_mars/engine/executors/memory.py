"""The embedded runtime's memory limit: may the next task start, and how much to spill.

A session's ``memory_limit`` bounds what the runtime adds to the process: its resident
size (RSS) above what it was when the runtime started (``baseline``), chunks held in the
store, task temporaries, the inputs read back from disk and the results being computed
alike. Before a pool thread starts a task it measures the RSS and asks ``MemoryBudget``:

- the task starts when what is held now, the bytes ``reserved`` by the tasks already
  running and what it may add itself (its inputs on disk, and a result as large as the
  largest of the last few) fit under the limit. A running task's result counts from the
  moment it starts, before any sample can see it;
- else, when the store holds chunks that spilling can free, the thread writes the excess
  to disk (least recently used first, never an input of a running task), down to
  ``RELIEF_TARGET`` of the limit so that the next task does not spill again at once;
- else, when other tasks run, it waits for one of them to end;
- and when none runs, it starts anyway: nothing here can free memory, and a task alone
  is the least the runtime can do.

Pure arithmetic: the runtime measures, spills and waits (``threads.py``).

>>> budget = MemoryBudget(limit=1000, baseline=100)
>>> budget.fits(rss=600, need=300)
True
>>> budget.fits(rss=900, need=300), budget.excess(rss=900, need=300)  # down to 900 of 1000
(False, 200)
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Final

RELIEF_TARGET: Final = 0.9
"""Spill down to this share of the limit."""
RECENT_RESULTS: Final = 8
"""A task about to start is expected to add as much as the largest of this many results
before it: the tasks of one operator come together, and a reduction's tiny results soon
stop reserving the room its input's chunks took."""


@dataclass
class MemoryBudget:
    """What the runtime may add to the process's memory, and what it has promised."""

    limit: int
    """Bytes the runtime may add to the process's resident size."""
    baseline: int
    """The process's resident size when the runtime started."""
    reserved: int = 0
    """Bytes promised to the tasks running: what each may add, counted from its start."""
    recent: deque[int] = field(default_factory=lambda: deque(maxlen=RECENT_RESULTS))
    """The sizes of the last results stored."""

    @property
    def largest_result(self) -> int:
        """What a task about to start is expected to add: the largest recent result."""
        return max(self.recent, default=0)

    def held(self, rss: int) -> int:
        """What the runtime holds now, of a process resident size ``rss``."""
        return max(0, rss - self.baseline)

    def fits(self, rss: int, need: int) -> bool:
        """Whether a task that may add ``need`` bytes fits under the limit now."""
        return self.held(rss) + self.reserved + need <= self.limit

    def roomy_below(self, need: int) -> int:
        """The resident size past which a task adding ``need`` bytes no longer fits."""
        return self.baseline + self.limit - self.reserved - need

    def excess(self, rss: int, need: int) -> int:
        """Bytes to spill so that a task adding ``need`` fits, with room to spare."""
        target = int(self.limit * RELIEF_TARGET)
        return max(0, self.held(rss) + self.reserved + need - target)

    def seen_result(self, nbytes: int) -> None:
        """A task's result of ``nbytes`` was stored."""
        self.recent.append(nbytes)
