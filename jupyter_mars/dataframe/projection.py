"""Which columns of a frame a plan really uses: readers of tables read only those.

``needed_columns(node, ctx)`` looks at the nodes of the plan that read ``node`` (the tile
context's ``readers``) and asks each what it takes of it: a column selection takes its
columns, a row filter passes on what its own readers take, a groupby takes its keys and
values. Any other reader, or a node whose whole result is asked for, takes every column,
so the answer is only narrower than the meta where that is certain. A reader's chunks may
then lack columns that nothing downstream looks at; results never do.

Rules are registered by operator type (``@column_rule(OpType)``) beside the operators,
as tile rules are.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.node import FrameNode
from jupyter_mars.engine.node import Node, Op, TileContext

ColumnRule = Callable[[Node, int, TileContext], "list[Any] | None"]
"""``rule(reader, input_position, ctx)``: the columns ``reader`` takes of its input at
``input_position``, or None for all of them."""

COLUMN_RULES: dict[type[Op], ColumnRule] = {}


def column_rule(op_type: type[Op]) -> Callable[[ColumnRule], ColumnRule]:
    """Register what readers of ``op_type`` take of their inputs' columns."""

    def register(rule: ColumnRule) -> ColumnRule:
        COLUMN_RULES[op_type] = rule
        return rule

    return register


def needed_columns(node: Node, ctx: TileContext) -> list[Any] | None:
    """The columns of ``node`` (a DataFrame) that the plan uses, in the meta's order;
    None when it uses them all or may."""
    memo = ctx.notes.setdefault("needed_columns", {})
    if node.key not in memo:
        memo[node.key] = _needed(node, ctx)
    result: list[Any] | None = memo[node.key]
    return result


def _needed(node: Node, ctx: TileContext) -> list[Any] | None:
    if not isinstance(node, FrameNode) or not isinstance(node.meta, pd.DataFrame):
        return None
    readers = ctx.readers.get(node.key, [])
    if node.key in ctx.targets or not readers:
        return None
    wanted: set[Any] = set()
    for reader in readers:
        rule = COLUMN_RULES.get(type(reader.op))
        if rule is None:
            return None
        for position, inp in enumerate(reader.inputs):
            if inp is not node:
                continue
            taken = rule(reader, position, ctx)
            if taken is None:
                return None
            wanted.update(taken)
    columns = node.meta.columns
    if not columns.is_unique or len(wanted) >= len(columns):
        return None
    return [c for c in columns if c in wanted]


def as_labels(key: Any, meta: pd.DataFrame) -> list[Any] | None:
    """The column labels a selection ``key`` names, or None when that is not plain."""
    labels = key if isinstance(key, list) else [key]
    try:
        if all(label in meta.columns for label in labels):
            return list(labels)
    except TypeError:  # unhashable
        return None
    return None
