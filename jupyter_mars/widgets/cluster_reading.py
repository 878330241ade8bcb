"""What the cluster widget shows, read from the supervisor's ``GET /api/v1/cluster``.

Pure functions of that JSON model: one row per worker (its cores, the share of them busy,
its memory used of its share, its GPUs' use and memory, its running tasks) and the
cluster's totals. The bars'
values are percentages clamped to 0..100, because a worker's CPU reading can exceed its
cores (threads of the process outside its task slots) and its memory can exceed its share.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jupyter_mars.launcher.display import gpu_text


@dataclass(frozen=True)
class WorkerRow:
    """One worker as the widget shows it."""

    address: str
    """The worker's RPC address, ``host:port``."""
    cores: int
    """The cores it runs tasks on (``--n-cpu``)."""
    cpu_percent: float
    """Cores busy over its cores, 0..100."""
    cpu_text: str
    """``"0.45 of 1 core"``."""
    memory_percent: float
    """Memory its process uses over its share of the machine's, 0..100."""
    memory_text: str
    """``"43 MiB of 11.8 GiB"``, or only what it uses when its share is unknown."""
    running: int
    """Tasks running on it now."""
    gpus: int = 0
    """Its GPUs (those of its ``--cuda-devices``, else every one NVML sees)."""
    gpu_text: str = "none"
    """``"0: 37% busy, 10.0 of 80.0 GiB"``, a GPU after another, or ``"none"``
    (``display.gpu_text``)."""


@dataclass(frozen=True)
class ClusterReading:
    """The whole cluster at one moment."""

    workers: tuple[WorkerRow, ...]
    """One row per worker, in the supervisor's order."""
    hosts: int
    """Machines the workers run on."""
    cores: int
    """Cores of the cluster; a machine shared by several workers is counted once."""
    memory: int
    """Bytes of memory of the cluster, counted as ``cores`` are."""
    running: int
    """Tasks running on every worker."""
    totals_text: str
    """``"2 workers on 1 host: 2 cores, 23.5 GiB memory, 3 tasks running"``."""

    @property
    def with_gpus(self) -> bool:
        """Whether any worker has a GPU: GPU columns are shown only then."""
        return any(row.gpus for row in self.workers)


def percent(part: float, whole: float) -> float:
    """``part`` of ``whole`` in percent, clamped to 0..100; 0 when ``whole`` is not positive.

    >>> percent(1.5, 1), percent(1, 4), percent(3, 0), percent(-1, 2)
    (100.0, 25.0, 0.0, 0.0)
    """
    if whole <= 0:
        return 0.0
    return min(max(100.0 * part / whole, 0.0), 100.0)


def format_bytes(size: float) -> str:
    """``"512 B"``, ``"43 MiB"``, ``"11.8 GiB"``.

    >>> format_bytes(512), format_bytes(45481984), format_bytes(12638251008)
    ('512 B', '43 MiB', '11.8 GiB')
    """
    if size < 2**20:
        return f"{size:.0f} B" if size < 2**10 else f"{size / 2**10:.0f} KiB"
    if size < 2**30:
        return f"{size / 2**20:.0f} MiB"
    return f"{size / 2**30:.1f} GiB"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def worker_row(worker: dict[str, Any]) -> WorkerRow:
    """A worker of the model's ``workers`` list as a row."""
    resources = worker.get("resources") or {}
    cores = int(worker.get("n_cpu") or 0)
    busy = max(float(resources.get("cpu_used") or 0.0), 0.0)
    used = int(resources.get("memory_rss") or 0)
    share = int(worker.get("memory_share") or 0)
    memory_text = format_bytes(used) + (f" of {format_bytes(share)}" if share else "")
    gpus = list(resources.get("gpus") or [])
    return WorkerRow(
        address=str(worker.get("address", "")),
        cores=cores,
        cpu_percent=percent(busy, cores),
        cpu_text=f"{min(busy, cores):.2f} of {_plural(cores, 'core')}",
        memory_percent=percent(used, share),
        memory_text=memory_text,
        running=int(worker.get("running") or 0),
        gpus=len(gpus),
        gpu_text=gpu_text(gpus),
    )


def read_cluster(model: dict[str, Any]) -> ClusterReading:
    """The reading of a ``GET /api/v1/cluster`` answer."""
    rows = tuple(worker_row(w) for w in model.get("workers") or [])
    totals = model.get("totals") or {}
    hosts, cores = int(totals.get("hosts") or 0), int(totals.get("n_cpu") or 0)
    memory = int(totals.get("memory") or 0)
    running = sum(row.running for row in rows)
    text = (
        f"{_plural(len(rows), 'worker')} on {_plural(hosts, 'host')}: "
        f"{_plural(cores, 'core')}, {format_bytes(memory)} memory, "
        f"{_plural(running, 'task')} running"
    )
    return ClusterReading(rows, hosts, cores, memory, running, text)
