"""Running a supervisor or a worker until it is told to stop (SIGTERM, SIGINT).

Process managers (Kubernetes, systemd, ``timeout``, a terminal's Ctrl-C) stop a process
with SIGTERM or SIGINT whatever it is doing, so a signal ends the service in every state:
while it starts (a worker still waiting for its supervisor), while it runs, and while it
stops (a second Ctrl-C ends the process at once).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

logger = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


async def run_until_signalled(
    start: Callable[[], Awaitable[Any]], stop: Callable[[], Awaitable[Any]]
) -> None:
    """Start a service, wait for SIGTERM or SIGINT, then stop it.

    A signal that comes while ``start`` is still running cancels it. ``stop`` runs in every
    case once ``start`` began, so what the service owns (spill files, registrations) is
    given back; it must cope with a start that did not finish. A second SIGINT while
    stopping exits at once with the usual ``128 + signal`` status.
    """
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()

    def on_signal(signum: int) -> None:
        if not stopping.is_set():
            logger.info("%s: stopping", signal.Signals(signum).name)
            stopping.set()
        elif signum == signal.SIGINT:
            # Ctrl-C again: whoever pressed it does not want to wait for the clean-up. A
            # repeated SIGTERM is not that: several managers may send one each (a nanny
            # and a script signalling every worker process), and SIGKILL follows anyway.
            logger.warning("SIGINT while stopping: exiting now")
            os._exit(128 + signum)

    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, on_signal, int(sig))
    starting = asyncio.ensure_future(start())
    signalled = asyncio.ensure_future(stopping.wait())
    try:
        await asyncio.wait({starting, signalled}, return_when=asyncio.FIRST_COMPLETED)
        if not starting.done():
            starting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await starting  # a start that failed raises here, after stop below
        await signalled
    finally:
        signalled.cancel()
        await stop()


def exit_if_threads_linger(status: int, grace: float = 1.0) -> None:
    """End the process now if threads other than this one still run after ``grace``
    seconds (a task busy in a slot).

    Python joins such threads at exit, which would keep a stopped worker alive for as long
    as its longest task; the service has stopped and cleaned up, so nothing is lost.
    """
    deadline = time.monotonic() + grace
    lingering = []
    for thread in threading.enumerate():
        if thread is threading.current_thread() or thread.daemon:
            continue
        thread.join(max(deadline - time.monotonic(), 0.0))
        if thread.is_alive():
            lingering.append(thread.name)
    if not lingering:
        return
    logger.info("threads still busy after stopping (%s): exiting without them", lingering)
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(status)


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
