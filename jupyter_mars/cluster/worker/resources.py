"""True resource figures of a worker, for heartbeats and its dashboard page.

CPU is measured as CPU seconds consumed over wall seconds elapsed since the last sample,
so it is never negative and, with a process that honours its core budget, never above
``n_cpu`` (the original Mars mixed ``--n-cpu`` with the machine's idle cores and showed -1).

Bytes moved between workers are counted by ``TransferMeter``; GPUs are read through NVML
(``pynvml``) where it is installed, else through ``nvidia-smi``, and not more often than
every ``GPU_SAMPLE_SECONDS`` (``GpuMeter``).
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from typing import Any

import psutil

logger = logging.getLogger(__name__)


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

NVIDIA_SMI_QUERY = [
    "nvidia-smi",
    "--query-gpu=index,name,utilization.gpu,memory.used,memory.total",
    "--format=csv,noheader,nounits",
]
MIB = 1 << 20
GPU_SAMPLE_SECONDS = 5.0
"""GPUs are sampled at most this often: a run of ``nvidia-smi`` costs tens of ms."""


def _number(text: str) -> float | None:
    """A figure of ``nvidia-smi``; None for ``[N/A]``, ``[Not Supported]`` and the like."""
    try:
        return float(text)
    except ValueError:
        return None


def parse_nvidia_smi(text: str) -> list[dict[str, Any]]:
    """The rows of ``nvidia-smi --query-gpu=index,name,utilization.gpu,memory.used,
    memory.total --format=csv,noheader,nounits``, memory in bytes.

    A figure the GPU does not report is None; a line that names no device index is skipped.

    >>> rows = parse_nvidia_smi("0, Tesla T4, 35, 1024, 15360\\n1, Tesla T4, [N/A], 0, 15360")
    >>> [(row["index"], row["utilization"], row["memory_used"]) for row in rows]
    [(0, 35.0, 1073741824), (1, None, 0)]
    """
    rows = []
    for line in text.splitlines():
        fields = [field.strip() for field in line.split(",")]
        if len(fields) < 5:
            continue
        try:
            index = int(fields[0])
        except ValueError:
            continue
        # a name with a comma in it spans several fields: the figures are the last three
        utilization, used, total = (_number(f) for f in fields[-3:])
        rows.append(
            {
                "index": index,
                "name": ", ".join(fields[1:-3]),
                "utilization": utilization,
                "memory_used": None if used is None else int(used * MIB),
                "memory_total": None if total is None else int(total * MIB),
            }
        )
    return rows


def _nvml_figures(devices: list[int]) -> list[dict[str, Any]]:
    """Figures of ``devices`` from NVML; ImportError when ``pynvml`` is not installed."""
    import pynvml

    pynvml.nvmlInit()
    try:
        figures = []
        for index in devices:
            try:
                handle = pynvml.nvmlDeviceGetHandleByIndex(index)
                name = pynvml.nvmlDeviceGetName(handle)
                utilization = pynvml.nvmlDeviceGetUtilizationRates(handle).gpu
                memory = pynvml.nvmlDeviceGetMemoryInfo(handle)
            except pynvml.NVMLError:
                continue  # no such device, or one that reports nothing
            figures.append(
                {
                    "index": index,
                    "name": name.decode() if isinstance(name, bytes) else str(name),
                    "utilization": float(utilization),
                    "memory_used": int(memory.used),
                    "memory_total": int(memory.total),
                }
            )
        return figures
    finally:
        pynvml.nvmlShutdown()


def _nvidia_smi_figures(devices: list[int]) -> list[dict[str, Any]]:
    if shutil.which("nvidia-smi") is None:
        return []
    try:
        done = subprocess.run(
            NVIDIA_SMI_QUERY, capture_output=True, text=True, timeout=5, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return []
    if done.returncode != 0:
        return []
    wanted = set(devices)
    return [row for row in parse_nvidia_smi(done.stdout) if row["index"] in wanted]


def gpu_figures(devices: list[int] | None) -> list[dict[str, Any]]:
    """Utilization (percent) and memory (bytes) of the GPUs ``devices`` (indices as
    ``nvidia-smi`` numbers them); [] without devices or when they cannot be read. Never
    raises: the figures are for display."""
    if devices is None:
        return []
    try:
        return _nvml_figures(devices)
    except ImportError:
        pass
    except Exception:  # noqa: BLE001 - no driver, say: nvidia-smi may still tell
        logger.debug("NVML could not read the GPUs", exc_info=True)
    try:
        return _nvidia_smi_figures(devices)
    except Exception:  # noqa: BLE001 - output of an unexpected shape
        logger.debug("nvidia-smi could not read the GPUs", exc_info=True)
        return []


class GpuMeter:
    """``gpu_figures(devices)`` read at most every ``every`` seconds, the last figures
    returned in between. Thread-safe, so that the reading can run off the event loop."""

    def __init__(
        self,
        devices: list[int] | None,
        every: float = GPU_SAMPLE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        read: Callable[[list[int] | None], list[dict[str, Any]]] = gpu_figures,
    ) -> None:
        self.devices = devices
        self._every = every
        self._clock = clock
        self._read = read
        self._lock = threading.Lock()
        self._figures: list[dict[str, Any]] = []
        self._read_at: float | None = None

    def sample(self) -> list[dict[str, Any]]:
        if self.devices is None:
            return []
        with self._lock:
            now = self._clock()
            if self._read_at is None or now - self._read_at >= self._every:
                self._figures = self._read(self.devices)
                self._read_at = now
            return [dict(row) for row in self._figures]
