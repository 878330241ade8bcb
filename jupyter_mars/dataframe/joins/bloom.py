"""Bloom filters that prune a shuffled merge's rows before the shuffle (Mars's
``bloom_filter=`` and ``bloom_filter_options=`` of ``merge``).

A row whose keys match no row of the other side is dropped by an inner merge, and by a
left (right) merge on the right (left) side. Moving such rows through the shuffle is
wasted work. A Bloom filter of the other side's keys (a bit array: every key sets ``k``
bits chosen by hashes of it) answers "certainly absent" for most of them, at the cost of
one hash per row: each chunk of the other side sets the bits of its keys (one task per
chunk), the bit arrays are OR-ed by a tree, and every chunk of the pruned side keeps
only the rows whose bits are all set. A kept row may still match nothing (a false
positive, at about ``error_rate``), and the merge drops it as before: the result is the
merge's, only cheaper when few keys match.

The keys are hashed in the common forms of the shuffle (``keys``), so keys pandas
matches (``1`` and ``1.0``, NaN and NaN) set and test the same bits.

Options (``bloom_filter_options``), as in Mars: ``max_elements`` (the keys the filter is
sized for; default the filtering side's rows, when known), ``error_rate`` (0.1),
``apply_chunk_size_threshold`` (with ``bloom_filter="auto"``, the larger side needs at
least that many chunks; 10), ``filter`` (``"large"``: the larger side is pruned by the
smaller side's keys, ``"small"`` the reverse, ``"both"``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.config import options
from jupyter_mars.dataframe.joins.keys import KeySource, key_hashes
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import TileContext, Tiled

DEFAULT_ELEMENTS = 1_000_000
"""Keys a filter is sized for when the filtering side's rows are unknown."""

MAX_BITS = 2**33
"""A filter never takes more than 1 GiB."""

_PRUNABLE = {"inner": ("left", "right"), "left": ("right",), "right": ("left",)}
"""The sides whose unmatched rows a merge drops, by ``how``."""

_FILTERS = ("large", "small", "both")


@dataclass(frozen=True)
class BloomOptions:
    max_elements: int | None = None
    """Keys the filter is sized for; None: the filtering side's rows."""
    error_rate: float = 0.1
    """The share of absent keys the filter lets through."""
    apply_chunk_size_threshold: int = 10
    """With ``bloom_filter="auto"``: the fewest chunks of the larger side to filter."""
    filter: str = "large"
    """Which side is pruned: ``"large"``, ``"small"`` or ``"both"``."""


def bloom_options(bloom_filter: Any, given: Any) -> BloomOptions:
    """The validated options (errors name the argument, at the merge call)."""
    if (
        bloom_filter not in (True, False, "auto")
        or isinstance(bloom_filter, int)
        and not isinstance(bloom_filter, bool)
    ):
        raise ValueError(f"bloom_filter must be True, False or 'auto', got {bloom_filter!r}")
    given = dict(given or {})
    known = {"max_elements", "error_rate", "apply_chunk_size_threshold", "filter"}
    unknown = sorted(set(given) - known, key=str)
    if unknown:
        raise ValueError(
            f"bloom_filter_options: unknown option {unknown[0]!r}; expected {sorted(known)}"
        )
    out = BloomOptions(**given)
    if out.max_elements is not None and not (
        isinstance(out.max_elements, int) and out.max_elements > 0
    ):
        raise ValueError(
            f"bloom_filter_options: max_elements must be a positive int, got {out.max_elements!r}"
        )
    if not (isinstance(out.error_rate, float | int) and 0 < out.error_rate < 1):
        raise ValueError(
            f"bloom_filter_options: error_rate must be in (0, 1), got {out.error_rate!r}"
        )
    if not isinstance(out.apply_chunk_size_threshold, int) or out.apply_chunk_size_threshold < 0:
        raise ValueError(
            "bloom_filter_options: apply_chunk_size_threshold must be a non-negative int, "
            f"got {out.apply_chunk_size_threshold!r}"
        )
    if out.filter not in _FILTERS:
        raise ValueError(
            f"bloom_filter_options: filter must be one of {_FILTERS}, got {out.filter!r}"
        )
    return out


def filter_shape(n_elements: float, error_rate: float) -> tuple[int, int]:
    """Bits and hash count of a filter of ``n_elements`` keys at ``error_rate``.

    >>> filter_shape(1000, 0.01)
    (9586, 7)
    """
    n = max(1.0, n_elements)
    bits = math.ceil(-n * math.log(error_rate) / math.log(2) ** 2)
    bits = min(MAX_BITS, max(64, bits))
    hashes = max(1, round(bits / n * math.log(2)))
    return bits, hashes


