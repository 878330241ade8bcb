"""A one-line text progress bar for terminals, redrawn in place."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class TextProgressBar:
    def __init__(self, stream: TextIO | None = None, width: int = 30) -> None:
        self.stream = stream or sys.stderr
        self.width = width
        self.start = time.perf_counter()
        self._last = ""

    def update(self, fraction: float) -> None:
        filled = int(round(self.width * fraction))
        elapsed = time.perf_counter() - self.start
        line = f"\r[{'#' * filled}{'.' * (self.width - filled)}] {fraction:6.1%} {elapsed:6.1f}s"
        if line != self._last:
            self.stream.write(line)
            self.stream.flush()
            self._last = line

    def close(self) -> None:
        self.update(1.0)
        self.stream.write("\n")
        self.stream.flush()
