"""One worker, seen from the supervisor's web service: its figures, the tasks it runs,
the last lines of its log, and a dump of its threads' stacks on demand.

The figures come from the worker's last heartbeat; the rest is asked of the worker over
RPC (``state``, ``stack``), each call bounded by ``WORKER_CALL_TIMEOUT`` so that a hung
worker cannot hold a request, or the stream, open.
"""

from __future__ import annotations

import asyncio
from typing import Any

import tornado.web

from jupyter_mars.cluster.supervisor.server import worker_summary
from jupyter_mars.cluster.supervisor.shares import memory_shares

WORKER_CALL_TIMEOUT = 3.0
"""Seconds a worker may take to answer a dashboard question."""
LOG_LINES = 100
"""Lines of the worker's log on its page."""


def _connection(service: Any, address: str) -> Any:
    worker = service.runtime.workers.get(address)
    if worker is None:
        raise tornado.web.HTTPError(404, reason=f"no worker {address!r}")
    return worker


async def _ask(worker: Any, method: str, **kwargs: Any) -> dict[str, Any]:
    """The worker's answer, or ``{"unreachable": why}`` when it gives none in time."""
    try:
        reply: dict[str, Any] = await asyncio.wait_for(
            worker.client.call(method, **kwargs), WORKER_CALL_TIMEOUT
        )
    except (OSError, asyncio.TimeoutError, TimeoutError) as exc:
        return {"unreachable": f"the worker did not answer ({type(exc).__name__})"}
    except Exception as exc:  # noqa: BLE001 - told on the page; the worker lives on
        return {"unreachable": f"the worker could not answer: {exc}"}
    return reply


async def worker_detail(service: Any, address: str) -> dict[str, Any]:
    """The worker page's model: the heartbeat figures, then what the worker tells now."""
    worker = _connection(service, address)
    state = await _ask(worker, "state", log_lines=LOG_LINES)
    # its share depends on the workers it shares a machine with, as of now
    shares = memory_shares([worker_summary(w) for w in service.runtime.workers.values()])
    return {
        **worker_summary(worker),
        **state,
        "address": worker.address,
        "memory_share": shares.get(worker.address),
    }


async def worker_stacks(service: Any, address: str) -> dict[str, Any]:
    """Every thread's stack in the worker process, now."""
    return await _ask(_connection(service, address), "stack")
