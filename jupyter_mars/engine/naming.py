"""What an execution is called where nobody named it: what it computes, from its graph.

``(a @ a).sum()`` is ``sum(matmul)``: each result's operator, with the operator of its
first input in brackets; several results are joined by commas. Operators name themselves
(``Op.title``): a grouped sum is ``groupby(k).sum``, not its keys' ``groupby_agg``. The
same name shows on the future, in the widget, the dashboard and the Lab panel.
"""

from __future__ import annotations

from collections.abc import Sequence

from jupyter_mars.engine.node import Node

MAX_NAME = 60
"""The longest name, in characters: it has to fit a line of a table."""


def shorten(text: str) -> str:
    """``text`` cut to ``MAX_NAME`` characters, with an ellipsis where it was cut."""
    return text if len(text) <= MAX_NAME else text[: MAX_NAME - 1] + "…"


def describe(nodes: Sequence[Node]) -> str:
    """The default name of an execution of ``nodes``."""
    parts = []
    for node in nodes:
        inner = node.inputs[0].op.title("") if node.inputs else ""
        parts.append(node.op.title(inner))
    return shorten(", ".join(dict.fromkeys(parts))) or "execution"


def checked_name(name: object) -> str | None:
    """A name given by a caller: a string, cut to ``MAX_NAME``; None stays None."""
    if name is None:
        return None
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {type(name).__name__}")
    return shorten(name)
