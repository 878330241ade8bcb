"""The largest summed resident size of some processes while a block runs."""

from __future__ import annotations

import os
import threading

import psutil


class PeakRss:
    """Samples the summed RSS of ``pids`` (this process by default) every ``every``
    seconds on a thread while the block runs; ``peak`` is the largest, ``now()`` the
    current sum."""

    def __init__(self, *pids: int, every: float = 0.005) -> None:
        self.processes = [psutil.Process(pid) for pid in pids or (os.getpid(),)]
        self.every = every
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def now(self) -> int:
        return sum(p.memory_info().rss for p in self.processes)

    def _sample(self) -> None:
        while not self._stop.wait(self.every):
            self.peak = max(self.peak, self.now())

    def __enter__(self) -> PeakRss:
        self.peak = self.now()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