def _positions(hashes: np.ndarray[Any, Any], bits: int, k: int) -> np.ndarray[Any, Any]:
    """The ``k`` bit positions of each hash (double hashing: ``h1 + i * h2``)."""
    low = hashes & np.uint64(0xFFFFFFFF)
    step = (hashes >> np.uint64(32)) | np.uint64(1)
    rounds = np.arange(k, dtype=np.uint64)[:, None]
    with np.errstate(over="ignore"):
        return (low[None, :] + rounds * step[None, :]) % np.uint64(bits)


def build_bits(
    chunk: pd.DataFrame, sources: Sequence[KeySource], forms: Sequence[str], bits: int, k: int
) -> np.ndarray[Any, Any]:
    """A filter (packed bits) of the keys of one chunk."""
    flags = np.zeros(bits, dtype=bool)
    if len(chunk):
        flags[_positions(key_hashes(chunk, sources, forms), bits, k).ravel()] = True
    return np.packbits(flags)


def union_bits(*parts: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The filter of all the parts' keys."""
    union: np.ndarray[Any, Any] = np.bitwise_or.reduce(np.stack(parts), axis=0)
    return union


def prune_rows(
    chunk: pd.DataFrame,
    packed: np.ndarray[Any, Any],
    sources: Sequence[KeySource],
    forms: Sequence[str],
    bits: int,
    k: int,
) -> pd.DataFrame:
    """The rows of ``chunk`` whose keys the filter may hold."""
    if not len(chunk):
        return chunk
    flags = np.unpackbits(packed, count=bits).astype(bool)
    keep = flags[_positions(key_hashes(chunk, sources, forms), bits, k)].all(axis=0)
    return chunk if keep.all() else chunk[keep]


def sides_to_prune(
    how: str, bloom_filter: Any, opts: BloomOptions, left: Tiled, right: Tiled
) -> list[str]:
    """Which sides of a shuffled merge are pruned (``"left"``, ``"right"``)."""
    prunable = _PRUNABLE.get(how, ())
    if bloom_filter is False or not prunable:
        return []
    nl, nr = len(left.nsplits[0]), len(right.nsplits[0])
    if bloom_filter == "auto" and max(nl, nr) < opts.apply_chunk_size_threshold:
        return []
    rows_l, rows_r = sum(left.nsplits[0]), sum(right.nsplits[0])
    by_rows = not (math.isnan(rows_l) or math.isnan(rows_r))
    left_larger = rows_l >= rows_r if by_rows else nl >= nr
    large, small = ("left", "right") if left_larger else ("right", "left")
    wanted = {"large": [large], "small": [small], "both": ["left", "right"]}[opts.filter]
    return [side for side in wanted if side in prunable]


def _union_tree(ctx: TileContext, name: str, keys: list[Any]) -> Any:
    level = 0
    while len(keys) > 1:
        width = max(2, options.combine_size)
        merged = []
        for j in range(0, len(keys), width):
            key = (f"{name}-union-{level}", j // width)
            ctx.new_task(key, union_bits, *(Ref(k) for k in keys[j : j + width]))
            merged.append(key)
        keys, level = merged, level + 1
    return keys[0]


def prune_tasks(
    ctx: TileContext,
    name: str,
    pruned: Tiled,
    pruned_sources: Sequence[KeySource],
    source: Tiled,
    source_sources: Sequence[KeySource],
    forms: Sequence[str],
    opts: BloomOptions,
) -> list[Any]:
    """Add the tasks that build a filter of ``source``'s keys and prune ``pruned``'s chunks
    with it; the keys of the pruned chunks."""
    rows = sum(source.nsplits[0])
    n = opts.max_elements or (DEFAULT_ELEMENTS if math.isnan(rows) else rows)
    bits, k = filter_shape(n, opts.error_rate)
    built = []
    for i, chunk in enumerate(source.flat_keys()):
        key = (f"{name}-bits", i)
        ctx.new_task(key, build_bits, Ref(chunk), tuple(source_sources), tuple(forms), bits, k)
        built.append(key)
    packed = Ref(_union_tree(ctx, name, built))
    out = []
    for i, chunk in enumerate(pruned.flat_keys()):
        key = (f"{name}-pruned", i)
        ctx.new_task(
            key, prune_rows, Ref(chunk), packed, tuple(pruned_sources), tuple(forms), bits, k
        )
        out.append(key)
    return out
