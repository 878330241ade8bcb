"""``DatetimeIndex.normalize()``: midnights, with the ``freq`` pandas infers from them all.

pandas gives the result the frequency it infers from the whole normalized index (not
the input's ``freq``), so a chunk alone cannot tell it. Each chunk is normalized on its
own; a tree reduction then summarises every chunk's midnights (as naive wall times) as
runs of equal steps, ``(first, step, length)``: one run for a regular chunk, so what
moves between tasks stays small however long a regular index is. The last step rebuilds
the values from the runs and asks pandas for their frequency (pandas' own rule, which
looks at every value), and every chunk then takes that ``freq``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.core import Index
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.sort.tree import tree_frame

Runs = tuple[np.ndarray, np.ndarray, np.ndarray]
"""Starts, steps and lengths of runs of equally spaced int64 values, in order."""


def naive_midnights(chunk: pd.DatetimeIndex) -> np.ndarray:
    """The chunk's local midnights as int64 wall times (what pandas infers from)."""
    naive = chunk.tz_localize(None) if chunk.tz is not None else chunk
    return np.asarray(naive.normalize().asi8)


def runs_of(values: np.ndarray) -> Runs:
    """``values`` as runs of equal steps (each run starts where the step changes)."""
    if len(values) < 2:
        return values.copy(), np.zeros(len(values), np.int64), np.ones(len(values), np.int64)
    steps = np.diff(values)
    # a run starts at 0 and wherever the step to the next value changes; it ends before
    # the next run starts (the last one at the end)
    begins = np.flatnonzero(np.r_[True, steps[1:] != steps[:-1]])
    return values[begins], steps[begins], np.diff(np.r_[begins, len(values)])


def expand(runs: Runs) -> np.ndarray:
    starts, steps, lengths = runs
    if not len(starts):
        return np.zeros(0, np.int64)
    offsets = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    out: np.ndarray = np.repeat(starts, lengths) + np.repeat(steps, lengths) * offsets
    return out


def _join(a: Runs, b: Runs) -> Runs:
    """The runs of ``a``'s values followed by ``b``'s: the two runs at the seam become one
    where the step across it continues both (or either is a single value)."""
    if not len(a[0]) or not len(b[0]):
        return a if len(a[0]) else b
    last = int(a[0][-1]) + int(a[1][-1]) * (int(a[2][-1]) - 1)
    gap = int(b[0][0]) - last
    fits = -(2**63) <= gap < 2**63
    if fits and (a[2][-1] == 1 or a[1][-1] == gap) and (b[2][0] == 1 or b[1][0] == gap):
        seam = (a[0][-1:], np.array([gap], np.int64), a[2][-1:] + b[2][:1])
        return tuple(  # type: ignore[return-value]
            np.concatenate([x[:-1], s, y[1:]]) for x, s, y in zip(a, seam, b, strict=True)
        )
    return tuple(np.concatenate([x, y]) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


@dataclass(frozen=True)
class InferredFreq:
    """Tree-reduction kernels: runs per chunk, joined, then pandas' inferred ``freq``."""

    unit: str

    def chunk(self, block: pd.DatetimeIndex) -> Runs:
        return runs_of(naive_midnights(block))

    def combine(self, parts: list[Runs]) -> Runs:
        out = parts[0]
        for part in parts[1:]:
            out = _join(out, part)
        return out

    def aggregate(self, part: Runs) -> pd.Series:
        values = pd.DatetimeIndex(expand(part).view(f"M8[{self.unit}]"))
        return pd.Series([values.normalize().freq], dtype=object)


def with_freq(chunk: pd.DatetimeIndex, freq: pd.Series) -> pd.DatetimeIndex:
    """The chunk's midnights carrying the whole index's ``freq`` (a chunk of an index
    regular at ``freq`` is regular at it too, so pandas accepts it)."""
    return pd.DatetimeIndex(chunk.normalize(), freq=freq.iloc[0])


def normalize(index: Index) -> Any:
    """pandas' ``DatetimeIndex.normalize()``, ``freq`` included, over any chunking."""
    meta = index.meta
    assert isinstance(meta, pd.DatetimeIndex)
    out_meta = empty_like(meta.normalize())
    freq = tree_frame(
        index, InferredFreq(meta.unit), "normalize_freq", pd.Series([], dtype=object), 1
    )
    return map_chunks(
        with_freq,
        [index, freq],
        (Slot(0), Slot(1)),
        out_meta,
        name="normalize",
        broadcast=frozenset({1}),
    )
