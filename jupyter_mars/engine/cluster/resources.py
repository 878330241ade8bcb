"""True resource figures of this process and its children, for heartbeats.

CPU is measured as CPU seconds consumed over wall seconds elapsed since the last sample,
so it is never negative and, with a process that honours its core budget, never above
``n_cpu`` (the original Mars mixed ``--n-cpu`` with the machine's idle cores and showed -1).
"""

from __future__ import annotations

import os
import time
from typing import Any

import psutil


class ResourceMeter:
    """Samples the CPU and memory used by this process tree."""

    def __init__(self) -> None:
        self._process = psutil.Process(os.getpid())
        self._last_wall = time.monotonic()
        self._last_cpu = self._tree_cpu_seconds()

    def _tree_cpu_seconds(self) -> float:
        total = 0.0
        procs = [self._process]
        try:
            procs += self._process.children(recursive=True)
        except psutil.Error:
            pass
        for proc in procs:
            try:
                times = proc.cpu_times()
            except psutil.Error:
                continue
            total += times.user + times.system
        return total

    def sample(self) -> dict[str, Any]:
        """CPU cores busy on average since the last sample, and memory in bytes."""
        now = time.monotonic()
        cpu = self._tree_cpu_seconds()
        wall = max(now - self._last_wall, 1e-6)
        used = max(cpu - self._last_cpu, 0.0) / wall
        self._last_wall, self._last_cpu = now, cpu
        try:
            rss = self._process.memory_info().rss
        except psutil.Error:
            rss = 0
        vm = psutil.virtual_memory()
        return {
            "cpu_used": round(used, 3),
            "memory_rss": rss,
            "memory_total": vm.total,
            "memory_available": vm.available,
        }
