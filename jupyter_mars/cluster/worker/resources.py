"""True resource figures of a worker, for heartbeats and its dashboard page.

CPU is measured as CPU seconds consumed over wall seconds elapsed since the last sample,
so it is never negative and, with a process that honours its core budget, never above
``n_cpu`` (the original Mars mixed ``--n-cpu`` with the machine's idle cores and showed -1).

Bytes moved between workers are counted by ``TransferMeter``; GPUs are read through NVML
(``nvml.py``), not more often than every ``GPU_SAMPLE_SECONDS`` (``GpuMeter``).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import psutil

from jupyter_mars.cluster.worker.nvml import gpu_figures


class ResourceMeter:
    """Samples the CPU and memory used by this process tree."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        cpu_seconds: Callable[[], float] | None = None,
    ) -> None:
        self._process = psutil.Process(os.getpid())
        self._clock = clock
        self._cpu_seconds = cpu_seconds or self._tree_cpu_seconds
        self._last_wall = clock()
        self._last_cpu = self._cpu_seconds()

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

    def sample(self, advance: bool = True) -> dict[str, Any]:
        """CPU cores busy on average since the last sample, and memory in bytes.

        ``sample()`` closes the CPU window and opens the next one, as the heartbeat does
        each beat; ``sample(advance=False)`` reads the average since the window opened
        and leaves it open, so that readers in between (probes, pages) do not shorten the
        heartbeat's window."""
        now = self._clock()
        cpu = self._cpu_seconds()
        wall = max(now - self._last_wall, 1e-6)
        used = max(cpu - self._last_cpu, 0.0) / wall
        if advance:
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


class TransferMeter:
    """Bytes received from peers and sent to others, in total and per second.

    ``sample()`` closes a rate window and opens the next one, as the heartbeat does each
    beat; ``sample(advance=False)`` reads the totals and the rates of the last closed
    window (since creation while none is closed) without disturbing it, for readers in
    between.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._received = 0
        self._sent = 0
        self._window_start = clock()
        self._window_received = 0
        """Total received when the current window opened."""
        self._window_sent = 0
        self._rates: tuple[float, float] | None = None
        """Rates of the last closed window; None while none is closed."""

    def received(self, n: int) -> None:
        self._received += max(int(n), 0)

    def sent(self, n: int) -> None:
        self._sent += max(int(n), 0)

    def _window_rates(self, now: float) -> tuple[float, float]:
        elapsed = now - self._window_start
        if elapsed <= 0:  # a clock that did not move: no rate to tell yet
            return self._rates or (0.0, 0.0)
        return (
            max(self._received - self._window_received, 0) / elapsed,
            max(self._sent - self._window_sent, 0) / elapsed,
        )

    def sample(self, advance: bool = True) -> dict[str, Any]:
        """Totals in bytes and rates in bytes per second (see the class docstring)."""
        now = self._clock()
        if advance:
            rates = self._rates = self._window_rates(now)
            self._window_start = now
            self._window_received, self._window_sent = self._received, self._sent
        else:
            rates = self._rates if self._rates is not None else self._window_rates(now)
        return {
            "received_bytes": self._received,
            "sent_bytes": self._sent,
            "received_per_s": round(rates[0], 1),
            "sent_per_s": round(rates[1], 1),
        }


# ---- GPUs ---------------------------------------------------------------------------------

GPU_SAMPLE_SECONDS = 1.0
"""GPUs are read at most this often: the heartbeat and an open worker page share a reading."""


class GpuMeter:
    """``gpu_figures(devices)`` (``devices``: the worker's ``--cuda-devices``, None for
    every GPU NVML sees) read at most every ``every`` seconds, the last figures returned
    in between. Thread-safe, so that the reading can run off the event loop."""

    def __init__(
        self,
        devices: Sequence[int] | None,
        every: float = GPU_SAMPLE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        read: Callable[[Sequence[int] | None], list[dict[str, Any]]] = gpu_figures,
    ) -> None:
        self.devices = None if devices is None else list(devices)
        self._every = every
        self._clock = clock
        self._read = read
        self._lock = threading.Lock()
        self._figures: list[dict[str, Any]] = []
        self._read_at: float | None = None

    def sample(self) -> list[dict[str, Any]]:
        with self._lock:
            now = self._clock()
            if self._read_at is None or now - self._read_at >= self._every:
                self._figures = self._read(self.devices)
                self._read_at = now
            return [dict(row) for row in self._figures]
