"""The operator of ``read_csv`` and ``read_fwf`` and the rule that splits it into tasks.

One task per byte range parses its lines (``csv_chunks.read_range``); the first range of
each file is parsed from the top of the file, so that pandas itself reads the header and
the lines skipped before the data. With ``nrows`` one task reads the first rows of the
files in order (``read_head``); when lines are skipped after the header, the ranges first
learn the numbers of their lines (``csv_numbered``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from jupyter_mars.dataframe.io.csv_chunks import TextParse, read_head, read_range
from jupyter_mars.dataframe.io.csv_lines import QuoteRule
from jupyter_mars.dataframe.io.csv_numbered import tile_numbered
from jupyter_mars.dataframe.io.csv_skip import RowSkipping
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule


@dataclass(frozen=True, eq=False)
class ReadCSVChunks(Op):
    """Parse byte ranges of text files; each chunk keeps its own 0-based row numbers."""

    ranges: tuple[tuple[str, int, int, bool], ...]
    """``(path, start, stop, first range of its file)`` per chunk."""
    text: TextParse
    nrows: int | None = None
    """With ``nrows``, one chunk reads the first rows of the files in order."""
    skipping: RowSkipping | None = None
    """The lines that ``skiprows`` and ``skipfooter`` drop."""
    numbered: bool = False
    """Whether ``skipping`` drops lines after the header: the chunks number their lines."""
    file_lines: tuple[int, ...] = ()
    """Per file, the number of the line its second range may start at (``DataStart``)."""
    rule: QuoteRule | None = None
    """How quotes are written: whether counting line endings numbers the lines."""

    def label(self) -> str:
        return str(self.text.parse.__name__)


@tile_rule(ReadCSVChunks)
def _tile_read(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, ReadCSVChunks)
    top = {} if op.skipping is None else {"skiprows": op.skipping.shifted(0)}
    if op.nrows is not None:
        grid = key_grid(node.key, [1])
        files = [path for path, _, _, first in op.ranges if first]
        ctx.new_task(grid[0], read_head, files, op.nrows, op.text, top.get("skiprows"))
        return Tiled(((math.nan,),), grid)
    if op.numbered:
        assert op.rule is not None
        assert op.skipping is not None
        return tile_numbered(node.key, op.ranges, op.file_lines, op.skipping, op.rule, op.text, ctx)
    grid = key_grid(node.key, [len(op.ranges)])
    for i, (path, start, stop, first) in enumerate(op.ranges):
        # lines are skipped only before the data, in the first range of each file
        extra = top if first else {}
        ctx.new_task(grid[i], read_range, path, start, stop, first, op.text, extra)
    return Tiled(((math.nan,) * len(op.ranges),), grid)
