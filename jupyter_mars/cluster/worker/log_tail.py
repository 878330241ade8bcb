"""The last lines of a process's log, kept in memory for its dashboard page.

``LogTail`` is a logging handler: attached to the root logger it sees every record that
the loggers let through (it never changes their levels) and keeps the last ``capacity`` of
them, one line each. The page is shown to whoever may see the dashboard, so a line holds
the message only: tracebacks and stack info (``exc_info``, ``stack_info``), which name
the server's files, are never formatted, and a multi-line message keeps its first line.
"""

from __future__ import annotations

import logging
from collections import deque

LINE_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
MAX_LINE_CHARS = 1000
"""Longer lines are cut to this many characters, the last one an ellipsis."""
ELLIPSIS = "…"


class _MessageLineFormatter(logging.Formatter):
    """``logging.Formatter`` without the exception and stack text it appends."""

    def format(self, record: logging.LogRecord) -> str:
        record.message = record.getMessage()
        if self.usesTime():
            record.asctime = self.formatTime(record, self.datefmt)
        return self.formatMessage(record)


class LogTail(logging.Handler):
    """Keeps the last ``capacity`` records, formatted as one line each."""

    def __init__(self, capacity: int = 200, level: int = logging.NOTSET) -> None:
        super().__init__(level)
        self.capacity = capacity
        self._lines: deque[str] = deque(maxlen=capacity)
        self.setFormatter(_MessageLineFormatter(LINE_FORMAT))

    def emit(self, record: logging.LogRecord) -> None:
        # called by ``handle`` with the handler's lock held
        try:
            text = self.format(record)
        except Exception:  # noqa: BLE001 - a bad format string must not break the caller
            self.handleError(record)
            return
        line, newline, _ = text.partition("\n")
        if newline or len(line) > MAX_LINE_CHARS:
            line = line[: MAX_LINE_CHARS - len(ELLIPSIS)] + ELLIPSIS
        self._lines.append(line)

    def lines(self, n: int) -> list[str]:
        """The last ``n`` lines, oldest first."""
        if n <= 0:
            return []
        self.acquire()  # a deque must not change while it is copied
        try:
            kept = list(self._lines)
        finally:
            self.release()
        return kept[-n:]
