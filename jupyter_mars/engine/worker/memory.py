"""The worker core's memory decisions, taken on each ``MemorySampled`` event.

Three rules keep a worker within its limits (``limits.py``):

- **Admission.** A task is admitted (and only then fetches or reads anything) while the
  process's resident size (the last sample's, plus the results stored since: a sample
  every tenth of a second lags tasks that finish every few milliseconds), the bytes
  reserved by the tasks admitted before it and its own inputs' bytes fit under the soft
  limit, once what spilling can still free is counted
  (``MemoryState.fits``). A task that waits longer than ``admission_timeout`` fails with a
  ``MemoryError``; when no task here is admitted, nothing here can free memory, and it
  fails after ``hopeless_wait`` (for releases in flight), so that the supervisor can try it
  elsewhere or report it.
- **Spill.** Above the soft limit the core asks for about the excess (down to
  ``RELIEF_TARGET`` of the limit) to be written to disk, one ``Spill`` at a time.
- **Stop.** Past the hard limit it stops one task: among those computing, the one that
  has seen the most growth since its run started (the lowest resident size then). One at
  a time: once that task ended, a ``Collect`` gives back what it held, and no other is
  stopped for ``STOP_GRACE`` seconds while that memory returns to the system.

The functions here are the core's handlers' helpers; they read and change the core's
fields as ``transitions.py`` does.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from jupyter_mars.engine.node import op_name_of
from jupyter_mars.engine.worker.events import Key, MemorySampled
from jupyter_mars.engine.worker.instructions import Collect, Failed, Log, Shed, Spill
from jupyter_mars.engine.worker.limits import MemoryLimits, mib
from jupyter_mars.engine.worker.records import ERRED, FOLLOWING, RUNNING

if TYPE_CHECKING:
    from jupyter_mars.engine.worker.state import WorkerState

ADMISSION_TIMEOUT: Final = 60.0
"""Seconds a task waits for memory while other tasks here could free some."""
HOPELESS_WAIT: Final = 2.0
"""Seconds a task waits for memory when no task here could free any."""
RELIEF_TARGET: Final = 0.9
"""Above the soft limit, spill down to this share of it, so as not to spill again at once."""
STOP_GRACE: Final = 1.0
"""Seconds after a stopped task ended during which no other is stopped: what it held goes
back to the system once the error that stopped it is sent and collected."""


@dataclass
class MemoryState:
    """What the core knows of the process's memory, and its memory decisions so far."""

    limits: MemoryLimits | None
    """None: no limits (the core admits everything and spills nothing)."""
    admission_timeout: float = ADMISSION_TIMEOUT
    hopeless_wait: float = HOPELESS_WAIT
    where: str = ""
    """The worker's address, for messages."""
    rss: int = 0
    """The last sample's resident size."""
    reclaimable: int = 0
    """The last sample's bytes that spilling could free."""
    unsampled: int = 0
    """Bytes of the results stored since the last sample."""
    above_soft: bool = False
    spilling: bool = False
    """A ``Spill`` is under way (until ``SpillDone``)."""
    shed: tuple[Key, int] | None = None
    """(key, attempt) of the task told to stop, until it ended."""
    grace_until: float = -math.inf
    warned_idle: bool = False
    """Whether it was said that the chunks alone pass the hard limit (said once)."""
    stopped: int = 0
    """Tasks stopped for memory so far."""

    def fits(self, nbytes: int, reserved: int) -> bool:
        """Whether a task reading ``nbytes`` is admitted, ``reserved`` bytes being
        reserved by the tasks admitted before it."""
        if self.limits is None:
            return True
        held = self.rss + self.unsampled - self.reclaimable
        return held + reserved + nbytes <= self.limits.soft

    def figures(self) -> dict[str, Any]:
        """For the heartbeat and the dashboard."""
        limits = self.limits
        return {
            "rss": self.rss,
            "memory": None if limits is None else limits.memory,
            "soft_limit": None if limits is None else limits.soft,
            "hard_limit": None if limits is None else limits.hard,
            "above_soft_limit": self.above_soft,
            "tasks_stopped": self.stopped,
        }


