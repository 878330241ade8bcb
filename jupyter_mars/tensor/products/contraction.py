"""The ``Contract`` operator that every product builds, and its builder ``contract``.

Each operand axis carries a label (as in an ``einsum`` subscript); the output keeps some
labels, the others are summed over. A label may appear on several axes and operands; a
length-1 axis broadcasts against the other lengths of its label, and a ``nan`` (unknown)
length matches any. How a ``Contract`` node is tiled: ``tiling.py``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from jupyter_mars.engine.node import Op
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.products.checks import fmt_shape

Labels = tuple[int, ...]


@dataclass(frozen=True, eq=False)
class Contract(Op):
    """Sum of products over the labels of the inputs that are not in ``out``.

    ``func(*blocks)`` computes one output chunk from one chunk of each input (the chunks
    that meet at one position of the contracted labels); the output chunk is the sum of
    ``func`` over all such positions. With ``accepts_out``, ``func`` takes ``out=`` (a
    buffer for the next product, so the sum needs no allocations).
    """

    func: Callable[..., Any]
    subscripts: tuple[Labels, ...]
    """One label per axis of each input."""
    out: Labels
    """Labels of the output axes, in order."""
    name: str = "contract"
    accepts_out: bool = False
    whole: frozenset[int] = field(default_factory=frozenset)
    """Labels kept in a single chunk (the kernel needs the whole axis)."""
    symmetric: bool = False
    """Inputs are the same tensor and chunk ``(J, I)`` is chunk ``(I, J)`` transposed."""

    def label(self) -> str:
        return self.name


def label_sizes(
    shapes: Sequence[Sequence[float]], subscripts: Sequence[Labels], what: str
) -> dict[int, float]:
    """Length of each label; 1 broadcasts against any length, nan matches anything."""
    found: dict[int, set[float]] = {}
    unknown: set[int] = set()
    for shape, subs in zip(shapes, subscripts):
        for n, lab in zip(shape, subs):
            if isinstance(n, float) and math.isnan(n):
                unknown.add(lab)
                found.setdefault(lab, set())
            else:
                found.setdefault(lab, set()).add(int(n))
    sizes: dict[int, float] = {}
    for lab, lengths in found.items():
        non1 = lengths - {1}
        if len(non1) > 1:
            shown = " ".join(fmt_shape(s) for s in shapes)
            raise ValueError(f"{what}: operand shapes {shown} do not match along a contracted axis")
        if non1:
            sizes[lab] = non1.pop()
        elif lab in unknown:
            sizes[lab] = math.nan
        else:
            sizes[lab] = 1
    return sizes


def contract(
    operands: Sequence[Tensor],
    subscripts: Sequence[Labels],
    out: Labels,
    dtype: Any,
    func: Callable[..., Any],
    name: str,
    accepts_out: bool = False,
    whole: frozenset[int] = frozenset(),
    symmetric: bool = False,
) -> Tensor:
    """Build a ``Contract`` node; shapes are checked (nan lengths match anything)."""
    sizes = label_sizes([t.shape for t in operands], subscripts, name)
    shape = tuple(sizes[lab] for lab in out)
    op = Contract(
        func=func,
        subscripts=tuple(tuple(s) for s in subscripts),
        out=tuple(out),
        name=name,
        accepts_out=accepts_out,
        whole=frozenset(whole),
        symmetric=symmetric,
    )
    return new_tensor(op, list(operands), shape, dtype)
