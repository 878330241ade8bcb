"""A service process that dies says why, in its own output.

- A crash in C (a segfault in a library, a buffer read after it was freed) kills the
  process before Python can log anything: ``faulthandler`` writes the Python stack of every
  thread to stderr on SIGSEGV, SIGFPE, SIGABRT, SIGBUS and SIGILL first, so the log shows
  what was running. The nanny (``deploy/nanny.py``) then logs the signal that ended it.
- An exception that escapes a thread is logged with its traceback and the thread's name,
  in the log's format, instead of only printed.
- An exception that escapes the service's event loop is logged as the reason the process
  stops (``log_fatal``) before it exits.
"""

from __future__ import annotations

import faulthandler
import logging
import sys
import threading

logger = logging.getLogger(__name__)


def report_crashes() -> None:
    """Install the reports above for this process; call once, at its start."""
    # stderr is the log when none is configured, and what a nanny or launcher keeps
    faulthandler.enable(file=sys.stderr, all_threads=True)
    threading.excepthook = _log_thread_exception


def log_fatal(what: str, error: BaseException) -> None:
    """Log ``error`` as the reason ``what`` stops, with its traceback."""
    logger.critical(
        "%s is stopping on an unexpected error: %s: %s",
        what,
        type(error).__name__,
        error,
        exc_info=(type(error), error, error.__traceback__),
    )


def _log_thread_exception(args: threading.ExceptHookArgs) -> None:
    if args.exc_type is SystemExit:
        return  # a thread ending itself on purpose, as the default hook treats it
    name = args.thread.name if args.thread is not None else "a thread"
    error = args.exc_value if args.exc_value is not None else args.exc_type()
    logger.critical(
        "uncaught exception in thread %s: %s: %s",
        name,
        args.exc_type.__name__,
        error,
        exc_info=(args.exc_type, error, args.exc_traceback),
    )