def on_sample(core: WorkerState, ev: MemorySampled) -> None:
    """Act on a sample of the process's memory (the ``MemorySampled`` handler)."""
    m = core._memory
    m.rss, m.reclaimable, m.unsampled = ev.rss, ev.reclaimable, 0
    if m.limits is None:
        return
    if m.shed is not None and core._current(*m.shed) is None:
        # the stopped task ended: what it held may sit in reference cycles
        m.shed = None
        m.grace_until = ev.now + STOP_GRACE
        core._out.append(Collect(core._stimulus_id))
    if ev.rss > m.limits.hard:
        _stop_growing_task(core, m.limits, ev)
    _spill_above_soft(core, m.limits, ev)
    _refuse_waiting(core, m.limits, ev.now)


def _spill_above_soft(core: WorkerState, limits: MemoryLimits, ev: MemorySampled) -> None:
    m = core._memory
    above = ev.rss > limits.soft
    if above and not m.above_soft:
        core._out.append(
            Log(
                core._stimulus_id,
                logging.INFO,
                f"memory {mib(ev.rss)} is above the soft limit of {limits.describe_soft()}: "
                "spilling, and starting no new task",
            )
        )
    elif m.above_soft and not above:
        m.warned_idle = False
    m.above_soft = above
    if above and not m.spilling:
        m.spilling = True
        excess = ev.rss - int(limits.soft * RELIEF_TARGET)
        core._out.append(Spill(core._stimulus_id, excess))


def _stop_growing_task(core: WorkerState, limits: MemoryLimits, ev: MemorySampled) -> None:
    m = core._memory
    if m.shed is not None or ev.now < m.grace_until:
        return  # one at a time: the one told to stop is giving its memory back
    computing = [ts for ts in core._tasks.values() if ts.state in (RUNNING, FOLLOWING)]
    if not computing:
        if not m.warned_idle:
            m.warned_idle = True
            message = (
                f"memory {mib(ev.rss)} is past the hard limit of {limits.describe_hard()} with "
                "no task running: the chunks held here take it (spill directories let them go "
                "to disk)"
            )
            core._out.append(Log(core._stimulus_id, logging.WARNING, message))
        return
    culprit = min(computing, key=lambda ts: ts.rss_at_start)  # has seen the most growth
    runs = culprit.key if culprit.state == RUNNING else culprit.follower
    message = (
        f"task {runs!r} (operator {op_name_of(runs)!r}) was stopped on worker {m.where}: it "
        f"grew the worker's memory to {mib(ev.rss)}, past its hard limit of "
        f"{limits.describe_hard()}"
    )
    m.shed = (culprit.key, culprit.attempt)
    m.stopped += 1
    sid = core._stimulus_id
    core._out.append(Shed(sid, culprit.key, culprit.attempt, runs, message))
    core._out.append(Log(sid, logging.ERROR, message))


def _refuse_waiting(core: WorkerState, limits: MemoryLimits, now: float) -> None:
    """Fail the tasks that waited too long for memory."""
    m = core._memory
    if not core._waiting:
        return
    hopeless = len(core._tasks) == len(core._waiting)  # none admitted: none can free any
    patience = m.hopeless_wait if hopeless else m.admission_timeout
    for ts in [ts for ts in core._waiting if now - ts.arrived >= patience]:
        message = (
            f"worker {m.where}: no room for a task reading {ts.nbytes} bytes: its memory "
            f"({mib(m.rss)}, and {mib(core._reserved)} reserved by the tasks admitted) "
            f"leaves none under the soft limit of {limits.describe_soft()}"
            + (" and no other task here could free any" if hopeless else "")
        )
        core._out.append(Log(core._stimulus_id, logging.ERROR, message))
        core._transition(ts, ERRED, Failed(MemoryError(message)))
