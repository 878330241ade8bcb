"""Lost workers: telling a dead worker from a busy one, and what the core is told.

A worker is given up for dead when its connection fails and it does not answer a probe
(:func:`alive`, within ``probe_timeout``), or when it misses its heartbeats (the
supervisor calls ``ClusterRuntime.remove_worker``). Then ``remove_worker`` empties its
records (:func:`take_out`) and tells the scheduler core, in this order: fewer slots;
``KeysLost`` for the chunks it held, with their lineage, so they are recomputed on the
others when anyone still needs them (held results included, eagerly);
``TaskFailed(retriable=True)`` for each task it was running, which runs again elsewhere.
The order matters: a task that read a lost chunk then waits for it to be recomputed
before it is retried. An RPC still in flight to a removed worker is ignored when it ends,
whatever it brings (the runtime checks ``worker.tasks``).

A worker's death is a machine fault of each task it ran, retried like any other by the
scheduler core, which alone counts a task's attempts (``max_retries``). A task whose
workers keep dying thus fails for good once its retries are spent, with an error naming
it, its operator and its attempts, so that a task that crashes its worker cannot take the
cluster down one worker at a time. A task that fails because a peer holding one of its
inputs died makes the runtime probe that peer (:func:`check_holders`) before retrying it.

These are free functions that the runtime calls on its event loop. They use only its
public parts (the worker table, ``probe_timeout``, ``remove_worker``) and the core's
public accessors (``attempts``, ``retries_left``): the runtime alone touches its own
bookkeeping.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING

from jupyter_mars.engine.graph import Key
from jupyter_mars.engine.node import op_name_of
from jupyter_mars.engine.scheduler.events import TaskFailed

if TYPE_CHECKING:
    from jupyter_mars.cluster.supervisor.runtime import ClusterRuntime, WorkerConnection
    from jupyter_mars.engine.scheduler.state import SchedulerState

__all__ = [
    "PROBE_TIMEOUT",
    "WorkerLost",
    "alive",
    "check_holders",
    "death_of",
    "give_up",
    "take_out",
]

logger = logging.getLogger(__name__)

PROBE_TIMEOUT = 5.0
"""Seconds a worker may take to answer a probe before it is given up for dead."""


class WorkerLost(ConnectionError):
    """The worker holding or computing a chunk went away."""


class NoWorkersError(RuntimeError):
    """The cluster has had no worker for longer than a job may wait for one."""


def take_out(
    worker: WorkerConnection, locations: dict[Key, str], sizes: dict[Key, int]
) -> tuple[list[Key], list[Key]]:
    """Empty a removed worker's records: the chunks it held (their locations and sizes
    dropped; shapes stay, the chunks are recomputed alike) and the tasks it was running,
    in a fixed order."""
    lost = list(worker.keys)
    worker.keys.clear()
    for key in lost:
        locations.pop(key, None)
        sizes.pop(key, None)
    running = sorted(worker.tasks, key=repr)
    worker.tasks.clear()
    worker.running = 0
    worker.gpu_tasks.clear()
    worker.gpu.running = 0
    return lost, running


def give_up(runtime: ClusterRuntime, worker: WorkerConnection) -> None:
    """Remove ``worker`` unless it was removed already (or replaced by a new one)."""
    if runtime.workers.get(worker.address) is worker:
        runtime.remove_worker(worker.address)


async def alive(runtime: ClusterRuntime, worker: WorkerConnection) -> bool:
    """Whether ``worker`` is still registered and answers a probe in time."""
    if runtime.workers.get(worker.address) is not worker:
        return False
    try:
        await asyncio.wait_for(worker.client.call("info"), runtime.probe_timeout)
    except (OSError, TimeoutError, asyncio.TimeoutError):  # ConnectionError included
        return False
    return True


async def check_holders(
    runtime: ClusterRuntime, worker: WorkerConnection, addresses: Iterable[str | None]
) -> None:
    """Give up the workers among ``addresses`` (other than ``worker``) that are dead."""
    for address in set(addresses):
        holder = runtime.workers.get(address) if address is not None else None
        if holder is not None and holder is not worker and not await alive(runtime, holder):
            give_up(runtime, holder)


def death_of(core: SchedulerState, key: Key, stimulus_id: str) -> TaskFailed:
    """The failure to report for ``key``, whose worker died: a machine fault, which the
    core retries or, its retries spent, errs the task with; the error then says so."""
    error: Exception = WorkerLost(f"the worker running task {key!r} died")
    if core.retries_left(key) == 0:
        error = RuntimeError(
            f"task {key!r} of operator {op_name_of(key)!r} was given up after "
            f"{core.attempts(key)} attempts: the worker running the last one died"
        )
    return TaskFailed(stimulus_id=stimulus_id, key=key, error=error, retriable=True)
