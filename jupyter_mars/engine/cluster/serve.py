"""Running a supervisor or a worker until it is told to stop (SIGTERM, SIGINT)."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Awaitable, Callable
from typing import Any


async def run_until_signalled(
    start: Callable[[], Awaitable[Any]], stop: Callable[[], Awaitable[Any]]
) -> None:
    """Start a service, wait for SIGTERM or SIGINT, then stop it."""
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stopping.set)
    await start()
    try:
        await stopping.wait()
    finally:
        await stop()


def new_event_loop_policy(use_uvloop: str) -> None:
    """Install uvloop when asked ("yes") or when available ("auto")."""
    if use_uvloop == "no":
        return
    try:
        import uvloop
    except ImportError:
        if use_uvloop == "yes":
            raise RuntimeError("--use-uvloop yes: uvloop is not installed") from None
        return
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
