"""Iterating in Python: ``iterrows``, ``itertuples`` and ``items``, a batch at a time.

The object is executed once; the rows are then fetched ``batch_size`` at a time (Mars's
keyword), so a long frame is never held in Python whole. ``DataFrame.items`` fetches
one column at a time. What each yields is pandas' (labels, Series, namedtuples).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series
from jupyter_mars.dataframe.selection import iloc_rows
from jupyter_mars.dataframe.summaries import row_count

BATCH_SIZE = 1000
"""Rows fetched at a time by default, as in Mars."""


def _batches(self: FrameBase, batch_size: int, session: Any) -> Iterator[Any]:
    """The executed data, ``batch_size`` rows at a time, as pandas objects."""
    if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size < 1:
        raise ValueError(f"batch_size must be a positive int, got {batch_size!r}")
    self.execute(session=session)
    n = row_count(self)
    if n == 0:
        yield self.to_pandas(session=session)
        return
    for start in range(0, n, batch_size):
        yield iloc_rows(self, slice(start, start + batch_size)).to_pandas(session=session)


def iterrows(
    self: DataFrame, batch_size: int = BATCH_SIZE, session: Any = None
) -> Iterator[tuple[Any, Any]]:
    """(label, row as a Series) for each row, as pandas' ``iterrows``."""
    for part in _batches(self, batch_size, session):
        yield from part.iterrows()


def itertuples(
    self: DataFrame,
    index: bool = True,
    name: str | None = "Pandas",
    batch_size: int = BATCH_SIZE,
    session: Any = None,
) -> Iterator[Any]:
    """A namedtuple (a plain tuple with ``name=None``) for each row, as pandas'."""
    for part in _batches(self, batch_size, session):
        yield from part.itertuples(index=index, name=name)


def series_items(
    self: Series, batch_size: int = BATCH_SIZE, session: Any = None
) -> Iterator[tuple[Any, Any]]:
    """(label, value) for each value, as pandas' ``Series.items``."""
    for part in _batches(self, batch_size, session):
        yield from part.items()


def frame_items(self: DataFrame, session: Any = None) -> Iterator[tuple[Any, Any]]:
    """(column label, column as a pandas Series), one column fetched at a time."""
    self.execute(session=session)
    for position in range(len(self.meta.columns)):
        column = self.iloc[:, position]
        yield self.meta.columns[position], column.to_pandas(session=session)


def _attach() -> None:
    setattr(DataFrame, "iterrows", iterrows)  # noqa: B010 - attached as the others
    setattr(DataFrame, "itertuples", itertuples)  # noqa: B010
    setattr(DataFrame, "items", frame_items)  # noqa: B010
    setattr(Series, "items", series_items)  # noqa: B010


_attach()
