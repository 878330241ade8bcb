"""Chunks of a CSV read that skips lines by number: each first learns its lines' numbers.

With a list or callable ``skiprows``, or a ``skipfooter``, a chunk must know the number,
in its file, of its first line, and the footer needs each file's count of lines. So the
tasks of a file of several byte ranges are:

- ``count_range``, one per range: the lines that start in it (``csv_lines.count_lines``)
  and whether that count is exact (``QuoteRule.exact``);
- ``number_file``, one per file: where each range's lines start, and the file's total;
- ``read_numbered``, one per range: it parses its lines with ``skiprows`` shifted to
  its own numbering, the footer's lines included (``RowSkipping.shifted``). The first
  range is parsed from the top of the file, header included. pandas' python parser
  (``skipfooter``, ``read_fwf``) is not given ``skiprows`` for the other ranges: it
  checks them only until a blank line at the start of a parse, which pandas does at the
  top of the file alone; the task drops the skipped lines itself.

A file whose count is not exact (a quoted field holding a line ending, an escape
character, a separator given as a regular expression) is parsed whole, from its first
byte, by the task of its first range, with pandas' own ``header``, ``skiprows`` and
``skipfooter``, and its other ranges are empty; a file of one range is parsed that way
without counting.
"""

from __future__ import annotations

import io
import itertools
import math
from dataclasses import dataclass
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.io.csv_chunks import TextParse, owned_range, read_range
from jupyter_mars.dataframe.io.csv_lines import QuoteRule, count_lines
from jupyter_mars.dataframe.io.csv_skip import RowSkipping
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import TileContext, Tiled, key_grid


@dataclass(frozen=True)
class FileLines:
    """How the lines of a file's data are spread over its byte ranges."""

    starts: tuple[int, ...]
    """Per range, the number of its first line, counted from the file's data start."""
    counts: tuple[int, ...]
    """Per range, the lines that start in it."""
    exact: bool
    """Whether the counts are the line numbers pandas gives (no quoted line ending)."""

    @property
    def total(self) -> int:
        return sum(self.counts)


def count_range(path: str, start: int, stop: int, first: bool, rule: QuoteRule) -> tuple[int, bool]:
    """The lines that start in the byte range ``[start, stop)`` of ``path`` (as the range
    owns them), and whether counting line endings numbers them exactly."""
    with open(path, "rb") as f:
        begin, end = owned_range(f, start, stop, first)
        f.seek(begin)
        data = f.read(end - begin)
    return count_lines(data), rule.exact(data)


def number_file(*counts: tuple[int, bool]) -> FileLines:
    """The ``FileLines`` of a file from the ``count_range`` of each of its ranges."""
    lines = tuple(n for n, _ in counts)
    starts = tuple(itertools.accumulate(lines[:-1], initial=0))
    return FileLines(starts, lines, all(ok for _, ok in counts))


def read_whole(path: str, skipping: RowSkipping, text: TextParse) -> Any:
    """Parse all of ``path`` as pandas does, its header row and skipped lines too."""
    whole: dict[str, Any] = {"skiprows": skipping.shifted(0)}
    if skipping.footer:
        whole["skipfooter"] = skipping.footer
    return text.frame(path, top=True, **whole)


def read_kept_lines(path: str, start: int, stop: int, skip: Any, text: TextParse) -> Any:
    """Parse the lines of the byte range ``[start, stop)`` of ``path`` (not a file's first
    range) that ``skip`` (line numbers within the range, or a predicate) keeps."""
    with open(path, "rb") as f:
        begin, end = owned_range(f, start, stop, False)
        f.seek(begin)
        data = f.read(end - begin)
    skipped = skip.__contains__ if isinstance(skip, set) else skip
    # no line ending is quoted here (the count was exact), so lines split as pandas' do
    kept = b"".join(line for i, line in enumerate(data.splitlines(keepends=True)) if not skipped(i))
    return text.frame(io.BytesIO(kept))


def read_numbered(
    piece: tuple[str, int, int, bool],
    index: int,
    lines: FileLines | None,
    data_line: int,
    skipping: RowSkipping,
    text: TextParse,
) -> Any:
    """Parse range ``index`` of a file (``piece`` is ``(path, start, stop, first)``)
    whose second range may start at line ``data_line``, dropping the lines ``skipping``
    drops. ``lines`` is the file's ``number_file``; None for a file of one range."""
    path, start, stop, _ = piece
    if lines is None or not lines.exact:
        return read_whole(path, skipping, text) if index == 0 else text.meta.copy()
    footer = data_line + lines.total - skipping.footer if skipping.footer else None
    end = data_line + lines.starts[index] + lines.counts[index]
    if index == 0:
        if footer is not None and footer < end:  # the footer reaches the first range
            return read_whole(path, skipping, text)
        return read_range(path, 0, stop, True, text, {"skiprows": skipping.shifted(0, end, footer)})
    offset = data_line + lines.starts[index]
    skiprows = skipping.shifted(offset, lines.counts[index], footer)
    if text.parse is pd.read_fwf or text.kwargs.get("engine") == "python":
        return read_kept_lines(path, start, stop, skiprows, text)
    return read_range(path, start, stop, False, text, {"skiprows": skiprows})


def tile_numbered(
    key: str,
    ranges: tuple[tuple[str, int, int, bool], ...],
    file_lines: tuple[int, ...],
    skipping: RowSkipping,
    rule: QuoteRule,
    text: TextParse,
    ctx: TileContext,
) -> Tiled:
    """The tasks of a numbered read of ``ranges`` (each file's first range marked first),
    whose files' second ranges may start at the lines ``file_lines``."""
    files: list[list[int]] = []
    for i, piece in enumerate(ranges):
        if piece[3] or not files:
            files.append([])
        files[-1].append(i)
    grid = key_grid(key, [len(ranges)])
    for f, members in enumerate(files):
        numbering: Any = None
        if len(members) > 1:
            for i in members:
                ctx.new_task((f"{key}-count", i), count_range, *ranges[i], rule)
            numbering = Ref((f"{key}-lines", f))
            counts = [Ref((f"{key}-count", i)) for i in members]
            ctx.new_task(numbering.key, number_file, *counts)
        for j, i in enumerate(members):
            ctx.new_task(
                grid[i], read_numbered, ranges[i], j, numbering, file_lines[f], skipping, text
            )
    return Tiled(((math.nan,) * len(ranges),), grid)
