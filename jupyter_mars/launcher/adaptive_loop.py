"""The thread that makes a cluster adaptive: every ``interval`` seconds it reads the
supervisor's load, asks the policy (``adaptive.py``) for a worker count and resizes the
cluster to it.

Any launcher plugs in through ``Resizable``: its supervisor's web address and token, how
many workers it runs, and ``resize(n, retire)``, which starts or stops workers without
turning adapting off (its public ``scale(n)`` does turn it off, as in Dask). A Kubernetes
launcher would implement ``resize`` by patching its worker replicas.
"""

from __future__ import annotations

import logging
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, Protocol

from jupyter_mars.launcher.adaptive import (
    DEFAULT_INTERVAL,
    DEFAULT_WAIT,
    AdaptiveBounds,
    AdaptivePolicy,
    ClusterLoad,
    check_bounds,
)
from jupyter_mars.remote import HttpClient

__all__ = ["Adaptive", "Adapts", "Resizable"]

logger = logging.getLogger(__name__)


class Resizable(Protocol):
    """What a launcher offers to be made adaptive."""

    endpoint: str
    """The supervisor's web address."""
    token: str

    @property
    def n_workers(self) -> int:
        """Workers it runs (started or starting)."""
        ...

    def resize(self, n: int, retire: Sequence[str] = ()) -> None:
        """Run ``n`` workers: start more, or stop the newest; with ``retire`` (supervisor
        addresses), stop only workers named there, the first first (fewer, if too few
        are found: another worker may hold data). Returns once the cluster has them."""
        ...


class Adaptive:
    """A running adaptive loop over ``cluster`` (``cluster.adapt(...)`` makes it).

    ``bounds`` may be changed while it runs (``cluster.adapt`` again); ``stop()`` ends
    it. ``last_error`` is the last failure to read the load or to resize (the loop goes
    on: a supervisor that answers again is adapted again)."""

    def __init__(self, cluster: Resizable, bounds: AdaptiveBounds) -> None:
        self.cluster = cluster
        self.policy = AdaptivePolicy(bounds)
        self.last_error: str | None = None
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="mars-adaptive", daemon=True)
        self._thread.start()

    @property
    def bounds(self) -> AdaptiveBounds:
        return self.policy.bounds

    @bounds.setter
    def bounds(self, bounds: AdaptiveBounds) -> None:
        # one assignment: the loop reads the new bounds at its next decision
        self.policy.bounds = bounds

    @property
    def running(self) -> bool:
        return self._thread.is_alive() and not self._stopping.is_set()

    def __repr__(self) -> str:
        b = self.bounds
        state = "running" if self.running else "stopped"
        return f"<Adaptive {state} minimum={b.minimum} maximum={b.maximum} wait={b.wait:g}s>"

    def stop(self, timeout: float = 120.0) -> None:
        """End the loop; waits for a resize in progress to finish (unless called from the
        loop's own thread)."""
        self._stopping.set()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout)

    def _run(self) -> None:
        http = HttpClient(self.cluster.endpoint, self.cluster.token, timeout=5)
        while not self._stopping.is_set():
            try:
                self.step(http.json("GET", "/api/v1/cluster"))
            except Exception as exc:  # noqa: BLE001 - kept and logged; the loop goes on
                self.last_error = f"{type(exc).__name__}: {exc}"
                logger.warning("adaptive scaling: %s", self.last_error)
            self._stopping.wait(self.bounds.interval)

    def step(self, model: dict[str, Any]) -> None:
        """One decision on the supervisor's ``/api/v1/cluster`` answer, carried out."""
        launched = self.cluster.n_workers
        decision = self.policy.decide(ClusterLoad.from_model(model), launched, time.monotonic())
        if decision.target != launched and not self._stopping.is_set():
            logger.info(
                "adaptive scaling: %d -> %d workers%s",
                launched,
                decision.target,
                f" (idle: {', '.join(decision.retire)})" if decision.retire else "",
            )
            self.cluster.resize(decision.target, decision.retire)
            self.last_error = None


class Adapts(ABC):
    """``adapt`` and ``stop_adapting`` for a launcher that is ``Resizable``; it says how
    many workers it may run at most (``most_workers``) and whether it runs
    (``check_running``)."""

    adaptive: Adaptive | None
    """The adaptive loop while ``adapt`` is on (None: the size is the user's)."""

    @abstractmethod
    def most_workers(self, minimum: int) -> int:
        """The ``maximum`` that ``adapt`` takes when given none."""

    @abstractmethod
    def check_running(self) -> None:
        """Raise ``RuntimeError`` when the cluster does not run: its loop would start
        workers for a supervisor that is gone."""

    def adapt(
        self,
        minimum: int = 1,
        maximum: int | None = None,
        *,
        wait: float = DEFAULT_WAIT,
        interval: float = DEFAULT_INTERVAL,
    ) -> Adaptive:
        """Grow when tasks wait for a slot, shrink by one worker idle and empty for
        ``wait`` seconds, between ``minimum`` and ``maximum`` workers (None: as many as
        the launcher can run, ``most_workers``); called again, it changes the bounds.
        ``scale(n)`` or ``stop()`` turn it off."""
        if maximum is None:
            maximum = self.most_workers(minimum if isinstance(minimum, int) else 1)
        bounds = check_bounds(minimum, maximum, wait, interval)
        self.check_running()
        if self.adaptive is not None and self.adaptive.running:
            self.adaptive.bounds = bounds
        else:
            self.adaptive = Adaptive(self, bounds)  # type: ignore[arg-type]
        return self.adaptive

    def stop_adapting(self) -> None:
        """Keep the workers that run now, and stop adapting (nothing when it does not)."""
        if self.adaptive is not None:
            self.adaptive.stop()
            self.adaptive = None
