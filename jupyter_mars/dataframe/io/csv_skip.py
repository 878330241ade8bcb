"""pandas' row-skipping options of ``read_csv``: ``skiprows`` and ``skipfooter``.

pandas numbers the lines of a file from 0 at its top, the header included (``csv_lines``
says what a line is), and skips a line when its number is in ``skiprows`` (an int ``n``
meaning the first ``n`` lines, or a list, set or array of numbers), when ``skiprows(n)``
is true (a callable), or when it is one of the last ``skipfooter`` lines of the file.
``RowSkipping`` holds these rules for one read; a chunk that starts at line ``offset`` of
its file gets them, shifted to its own numbering, from ``RowSkipping.shifted``.

The options are checked by pandas itself (``check_row_options``), so a bad value raises
pandas' exception and message, and ``skipfooter`` without an engine warns and falls back
to the python engine as in pandas.
"""

from __future__ import annotations

import io
import numbers
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

Lines = range | frozenset[Any] | Callable[[int], Any]
"""Which line numbers are skipped: the first ``n`` (a range), a set, or a predicate."""

_ROW_OPTIONS = ("skiprows", "skipfooter", "nrows", "engine")


@dataclass(frozen=True)
class ShiftedSkip:
    """``skiprows`` for a parse that starts at line ``offset`` of its file: line ``i`` of
    the parse is line ``offset + i`` of the file; lines from ``stop`` on are the footer."""

    skiprows: Callable[[int], Any]
    """The user's predicate of a line number."""
    offset: int
    stop: int | None = None

    def __call__(self, i: int) -> bool:
        n = self.offset + i
        return (self.stop is not None and n >= self.stop) or bool(self.skiprows(n))


@dataclass(frozen=True)
class RowSkipping:
    """The lines ``skiprows`` and ``skipfooter`` drop from every file of one read."""

    lines: Lines | None = None
    footer: int = 0
    """``skipfooter``: the last lines of each file that are dropped."""

    def skips(self, n: int) -> bool:
        """Whether ``skiprows`` drops line ``n`` (the footer aside)."""
        if self.lines is None:
            return False
        if isinstance(self.lines, (range, frozenset)):
            return n in self.lines
        return bool(self.lines(n))

    @cached_property
    def _sorted(self) -> np.ndarray[Any, Any]:
        """The set's line numbers in order: a chunk finds its own by bisection."""
        assert isinstance(self.lines, frozenset)
        return np.sort(np.array(list(self.lines)))

    def beyond(self, line: int) -> bool:
        """Whether lines from ``line`` on are dropped by more than a leading count: then
        every chunk must know the number of its first line."""
        if self.footer or callable(self.lines):
            return True
        return isinstance(self.lines, frozenset) and bool(self.lines) and self._sorted[-1] >= line

    def shifted(self, offset: int, count: int | None = None, stop: int | None = None) -> Any:
        """``skiprows`` for a parse of ``count`` lines (None: up to the end of the file)
        starting at line ``offset``; lines from ``stop`` on are dropped too.

        A set when the lines are a set or a range (pandas looks those up without calling
        back into Python), else a ``ShiftedSkip``; the count ``n`` for the first ``n``
        lines of a file (pandas' pyarrow engine takes nothing else).

        >>> sorted(RowSkipping(frozenset({1, 5, 7})).shifted(4, count=3))
        [1]
        >>> sorted(RowSkipping(frozenset({5}), footer=1).shifted(4, count=3, stop=6))
        [1, 2]
        """
        if callable(self.lines):
            return ShiftedSkip(self.lines, offset, stop)
        if stop is not None and count is None:
            raise ValueError("a footer needs the count of lines")
        end = None if count is None else offset + count
        if isinstance(self.lines, range) and offset == 0 and stop is None:
            if end is None or self.lines.stop <= end:
                return self.lines.stop
        out: set[int] = set()
        if isinstance(self.lines, range):
            upper = self.lines.stop if end is None else min(self.lines.stop, end)
            out.update(range(max(self.lines.start, offset) - offset, upper - offset))
        elif self.lines:
            numbers = self._sorted
            first = np.searchsorted(numbers, offset)
            last = len(numbers) if end is None else np.searchsorted(numbers, end)
            out.update((numbers[first:last] - offset).tolist())
        if stop is not None and end is not None:
            out.update(range(max(stop, offset) - offset, end - offset))
        return out


def check_row_options(kwargs: dict[str, Any], parse: Callable[..., Any], **fixed: Any) -> None:
    """Raise what ``parse`` (``pandas.read_csv`` or ``read_fwf``) raises for the
    row-skipping options in ``kwargs`` and warn what it warns (the python engine fallback
    for ``skipfooter``), by parsing one line with them; ``fixed`` are more arguments."""
    options = {k: kwargs[k] for k in _ROW_OPTIONS if k in kwargs}
    if not options.get("skipfooter"):
        options.pop("nrows", None)
    try:
        parse(io.BytesIO(b"0\n"), header=None, **options, **fixed)
    except (pd.errors.EmptyDataError, pd.errors.ParserError):
        pass  # the options passed: the one line is too few for them


def row_skipping(kwargs: dict[str, Any], python: bool = False) -> RowSkipping | None:
    """The ``skiprows`` and ``skipfooter`` of checked ``kwargs`` (None when neither skips).

    pandas' C parser reads a list of line numbers as ints (``1.5`` is line 1); its
    ``python`` parser looks numbers up as they are.
    """
    skiprows = kwargs.get("skiprows")
    footer = int(kwargs.get("skipfooter") or 0)
    lines: Lines | None
    if skiprows is None:
        lines = None
    elif isinstance(skiprows, (int, np.integer)):
        lines = range(max(int(skiprows), 0))
    elif callable(skiprows):
        lines = skiprows
    elif python:
        # looked up as they are: only numbers can equal a line number
        lines = frozenset(n for n in set(skiprows) if isinstance(n, numbers.Real))
    else:
        lines = frozenset(int(n) for n in skiprows)
    if isinstance(lines, (range, frozenset)) and not lines:
        lines = None
    if lines is None and not footer:
        return None
    return RowSkipping(lines, footer)


def python_engine_for_footer(kwargs: dict[str, Any]) -> dict[str, Any]:
    """``kwargs`` with ``engine="python"`` when a footer made pandas fall back to it."""
    if kwargs.get("skipfooter") and kwargs.get("engine") is None:
        return {**kwargs, "engine": "python"}
    return kwargs
