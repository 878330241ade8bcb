"""Each worker's CPU, memory and running tasks over the last minutes, kept by the supervisor's web
service whether or not a dashboard is open, so that a page opened after a job still
draws what the job did. The first message of the state stream carries it."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import Any

HISTORY_SECONDS = 300.0
"""How far back the charts reach: the dashboard draws the same window."""

Point = dict[str, float]


class FigureHistory:
    def __init__(self, seconds: float = HISTORY_SECONDS) -> None:
        self.seconds = seconds
        self._series: dict[str, deque[Point]] = {}

    def record(self, cluster: Mapping[str, Any], now: float) -> None:
        """One sample of every worker in the cluster model; workers gone are forgotten."""
        seen = set()
        for worker in cluster.get("workers", []):
            address = str(worker.get("address", ""))
            figures = worker.get("resources") or {}
            n_cpu = float(worker.get("n_cpu") or 0)
            # as the dashboard draws it: never below 0 nor above the worker's cores
            cpu = min(max(float(figures.get("cpu_used") or 0.0), 0.0), n_cpu)
            memory = float(figures.get("memory_rss") or 0)
            running = float(worker.get("running") or 0)  # the task stream's lanes
            series = self._series.setdefault(address, deque())
            point = {"t": round(now, 3), "cpu": cpu, "memory": memory, "running": running}
            series.append(point)
            while series and series[0]["t"] < now - self.seconds:
                series.popleft()
            seen.add(address)
        for address in set(self._series) - seen:
            del self._series[address]

    def model(self) -> dict[str, list[Point]]:
        """The samples by worker address, oldest first."""
        return {address: list(series) for address, series in self._series.items()}
