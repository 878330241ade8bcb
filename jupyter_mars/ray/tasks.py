"""What runs inside a Ray worker: one (coarsened) chunk task, its inputs resolved by Ray.

The driver calls ``run_chunk.remote(task, keys, *refs)``: Ray resolves the ``ObjectRef``
arguments to the input chunks (fetching them from other nodes' object stores where needed)
before the function runs. It returns two objects (``num_returns=2``): the chunk itself,
which stays in the object store, and a few bytes the driver reads at once: the chunk's
shape, its size and the seconds each operator took. The driver never fetches a chunk to
learn its shape.

``max_retries`` lets Ray run a task again when its worker or node dies, and rebuild a
chunk lost with a node from the same task (lineage reconstruction). Exceptions the task
raises are not retried by Ray (``retry_exceptions=False``): the scheduler core decides.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ray

from jupyter_mars.engine.graph import Key, Task, TaskTimes, execute_task
from jupyter_mars.engine.sizeof import sizeof

SYSTEM_RETRIES = 3
"""Times Ray runs a task again after its worker process or node died, or to rebuild one
of its chunks that was lost with a node."""


def chunk_task(task: Task, keys: Sequence[Key], *values: Any) -> tuple[Any, dict[str, Any]]:
    """Compute ``task`` from its input chunks (``values``, in the order of ``keys``)."""
    times = TaskTimes()
    value = execute_task(task, dict(zip(keys, values)), times)
    shape = getattr(value, "shape", None)
    meta = {
        "shape": shape,
        "nbytes": sizeof(value),
        "seconds": times.seconds,
    }
    return value, meta


run_chunk = ray.remote(num_returns=2, max_retries=SYSTEM_RETRIES, retry_exceptions=False)(
    chunk_task
)
"""``chunk_task`` as a Ray remote function: ``run_chunk.remote(...) -> (value, meta)``."""
