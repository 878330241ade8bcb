"""How a contraction is cut into tasks: chunk boundaries, panels, groups of positions.

- ``pick_splits``: each label takes the chunking of its largest operand (the others are
  rechunked to it);
- ``split_for_threads``: a large output in fewer chunks than the cores of the runtime that
  runs it (``TileContext.n_cpu``: an embedded session's threads, a cluster's workers'
  cores; say, two single-chunk matrices) gets finer output chunks;
- ``panel_axes``: whether each operand's chunks are concatenated into panels along the
  one contracted label (only when every operand is read by several output chunks);
- ``contraction_groups``: the contracted positions are split into groups (one task each,
  summed by a tree) only when one output chunk would read more than
  ``4 * options.chunk_store_limit`` bytes, or when there are fewer output chunks than
  threads and the output cannot be split (a vector dot).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from jupyter_mars.config import options
from jupyter_mars.engine.node import Tiled
from jupyter_mars.tensor.products.contraction import Contract, Labels

_MIN_TASK_WORK = 1 << 24
"""Multiply-adds below which an output chunk is not split further to use more threads."""
_MIN_GROUP_WORK = 1 << 20
"""Multiply-adds per thread below which a contraction is not split into groups for them."""


def pick_splits(
    inputs: Sequence[Tiled],
    subscripts: Sequence[Labels],
    sizes: dict[int, float],
    whole: frozenset[int],
) -> dict[int, tuple[float, ...]]:
    """Chunking of each label: the one of its largest operand (the others get rechunked)."""
    splits: dict[int, tuple[float, ...]] = {}
    weight = [math.prod(sum(s) for s in t.nsplits) for t in inputs]
    for lab, size in sizes.items():
        if lab in whole:
            splits[lab] = (size,)
            continue
        candidates = [
            (weight[i], -i, t.nsplits[ax])
            for i, (t, subs) in enumerate(zip(inputs, subscripts))
            for ax, other in enumerate(subs)
            if other == lab and sum(t.nsplits[ax]) == size
        ]
        splits[lab] = max(candidates)[2] if candidates else (size,)
    return splits


def _halve(lengths: tuple[float, ...]) -> tuple[float, ...]:
    out: list[float] = []
    for n in lengths:
        n = int(n)
        out.extend((n - n // 2, n // 2) if n >= 2 else (n,))
    return tuple(out)


def split_for_threads(
    op: Contract, splits: dict[int, tuple[float, ...]], sizes: dict[int, float], cpus: int
) -> dict[int, tuple[float, ...]]:
    """Finer output chunks when there are fewer of them than the runtime's ``cpus`` and
    much work.

    A product of two single-chunk matrices would otherwise be one task on one thread; the
    largest output axis is halved (its operand is sliced, no copy) until every thread has
    an output chunk or the chunks get small.
    """
    work = math.prod(int(n) for n in sizes.values())
    out = list(op.out)
    half = len(out) // 2

    def n_blocks() -> int:
        return math.prod(len(splits[lab]) for lab in out)

    while n_blocks() < cpus and work / n_blocks() >= 2 * _MIN_TASK_WORK:
        candidates = [lab for lab in out if lab not in op.whole and max(splits[lab]) >= 2]
        if not candidates:
            break
        lab = max(candidates, key=lambda c: max(splits[c]))
        new = _halve(splits[lab])
        splits[lab] = new
        if op.symmetric:
            splits[out[(out.index(lab) + half) % len(out)]] = new
    return splits


def panel_axes(
    op: Contract, k_labels: list[int], broadcast: list[tuple[bool, ...]], out_nb: list[int]
) -> list[int | None] | None:
    """Per operand, the axis to concatenate into panels; None when panels do not pay.

    Panels need a single contracted label, appearing at most once in each operand, and
    every operand that has it must be read by at least two output chunks (otherwise the
    copy costs a pass over memory and saves nothing).
    """
    if len(k_labels) != 1:
        return None
    (label,) = k_labels
    axes: list[int | None] = []
    for subs, flags in zip(op.subscripts, broadcast):
        count = subs.count(label)
        if count > 1:
            return None
        if count == 0:
            axes.append(None)
            continue
        reuse = math.prod(
            n for n, lab in zip(out_nb, op.out) if lab not in subs or flags[subs.index(lab)]
        )
        if op.symmetric:
            reuse = 2 * math.prod(out_nb[: len(out_nb) // 2])
        if reuse < 2:
            return None
        axes.append(subs.index(label))
    return axes


def contraction_groups(
    aligned: Sequence[Tiled],
    itemsizes: Sequence[int],
    n_combos: int,
    n_computed: int,
    sizes: dict[int, float],
    cpus: int,
) -> list[range]:
    """The ``n_combos`` contracted positions of each output chunk, split into groups.

    One group unless the chunks one output chunk reads (``aligned``, whose items have
    ``itemsizes`` bytes) exceed the memory budget, or fewer output chunks than the runtime's
    ``cpus`` are computed (``n_computed``) and the work is large.
    """
    per_combo = 0.0
    for t, itemsize in zip(aligned, itemsizes):
        per_combo += math.prod(max(s) if len(s) else 0 for s in t.nsplits) * itemsize
    budget = 4 * options.chunk_store_limit
    n_groups = max(1, math.ceil(n_combos * per_combo / budget))
    work = math.prod(int(n) for n in sizes.values())
    if n_computed < cpus and work >= _MIN_GROUP_WORK * cpus:
        n_groups = max(n_groups, math.ceil(cpus / max(n_computed, 1)))
    return _groups(n_combos, n_groups)


def _groups(n: int, parts: int) -> list[range]:
    parts = max(1, min(n, parts))
    bounds = [round(i * n / parts) for i in range(parts + 1)]
    return [range(a, b) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]
