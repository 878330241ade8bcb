r"""Lines of CSV bytes as pandas numbers them for ``skiprows``, and where a file's data starts.

pandas' parsers number records rather than physical lines: a line ending (``\n``,
``\r\n`` or a lone ``\r``) ends a line unless it is inside a quoted field (or escaped),
and blank and comment lines are numbered like any other. Within bytes that hold no quoted
or escaped line ending, the number of a line is therefore the count of line endings
before it (``count_lines``), which is cheap. ``QuoteRule`` tells whether bytes that start
at a line start are such bytes: a quote opens a quoted field only at the start of a field
(after a separator or a line ending), so one regular expression search finds any quoted
field that reaches a line ending before its closing quote; the bytes are "exact" when
there is none. Where that cannot be shown (a quoted newline, an escape character, a
separator that is a regular expression), counting is not exact.

``find_data_start`` walks a file's first lines as pandas does to find its header: it
passes over the ``skiprows`` lines and blank and comment lines, drops the rows before
``header``, and returns where the data rows start and the number of that line. pandas'
python parser checks ``skiprows`` only until a blank line while it reads a row of the
header or one of the first data rows (a quirk of it): with ``lookahead`` the walk does
the same, and puts the data start after those rows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from jupyter_mars.dataframe.io.csv_skip import RowSkipping


def count_lines(data: bytes) -> int:
    r"""The lines that start in ``data``: its line endings, plus a last line without one.

    >>> count_lines(b"a\r\nb\rc\n\n"), count_lines(b"a\nb"), count_lines(b"")
    (4, 2, 0)
    """
    n = data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")
    if data and data[-1:] not in (b"\n", b"\r"):
        n += 1
    return n


@dataclass(frozen=True)
class QuoteRule:
    """How quoted fields are written, as ``read_csv``'s options say."""

    quotechar: bytes | None
    """None: quotes are ordinary characters (``quoting=csv.QUOTE_NONE``, fixed width)."""
    delimiter: bytes | None
    """The one-byte separator; None for a longer one (a regular expression)."""
    escapechar: bytes | None = None
    doublequote: bool = True
    """A doubled quote inside a quoted field stands for one quote."""
    skipinitialspace: bool = False
    """Spaces after a separator are skipped, so a quote may follow them."""
    _fields: Any = field(init=False, repr=False, compare=False)
    """Matches each quoted field, from its opening quote to its closing one or the end."""
    _open: Any = field(init=False, repr=False, compare=False)
    """Matches a quoted field that reaches a line ending (or the end) before it closes."""

    def __post_init__(self) -> None:
        fields = opened = None
        if self.quotechar is not None and self.delimiter is not None:
            q, d = re.escape(self.quotechar), re.escape(self.delimiter)
            spaces = rb" *" if self.skipinitialspace else b""
            start = rb"(?:\A|(?<=[\r\n" + d + rb"]))" + spaces + q
            if not self.skipinitialspace:
                # the quote first: the search jumps from quote to quote
                start = q + rb"(?:(?<=\A" + q + rb")|(?<=[\r\n" + d + rb"]" + q + rb"))"
            inside, line = rb"[^" + q + rb"]*", rb"[^" + q + rb"\r\n]*"
            if self.doublequote:
                inside += rb"(?:" + q + q + inside + rb")*"
                line += rb"(?:" + q + q + line + rb")*"
            fields = re.compile(start + inside + rb"(" + q + rb"|\Z)")
            opened = re.compile(start + line + rb"(?=[\r\n]|\Z)")
        object.__setattr__(self, "_fields", fields)
        object.__setattr__(self, "_open", opened)

    def exact(self, data: bytes) -> bool:
        """Whether every line ending in ``data`` (which starts at a line start) ends a
        line, and no quoted field is open at its end.

        A field start is recognised where a quote follows a separator or a line ending;
        one inside a quoted field is too, which can only find an open field that is not
        one (then counting is wrongly said to be inexact, which costs time, not rows).

        >>> rule = QuoteRule(b'"', b",")
        >>> rule.exact(b'a,"b,""c"" d"\\n"e",f\\n'), rule.exact(b'a,"b\\nc"\\n')
        (True, False)
        >>> rule.exact(b'x"\\n'), rule.exact(b'a,"b\\n')
        (True, False)
        """
        if self.escapechar is not None and self.escapechar in data:
            return False
        if self.quotechar is None or self.quotechar not in data:
            return True
        return self._open is not None and self._open.search(data) is None

    def open_at_end(self, data: bytes) -> bool:
        """Whether a quoted field of ``data`` (which starts at a line start) is still
        open at its end, so the line goes on after its last line ending."""
        if self._fields is None or self.quotechar is None or self.quotechar not in data:
            return False
        # only the last field can be open: an open one runs to the end of the bytes
        return any(not match.group(1) for match in self._fields.finditer(data))


