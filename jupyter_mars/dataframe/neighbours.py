"""Row chunks that read their neighbours: a scan carrying state from chunk to chunk.

Forward fills, cumulative sums, shifts and moving windows compute each row from the rows
before it (or after it), which may lie in other chunks, possibly several small ones. A
``Scan`` gives every chunk a *carry* from each side it needs:

- each chunk is *summarised* into a small state (its last rows, its last valid value, its
  running total) by a task that reads that chunk only, so all summaries run in parallel;
- a chain of tiny *fold* tasks merges those states in row order: the carry into chunk
  ``i`` is ``fold(carry into i - 1, summary of i - 1)`` (from the front), and
  ``fold(carry into i + 1, summary of i + 1)`` (from the back);
- each chunk is *finished* with its carries: ``finish(chunk, before, after)``, ``None``
  where there is nothing on that side. A scan may also read ``others``: inputs cut into
  the same chunks as the frame (chunk ``i`` of each joins chunk ``i``), or of one chunk,
  read whole by every chunk (a lazy scalar); their chunks follow the carries.

The chain is sequential but its tasks handle summaries, not chunks, and the summaries and
finishes, where the work is, run in parallel. The chain needs no chunk lengths, so it
works unchanged after a filter made them data-dependent.

``TailCarry`` / ``HeadCarry`` are the common carries: the last (first) ``n`` rows before
(after) a chunk, optionally after a pandas step (``ffill``, a cumulative sum) that makes
those rows stand for everything before them. ``finish_window`` runs a pandas call on the
chunk with those rows attached and keeps the chunk's own rows, which gives pandas'
results for shifts, differences and fixed-size windows.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.core import FrameBase, new_frame
from jupyter_mars.dataframe.node import FrameNode
from jupyter_mars.engine.graph import Key, Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.executable import Executable


@dataclass(frozen=True)
class Carry:
    """What one side of a scan carries: ``summarize(chunk) -> state`` per chunk and
    ``fold(carry, state) -> carry``, with ``carry`` ``None`` at the end of the frame."""

    summarize: Callable[[Any], Any]
    fold: Callable[[Any, Any], Any]


@dataclass(frozen=True, eq=False)
class Scan(Op):
    finish: Callable[..., Any]
    """``finish(chunk, before, after)`` -> the output chunk."""
    before: Carry | None
    """The carry from the chunks before, or None when not needed."""
    after: Carry | None
    """The carry from the chunks after, or None when not needed."""
    name: str
    whole: frozenset[int] = frozenset()
    """Positions among the other inputs read whole by every chunk."""

    def label(self) -> str:
        return self.name


def _chain(
    ctx: TileContext, prefix: str, keys: list[Key], carry: Carry, order: list[int]
) -> dict[int, Ref | None]:
    """Carry refs for every chunk index, folding the summaries of ``keys`` in ``order``."""
    carries: dict[int, Ref | None] = {order[0]: None}
    previous: Ref | None = None
    for step, i in enumerate(order[:-1]):
        summary = (f"{prefix}-summary", i)
        ctx.new_task(summary, carry.summarize, Ref(keys[i]))
        folded = (f"{prefix}-fold", i)
        ctx.new_task(folded, carry.fold, previous, Ref(summary))
        previous = Ref(folded)
        carries[order[step + 1]] = previous
    return carries


@tile_rule(Scan)
def _tile_scan(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Scan)
    t, *others = inputs
    keys = t.flat_keys()
    n = len(keys)
    other_keys = [o.flat_keys() for o in others]
    for j, o in enumerate(other_keys):
        assert len(o) == (1 if j in op.whole else n), "a scan's inputs are not cut alike"
    none: dict[int, Ref | None] = dict.fromkeys(range(n))
    before = (
        none if op.before is None else _chain(ctx, f"{node.key}-fw", keys, op.before, [*range(n)])
    )
    after = (
        none
        if op.after is None
        else _chain(ctx, f"{node.key}-bw", keys, op.after, [*range(n - 1, -1, -1)])
    )
    grid = key_grid(node.key, [n])
    for i in range(n):
        extra = [Ref(o[0] if j in op.whole else o[i]) for j, o in enumerate(other_keys)]
        ctx.add_blockwise(grid[i], op.finish, (Ref(keys[i]), before[i], after[i], *extra), {})
    return Tiled(t.nsplits, grid)


def scan(
    frame: FrameBase,
    finish: Callable[..., Any],
    meta: Any,
    name: str,
    before: Carry | None = None,
    after: Carry | None = None,
    others: tuple[Executable, ...] = (),
    whole: frozenset[int] = frozenset(),
) -> Any:
    """A frame with ``frame``'s rows and index, chunk ``i`` being ``finish(chunk_i,
    carry before i, carry after i, *others' chunks)``: chunk ``i`` of each of ``others``
    (cut as ``frame`` is), or the one chunk of those at the positions in ``whole``."""
    node = frame.node
    assert isinstance(node, FrameNode)
    op = Scan(finish, before, after, name, whole)
    return new_frame(op, [frame, *others], node.shape[0], meta, node.index_key)


# --- carries made of rows -------------------------------------------------------------


def _rows(obj: Any, prep: Callable[[Any], Any] | None) -> Any:
    return obj if prep is None else prep(obj)


def _joined(parts: list[Any]) -> Any:
    parts = [p for p in parts if p is not None]
    return parts[0] if len(parts) == 1 else pd.concat(parts)


def tail_summary(n: int, prep: Callable[[Any], Any] | None, chunk: Any) -> Any:
    return _rows(chunk, prep).iloc[max(len(chunk) - n, 0) :]


def tail_fold(n: int, prep: Callable[[Any], Any] | None, carry: Any, summary: Any) -> Any:
    if carry is None or not len(carry):
        return summary
    if not len(summary):
        return carry
    return tail_summary(n, prep, _joined([carry, summary]))


def head_summary(n: int, prep: Callable[[Any], Any] | None, chunk: Any) -> Any:
    return _rows(chunk, prep).iloc[:n]


def head_fold(n: int, prep: Callable[[Any], Any] | None, carry: Any, summary: Any) -> Any:
    if carry is None or not len(carry):
        return summary
    if not len(summary):
        return carry
    return head_summary(n, prep, _joined([summary, carry]))


def tail_carry(n: int, prep: Callable[[Any], Any] | None = None) -> Carry:
    """The last ``n`` rows before a chunk; with ``prep`` (a row-wise running step such as
    ``ffill``), the last ``n`` rows of ``prep`` over everything before it."""
    return Carry(functools.partial(tail_summary, n, prep), functools.partial(tail_fold, n, prep))


def head_carry(n: int, prep: Callable[[Any], Any] | None = None) -> Carry:
    """The first ``n`` rows after a chunk (``prep``: as for ``tail_carry``, backwards)."""
    return Carry(functools.partial(head_summary, n, prep), functools.partial(head_fold, n, prep))


def finish_window(
    kernel: Callable[[Any], Any], chunk: Any, before: Any = None, after: Any = None
) -> Any:
    """``kernel`` over ``before + chunk + after``, cut back to the chunk's rows and index."""
    lead = 0 if before is None else len(before)
    trail = 0 if after is None else len(after)
    if not lead and not trail:
        return kernel(chunk)
    whole = pd.concat(
        [p for p in (before, chunk, after) if p is not None and (p is chunk or len(p))]
    )
    out = kernel(whole).iloc[lead : lead + len(chunk)]
    return out.set_axis(chunk.index, axis=0)


def window_finish(kernel: Callable[[Any], Any]) -> Callable[..., Any]:
    """A ``Scan.finish`` that applies ``kernel`` with the carried rows attached."""
    return functools.partial(finish_window, kernel)


def call(name: str, args: tuple[Any, ...], kwargs: dict[str, Any], obj: Any) -> Any:
    """``obj.name(*args, **kwargs)``: a picklable kernel (partial it on name and args)."""
    return getattr(obj, name)(*args, **kwargs)


def method(name: str, *args: Any, **kwargs: Any) -> Callable[[Any], Any]:
    """A picklable ``lambda obj: obj.name(*args, **kwargs)``."""
    return functools.partial(call, name, args, kwargs)
