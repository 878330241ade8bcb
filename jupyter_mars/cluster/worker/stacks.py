"""Every thread's stack in this process, for a worker's dashboard page.

Asked for on demand (the ``stack`` RPC), to see what a slow or stuck task is doing. Each
stack is ``traceback.format_stack`` text: file, line, function and source line per frame,
innermost last, and no local variables. Task slot threads (``mars-slot*``) come first.
"""

from __future__ import annotations

import sys
import threading
import traceback
from typing import Any

SLOT_THREAD_PREFIX = "mars-slot"
"""Names of the threads that run tasks (the worker's pool's ``thread_name_prefix``)."""


def thread_stacks() -> list[dict[str, Any]]:
    """``{"thread", "ident", "daemon", "stack"}`` for every thread running Python code."""
    threads = {thread.ident: thread for thread in threading.enumerate()}
    frames = sys._current_frames()
    try:
        stacks = []
        for ident, frame in frames.items():
            thread = threads.get(ident)
            stacks.append(
                {
                    "thread": thread.name if thread is not None else f"thread-{ident}",
                    "ident": ident,
                    "daemon": thread.daemon if thread is not None else False,
                    "stack": "".join(traceback.format_stack(frame)),
                }
            )
    finally:
        del frames  # frames hold their locals alive: do not keep them past this call
    stacks.sort(key=_slots_first)
    return stacks


def _slots_first(stack: dict[str, Any]) -> tuple[bool, str]:
    name = str(stack["thread"])
    return not name.startswith(SLOT_THREAD_PREFIX), name
