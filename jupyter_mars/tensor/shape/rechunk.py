"""The user-facing ``rechunk`` (function and ``Tensor.rechunk``).

With a known shape this is the engine's ``Rechunk`` operator (chunks that do not change are
reused). With a data-dependent (``nan``) shape, ``chunk_size`` is checked at once against
stand-in lengths, and the rechunk is planned once the real lengths are known
(``ctx.require_known``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import normalize_chunk_size
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, tile_rule
from jupyter_mars.engine.primitives.rechunk import Rechunk, rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor, unknown_shape
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.shape.common import AxisError, is_unknown
from jupyter_mars.tensor.sparse.convert import sparse_like


@dataclass(frozen=True, eq=False)
class RechunkTo(Op):
    """Rechunk to ``chunk_size`` once the (data-dependent) shape is known."""

    chunk_size: Any

    def label(self) -> str:
        return "rechunk"


@tile_rule(RechunkTo)
def _tile_rechunk_to(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, RechunkTo)
    (x,) = inputs
    ctx.require_known(x)
    shape = tuple(int(sum(a)) for a in x.nsplits)
    chunk_size = op.chunk_size
    if isinstance(chunk_size, dict):  # the axes it does not name keep their chunks
        chunk_size = tuple(
            chunk_size.get(i, tuple(int(n) for n in x.nsplits[i])) for i in range(len(shape))
        )
    nsplits = normalize_chunk_size(shape, chunk_size, node.dtype.itemsize)
    return rechunk_tiled(node.key, x, nsplits, node.dtype, ctx)


def _by_axis(chunk_size: dict[Any, Any], ndim: int) -> dict[int, Any]:
    """A dict ``chunk_size`` keyed by non-negative axes (NumPy's errors for bad axes)."""
    out: dict[int, Any] = {}
    for axis, entry in chunk_size.items():
        if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
            raise TypeError(f"chunk_size keys must be axes (integers), got {axis!r}")
        if not -ndim <= axis < ndim:
            raise AxisError(int(axis), ndim)
        out[int(axis) % ndim] = entry
    return out


def _probe_shape(shape: tuple[Any, ...], chunk_size: Any) -> tuple[int, ...]:
    """Stand-in lengths for unknown axes, to validate ``chunk_size`` before execution."""
    entries: Any = chunk_size
    if isinstance(chunk_size, dict):
        entries = [chunk_size.get(i, chunk_size.get(i - len(shape))) for i in range(len(shape))]
    probe = []
    for i, n in enumerate(shape):
        if not is_unknown(n):
            probe.append(int(n))
            continue
        entry = entries[i] if isinstance(entries, (tuple, list)) and i < len(entries) else None
        if isinstance(entry, (tuple, list)):
            try:
                probe.append(sum(int(v) for v in entry))
            except (TypeError, ValueError):
                probe.append(1)
        else:
            probe.append(1)
    return tuple(probe)


def rechunk(x: Any, chunk_size: Any) -> Tensor:
    """The same tensor cut along other chunk boundaries.

    ``chunk_size`` takes every form of ``normalize_chunk_size``: an int for all axes, -1 or
    None for a whole axis, a tuple with one entry per axis (an int, -1, None or a tuple of
    lengths) or a dict ``{axis: entry}``, whose unnamed axes keep their chunks (as in Mars
    and Dask). Unchanged chunks are reused.
    """
    t = astensor(x)
    if isinstance(chunk_size, dict):
        chunk_size = _by_axis(chunk_size, t.ndim)
        # checked now against the shape (stand-ins where unknown), cut once x's chunks are
        normalize_chunk_size(_probe_shape(t.shape, chunk_size), chunk_size, t.dtype.itemsize)
        return new_tensor(RechunkTo(chunk_size), [t], t.shape, t.dtype, sparse=sparse_like(t))
    if unknown_shape(t.shape):
        normalize_chunk_size(_probe_shape(t.shape, chunk_size), chunk_size, t.dtype.itemsize)
        return new_tensor(RechunkTo(chunk_size), [t], t.shape, t.dtype, sparse=sparse_like(t))
    nsplits = normalize_chunk_size(t.shape, chunk_size, t.dtype.itemsize)
    return new_tensor(Rechunk(nsplits), [t], t.shape, t.dtype, sparse=sparse_like(t))
