"""Chunk kernels of ``read_csv``: byte ranges cut at line boundaries.

A file is split into byte ranges; each range is widened to whole lines (a range starts
just after the first newline at or after its start offset, except the first range of a
file, which starts at the top of the file, and ends just after the first newline at or
after its end offset), so every line belongs to exactly one chunk. Each chunk parses its
lines with ``pandas.read_csv`` (or ``read_fwf``) as ``TextParse`` says: the first range
of a file with pandas' own header and skipped lines, the others as data lines with the
file's column names. A chunk's row count is unknown until parsed, so a second operator
renumbers the rows into one ``RangeIndex`` once the lengths are known. ``csv_tile`` turns
a read into these tasks.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.io.conform import conform_dtypes

_BLOCK = 1 << 16


def line_end(f: Any, pos: int, size: int) -> int:
    """The offset just past the first newline at or after ``pos`` (``size`` if none)."""
    if pos >= size:
        return size
    f.seek(pos)
    while True:
        block: bytes = f.read(_BLOCK)
        if not block:
            return size
        i: int = block.find(b"\n")
        if i >= 0:
            return pos + i + 1
        pos += len(block)


FIRST_FILE = "inferred from the start of the first file"


def conform(frame: pd.DataFrame, meta: pd.DataFrame, where: str) -> pd.DataFrame:
    """``frame`` with ``meta``'s columns and dtypes, or an error saying to pass ``dtype=``."""
    if list(frame.columns) != list(meta.columns):
        raise ValueError(
            f"{where}: parsed columns {list(frame.columns)} differ from the expected "
            f"{list(meta.columns)}"
        )
    return conform_dtypes(frame, meta, where, FIRST_FILE)


def owned_range(f: Any, start: int, stop: int, first: bool) -> tuple[int, int]:
    """The bytes of the open file ``f`` that the range ``[start, stop)`` owns: from the
    first line starting in it (from ``start`` itself for a file's first range) to the end
    of the line that ``stop`` falls in."""
    size = f.seek(0, io.SEEK_END)
    begin = start if first else line_end(f, start, size)
    end = line_end(f, stop, size) if stop < size else size
    return begin, end


@dataclass(frozen=True)
class TextParse:
    """How the chunks of one read are parsed, and the columns and dtypes they are given."""

    parse: Any
    """``pandas.read_csv``, or ``read_fwf`` for fixed-width files."""
    names: tuple[Any, ...]
    kwargs: dict[str, Any]
    """The other arguments of ``parse`` (no ``header``, ``names``, ``skiprows``...)."""
    meta: Any
    header: int | None = None
    """The row of each file that holds the column names."""
    named: bool = True
    """Whether the names were given (else pandas takes them from the header row)."""

    def parsed(self, source: Any, top: bool = False, **extra: Any) -> pd.DataFrame:
        """``source`` (a path or a binary stream) parsed, with ``extra`` arguments: from
        the top of a file (``top``), with its header row, else as data lines."""
        if top:
            # the user's own arguments: pandas' python parser reads the first rows of a
            # file in a way of its own, which depends on them
            head = {"header": self.header, "names": list(self.names) if self.named else None}
        else:
            head = {"header": None, "names": list(self.names)}
        return self.parse(source, **head, **self.kwargs, **extra)

    def frame(self, source: Any, top: bool = False, **extra: Any) -> pd.DataFrame:
        """``parsed``, with ``meta``'s columns and dtypes."""
        try:
            frame = self.parsed(source, top, **extra)
        except pd.errors.EmptyDataError:  # only blank or skipped lines
            return self.meta.copy()
        return conform(frame, self.meta, self.parse.__name__)


def read_range(
    path: str, start: int, stop: int, first: bool, text: TextParse, extra: dict[str, Any]
) -> Any:
    """Parse the whole lines of ``path`` that the byte range ``[start, stop)`` owns, with
    ``extra`` arguments; a file's ``first`` range is parsed from the top of the file."""
    with open(path, "rb") as f:
        begin, end = owned_range(f, 0 if first else start, stop, first)
        if begin >= end:
            return text.meta.copy()
        f.seek(begin)
        # parsed as it is read: copying a range of tens of MiB into one buffer first
        # costs a quarter of the parse (fresh pages), and the parser reads in pieces
        stream = io.BufferedReader(ByteRange(f, end - begin))
        return text.frame(stream, top=first, **extra)


class ByteRange(io.RawIOBase):
    """The next ``size`` bytes of the binary file ``f``, as a stream of their own."""

    def __init__(self, f: Any, size: int) -> None:
        super().__init__()
        self._f = f
        self._left = size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = min(len(buffer), self._left)
        if n <= 0:
            return 0
        got = self._f.readinto(memoryview(buffer)[:n])
        self._left -= got
        return int(got)


def read_head(files: list[str], nrows: int, text: TextParse, skiprows: Any) -> Any:
    """The first ``nrows`` data rows over ``files``, in order: each file is parsed by
    pandas from its top, with its header row and ``skiprows``."""
    parts = []
    left = nrows
    for path in files:
        if left <= 0:
            break
        frame = text.frame(path, top=True, skiprows=skiprows, nrows=left)
        parts.append(frame)
        left -= len(frame)
    if not parts:
        return text.meta.copy()
    return pd.concat(parts, ignore_index=True)