@dataclass(frozen=True)
class DataStart:
    """Where the chunks of a file start, as ``find_data_start`` found it."""

    offset: int
    """The byte offset where the data rows start, or a few rows later: the chunk that
    holds it parses the file from its top, with pandas' own header and skipped lines."""
    line: int
    """The number of the line at ``offset``."""
    header: bytes = b""
    """The header line; empty when there is none."""
    first_row: bytes = b""
    """Without a header: the first row, whose fields count the columns."""


@dataclass(frozen=True)
class LineKinds:
    """Which lines pandas passes over while it looks for the header."""

    blank: bytes = b" \t"
    """The characters a blank line may hold (the separator is not one of them)."""
    comment: bytes | None = None
    """Lines that start with this character are comments."""
    skip_blank: bool = True
    """``skip_blank_lines``: blank lines are passed over rather than read as rows."""

    def passed_over(self, line: bytes) -> bool:
        if self.comment is not None and line.startswith(self.comment):
            return True
        return self.skip_blank and not line.rstrip(b"\r\n").strip(self.blank)


def lines_of(f: Any, rule: QuoteRule) -> Iterator[tuple[int, bytes]]:
    """``(offset, line)`` for each line of the open binary file ``f`` from its current
    position, a quoted line ending joining the physical lines around it."""
    while True:
        offset = f.tell()
        line = f.readline()
        if not line:
            return
        while rule.open_at_end(line):
            more = f.readline()
            if not more:
                break
            line += more
        yield offset, line


class _Rows:
    """The rows of a file as pandas reads them while it looks for the header."""

    def __init__(
        self, f: Any, rule: QuoteRule, skipping: RowSkipping | None, kinds: LineKinds, python: bool
    ) -> None:
        self._lines = lines_of(f, rule)
        self._skipping = skipping
        self._kinds = kinds
        self._python = python
        self.number = 0
        """The number of the next line."""

    def next_row(self) -> tuple[int, bytes] | None:
        """``(offset, line)`` of the next row, None at the end of the file. pandas'
        python parser checks ``skiprows`` only until a blank line (a quirk of its)."""
        checking = True
        for offset, line in self._lines:
            self.number += 1
            if checking and self._skipping is not None and self._skipping.skips(self.number - 1):
                continue
            if self._kinds.passed_over(line):
                checking = not self._python
                continue
            return offset, line
        return None


def find_data_start(
    f: Any,
    header: int | None,
    skipping: RowSkipping | None,
    rule: QuoteRule,
    kinds: LineKinds,
    lookahead: int = 0,
) -> DataStart:
    """Where the data of the open binary file ``f`` starts: after the ``header``-th row
    (counted from 0 over the lines not skipped nor passed over), or with no ``header`` at
    the first row; at the end of the file when there is no such row.

    With ``lookahead`` (pandas' python parser, which reads its first rows in a way of its
    own), the data start is put that many rows later, so that the first chunk, parsed
    from the top of the file as pandas parses it, holds them.
    """
    f.seek(0)
    rows = _Rows(f, rule, skipping, kinds, python=lookahead > 0)
    names = b""
    first_row = b""
    if header is None:
        row = rows.next_row()
        if row is None:
            return DataStart(f.tell(), rows.number)
        first_row = row[1]
        if not lookahead:
            return DataStart(row[0], rows.number - 1, first_row=first_row)
    else:
        for _ in range(header + 1):
            row = rows.next_row()
            if row is None:
                return DataStart(f.tell(), rows.number)
            names = row[1]
    for _ in range(lookahead):
        if rows.next_row() is None:
            break
    return DataStart(f.tell(), rows.number, names, first_row)
