"""One task per worker that holds training data, each reading the parts held there.

``group_parts`` groups the parts (``parts.py``) by the process that holds them: one group
per cluster worker with rows, at most ``max_groups`` (the tasks a session runs at once:
more would wait for each other's slots while the first ones block on them). On the
embedded session every part is in one process, so there is one group; a cluster's
workers each hold some (their first tasks spread over the workers). ``place_evals``
gives each group the parts of an evaluation set held where it runs, and those held
elsewhere to the group with fewest eval rows.

``run_per_group`` runs ``func(index, train_parts, *eval_parts)`` once per group, as one
job whose tasks each read the parts of one group. A task goes to the worker holding
most of its inputs (``cluster/supervisor/placement.py``): here all of them, the parts
kept there a moment before, so each worker runs its own group's task, on a slot of its
own, all at the same time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.executable import Session
from jupyter_mars.learn.utils.blocks import as_object
from jupyter_mars.learn.utils.validation import fetch_all
from jupyter_mars.tensor.core import Tensor, new_tensor

__all__ = ["PerGroup", "group_parts", "place_evals", "run_per_group"]

Located = Sequence[tuple[str, int]]
"""For each part, in order: the process that holds it and its rows (``parts.locate``)."""


def group_parts(located: Located, max_groups: int) -> tuple[list[str], list[list[int]]]:
    """The places of the groups, and each group's parts (indices), in order of the
    places' first parts. Parts without rows join no group (unless all are so); beyond
    ``max_groups`` places, the parts of the places with fewest rows go, one by one, to
    the group with fewest rows.

    >>> group_parts([("a", 5), ("b", 3), ("a", 0), ("a", 2)], 4)
    (['a', 'b'], [[0, 3], [1]])
    >>> group_parts([("a", 5), ("b", 3), ("c", 1), ("c", 1)], 2)
    (['a', 'b'], [[0], [1, 2, 3]])
    >>> group_parts([("a", 0), ("b", 0)], 2)
    (['a'], [[0, 1]])
    """
    if not located:
        raise ValueError("there are no parts to train on")
    if all(rows == 0 for _, rows in located):
        return [located[0][0]], [list(range(len(located)))]
    by_place: dict[str, list[int]] = {}
    rows_of: dict[str, int] = {}
    for index, (place, rows) in enumerate(located):
        if rows > 0:
            by_place.setdefault(place, []).append(index)
            rows_of[place] = rows_of.get(place, 0) + rows
    places = list(by_place)
    if len(places) > max(1, max_groups):
        ranked = sorted(places, key=lambda p: (-rows_of[p], places.index(p)))
        kept, dropped = ranked[: max(1, max_groups)], ranked[max(1, max_groups) :]
        kept.sort(key=places.index)
        for place in dropped:
            for index in by_place.pop(place):
                lightest = min(kept, key=lambda p: rows_of[p])
                by_place[lightest].append(index)
                rows_of[lightest] += located[index][1]
        places = kept
    return places, [sorted(by_place[p]) for p in places]


def place_evals(located: Located, places: Sequence[str]) -> list[list[int]]:
    """For each group (of ``places``), the parts of an evaluation set it reads: those
    held at its place, and those held elsewhere to the group with fewest eval rows so far.

    >>> place_evals([("a", 4), ("c", 3), ("b", 2), ("a", 0)], ["a", "b"])
    [[0], [1, 2]]
    """
    groups: list[list[int]] = [[] for _ in places]
    rows = [0] * len(places)
    elsewhere = []
    for index, (place, n) in enumerate(located):
        if n == 0:
            continue
        if place in places:
            at = list(places).index(place)
            groups[at].append(index)
            rows[at] += n
        else:
            elsewhere.append(index)
    for index in elsewhere:
        at = rows.index(min(rows))
        groups[at].append(index)
        rows[at] += located[index][1]
    return [sorted(g) for g in groups]


@dataclass(frozen=True, eq=False)
class PerGroup(Op):
    """``func(index, parts, *eval_parts)`` once per group, each task reading its parts."""

    func: Callable[..., Any]
    """Module-level (or a ``functools.partial`` of one): it gets the group's index and,
    for each input, the list of its parts the group reads."""
    groups: tuple[tuple[tuple[int, ...], ...], ...]
    """For each input, for each group: the indices of the chunks it reads."""
    name: str

    def label(self) -> str:
        return self.name


def call_for_group(func: Callable[..., Any], index: int, *inputs: list[Any]) -> Any:
    """``func`` on the parts themselves (each chunk holds one), its result in a chunk."""
    parts = [[chunk[0] for chunk in chunks] for chunks in inputs]
    return as_object([func(index, *parts)])


@tile_rule(PerGroup)
def _tile_per_group(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, PerGroup)
    n_groups = len(op.groups[0])
    grid = key_grid(node.key, [n_groups])
    for index in range(n_groups):
        reads = [
            [Ref(tiled.keys[i]) for i in groups[index]]
            for tiled, groups in zip(inputs, op.groups, strict=True)
        ]
        ctx.new_task(grid[index], call_for_group, op.func, index, *reads)
    return Tiled(((1,) * n_groups,), grid)


def run_per_group(
    func: Callable[..., Any],
    inputs: Sequence[Tensor],
    groups: Sequence[Sequence[Sequence[int]]],
    session: Session | None,
    run_kwargs: dict[str, Any] | None,
    name: str,
) -> list[Any]:
    """``func``'s result for each group, in order (see ``PerGroup``); ``inputs`` are
    executed parts tensors, ``groups`` for each of them the chunks each group reads."""
    frozen = tuple(tuple(tuple(int(i) for i in g) for g in per_input) for per_input in groups)
    n_groups = len(frozen[0])
    op = PerGroup(func, frozen, name)
    results = new_tensor(op, list(inputs), (n_groups,), np.dtype(object), gpu=False)
    (values,) = fetch_all(results, session=session, run_kwargs=run_kwargs)
    return list(values)
