"""``KeysLost``: a worker died with the data; what is still needed is computed again.

Only data in memory can be lost: a task that was running on the dead worker is reported
by the shell as ``TaskFailed(retriable=True)``, after the ``KeysLost``, so that it waits
for its lost inputs. A key in memory is always needed (a key nobody needs was released and
is unknown here), so each lost key goes back to computing with its holds, dependents and
output jobs (those jobs miss it again). Its deps come from the event's ``lineage``, which
also re-creates the ancestors the core forgot (known ones are shared, as at submission:
in memory, read; waiting, ready or running, waited for). A missing lineage entry raises
``ValueError`` with the state unchanged.

Waiting, ready and running dependents count one more missing input; a ready one goes back
to ``waiting`` (``_t_memory_waiting`` in the transition table). A running one keeps running
and waits for the input only if it is retried. Retry counts are per key and survive a loss.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from jupyter_mars.engine.scheduler.events import Key, KeysLost
from jupyter_mars.engine.scheduler.records import MEMORY, READY, WAITING, TaskRecord
from jupyter_mars.engine.scheduler.submit import link

if TYPE_CHECKING:
    from jupyter_mars.engine.scheduler.state import SchedulerState

__all__ = ["handle_keys_lost"]


def handle_keys_lost(core: SchedulerState, ev: KeysLost) -> None:
    """Send the lost keys back to computing, re-creating the ancestors they need."""
    tasks = core._tasks
    lineage = ev.lineage

    # Phase 1, no mutation: the lost records still needed, their deps from the
    # lineage, and the forgotten ancestors they need (re-created below).
    lost: list[TaskRecord] = []
    lost_deps: list[tuple[Key, ...]] = []
    seen: set[TaskRecord] = set()
    stack: list[tuple[Key, int, int]] = []  # (key, seq, priority of its reader)
    for key in ev.keys:
        ts = tasks.get(key)
        if ts is None or ts.state != MEMORY or ts in seen:
            continue  # only data in memory can be lost; a running task fails instead
        # In memory means needed (by a hold, a dependent or an output job): a key
        # nobody needs was released already and is unknown here.
        seen.add(ts)
        deps = _lineage_of(key, lineage, ev)
        lost.append(ts)
        lost_deps.append(deps)
        stack.extend((dep, ts.seq, ts.priority) for dep in deps)
    new: dict[Key, tuple[Key, ...]] = {}
    order: dict[Key, tuple[int, int]] = {}
    while stack:
        key, seq, priority = stack.pop()
        if key in tasks or key in new:
            continue  # known: in memory (or lost, just above) or being computed
        deps = _lineage_of(key, lineage, ev)
        new[key] = deps
        order[key] = (seq, priority)
        stack.extend((dep, seq, priority) for dep in deps)

    # Phase 2: the lost records go back to computing, the ancestors are re-created,
    # and both are linked to their deps as at submission.
    for ts in lost:
        core._transition(ts, WAITING)
    created: list[TaskRecord] = []
    for key in new:
        seq, priority = order[key]
        ts = tasks[key] = TaskRecord(key, seq, priority, None, key in ev.gpu_keys)
        created.append(ts)
    records = [*lost, *created]
    for ts, dep_keys in zip(records, [*lost_deps, *new.values()]):
        link(core, ts, dep_keys)
    for ts in records:
        if ts.waiting_on == 0:
            core._transition(ts, READY)


def _lineage_of(key: Key, lineage: Mapping[Key, tuple[Key, ...]], ev: KeysLost) -> tuple[Key, ...]:
    try:
        return lineage[key]
    except KeyError:
        raise ValueError(
            f"{ev.stimulus_id}: no lineage for {key!r}, which must be recomputed"
        ) from None
