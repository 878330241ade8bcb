"""What the ``x[index] = value`` operators share.

``SetLayout`` says how an index maps the tensor and the value; ``SetPlan`` (at tile time)
finds the chunks the basic part of the index touches and where the value's pieces for them
are; ``check_value_shape`` is NumPy's broadcasting rule for assigned values; the kernels
cut a chunk's piece from a value laid out like the selection (``extract_piece``) and
assign it (``assign``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import NSplits
from jupyter_mars.engine.devices import array_module
from jupyter_mars.engine.graph import Key
from jupyter_mars.engine.node import TileContext, Tiled
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.indexing.locate import int_plan, slice_plan
from jupyter_mars.tensor.indexing.normalize import isnan

# ---- chunk kernels ---------------------------------------------------------------------------


def extract_piece(
    v: Any,
    is_new: tuple[bool, ...],
    place: int,
    b_shape: tuple[int, ...] | None,
    positions: Any,
    rest: tuple[Any, ...] | None,
) -> Any:
    """The part of a value (laid out like the selection) that one chunk receives.

    ``v`` has the selection's dims: the layout dims with ``b_shape`` inserted at ``place``.
    Dims from ``None`` are dropped, layout dims are cut to ``rest`` (whole when None) and,
    with advanced indices, the elements at flat ``positions`` of the index dims are picked
    and put first: ``(k, *rest)``.
    """
    # a value made on the host when the graph was planned meets GPU positions on a GPU
    xp = array_module(v, positions)
    v = xp.asarray(v)
    nb = 0 if b_shape is None else len(b_shape)
    idx: list[Any] = []
    for i, new in enumerate(is_new):
        if i == place:
            idx.extend([slice(None)] * nb)
        idx.append(0 if new else (rest[i] if rest is not None else slice(None)))
    if place >= len(is_new):
        idx.extend([slice(None)] * nb)
    v2 = v[tuple(idx)]
    if b_shape is None:
        return v2
    p2 = sum(1 for i in range(min(place, len(is_new))) if not is_new[i])
    if nb == 0:
        return v2[np.newaxis][xp.zeros(len(positions), np.intp)]
    sel: list[Any] = [slice(None)] * v2.ndim
    sel[p2 : p2 + nb] = xp.unravel_index(xp.asarray(positions, np.intp), b_shape)
    return np.moveaxis(v2[tuple(sel)], p2, 0)


def piece_from_chunk(
    vchunk: Any, spec: tuple[Any, ...], b_shape: tuple[int, ...] | None, positions: Any
) -> Any:
    """``extract_piece`` from a chunk of the value. ``spec`` is ``(the chunk's selection
    shape without the advanced-index dims, extra leading length-1 dims of the value to drop,
    is_new, place)``; the value is broadcast to that shape with ``b_shape`` inserted."""
    s_shape, drop, is_new, place = spec
    v = array_module(vchunk).asarray(vchunk)
    if drop:
        v = v.reshape(v.shape[drop:])
    s_full = tuple(s_shape[:place]) + tuple(b_shape or ()) + tuple(s_shape[place:])
    return extract_piece(np.broadcast_to(v, s_full), is_new, place, b_shape, positions, None)


def copy_view(block: Any, local_basic: tuple[Any, ...]) -> tuple[Any, Any]:
    """A copy of ``block`` and the view of it that the basic index selects."""
    out = array_module(block).array(block, copy=True)
    return out, out[local_basic + (Ellipsis,)]


def as_piece(piece: Any, view: Any) -> Any:
    """``piece`` as an array to assign into ``view`` (complex to real: NumPy warned when
    the assignment was built), in the view's module: a value made on the host when the
    graph was planned goes to the GPU of a GPU chunk."""
    piece = array_module(view).asarray(piece)
    if piece.dtype.kind == "c" and view.dtype.kind != "c":
        piece = piece.real
    return piece


def _contiguous(axes: Sequence[int]) -> bool:
    return len(axes) > 0 and axes[-1] - axes[0] + 1 == len(axes)


def assign(view: Any, fv_axes: tuple[int, ...] | None, local: tuple[Any, ...], piece: Any) -> None:
    """``view[local over fv_axes] = piece``, ``piece`` being ``(k, *rest)`` (or the whole
    view's value when ``fv_axes`` is None)."""
    piece = as_piece(piece, view)
    if fv_axes is None:
        view[...] = piece
        return
    if not fv_axes:
        view[...] = piece.reshape(piece.shape[1:]) if piece.ndim else piece
        return
    idx: list[Any] = [slice(None)] * view.ndim
    for ax, loc in zip(fv_axes, local):
        idx[ax] = loc
    if piece.ndim and _contiguous(fv_axes) and fv_axes[0]:
        piece = np.moveaxis(piece, 0, fv_axes[0])
    view[tuple(idx)] = piece


# ---- layout and tile-time plan ---------------------------------------------------------------


@dataclass(frozen=True)
class SetLayout:
    """What the set operators share: how the index maps the tensor and the value."""

    items: tuple[tuple[Any, ...], ...]
    """Per axis of the tensor: ("slice", slice) | ("int", i) | ("adv",)."""
    layout: tuple[tuple[Any, ...], ...]
    """Selection dims not from advanced indices: ("x", axis) | ("new",)."""
    place: int
    """Where the advanced-index dims go among the selection dims."""
    drop: int
    """Leading length-1 dims of the value beyond the selection's dims."""

    @property
    def is_new(self) -> tuple[bool, ...]:
        return tuple(e[0] == "new" for e in self.layout)

    def fv_axes(self, axes: Sequence[int]) -> tuple[int, ...]:
        """Positions of tensor ``axes`` once the integer-indexed axes are gone."""
        ints = [a for a, it in enumerate(self.items) if it[0] == "int"]
        return tuple(a - sum(1 for i in ints if i < a) for a in axes)


def _basic_maps(
    items: tuple[tuple[Any, ...], ...], nsplits: NSplits
) -> tuple[list[dict[int, tuple[Any, ...]] | None], list[tuple[int, ...]]]:
    """Per axis, the chunks a basic index touches: {chunk: (position, local, sel start,
    count)}, and per axis the selection's chunk lengths (None/() for advanced axes)."""
    maps: list[dict[int, tuple[Any, ...]] | None] = []
    loc: Any
    sel_splits: list[tuple[int, ...]] = []
    for ax, item in enumerate(items):
        if item[0] == "slice":
            plan = slice_plan(nsplits[ax], item[1])
            touched: dict[int, tuple[Any, ...]] = {}
            start = 0
            for pos, (chunk, loc, n) in enumerate(plan):
                if n > 0:
                    touched[chunk] = (pos, loc, start, n)
                start += n
            maps.append(touched)
            sel_splits.append(tuple(n for _, _, n in plan))
        elif item[0] == "int":
            chunk, loc = int_plan(nsplits[ax], item[1], ax)
            maps.append({chunk: (0, loc, 0, 1)})
            sel_splits.append((1,))
        else:
            maps.append(None)
            sel_splits.append(())
    return maps, sel_splits


class SetPlan:
    """Tile-time helper: the touched chunks of a set operator and the value's layout."""

    def __init__(self, lay: SetLayout, x: Tiled) -> None:
        self.lay = lay
        self.x = x
        self.maps, self.sel_splits = _basic_maps(lay.items, x.nsplits)
        self.layout_shape = [
            int(sum(self.sel_splits[e[1]])) if e[0] == "x" else 1 for e in lay.layout
        ]

    @property
    def empty(self) -> bool:
        return any(n == 0 for n in self.layout_shape)

    def s_shape(self, b_shape: Sequence[int]) -> tuple[int, ...]:
        p = self.lay.place
        return tuple(self.layout_shape[:p]) + tuple(b_shape) + tuple(self.layout_shape[p:])

    def choices(self) -> list[list[int]]:
        return [
            sorted(m) if m is not None else list(range(self.x.numblocks[a]))
            for a, m in enumerate(self.maps)
        ]

    def local_basic(self, index: Sequence[int]) -> tuple[Any, ...]:
        return tuple(m[i][1] if m is not None else slice(None) for m, i in zip(self.maps, index))

    def rest(self, index: Sequence[int]) -> tuple[Any, ...]:
        out: list[Any] = []
        for e in self.lay.layout:
            if e[0] == "new":
                out.append(slice(None))
            else:
                _, _, start, n = self.maps[e[1]][index[e[1]]]
                out.append(slice(start, start + n))
        return tuple(out)

    def layout_local(self, index: Sequence[int]) -> tuple[int, ...]:
        return tuple(self.maps[e[1]][index[e[1]]][3] if e[0] == "x" else 1 for e in self.lay.layout)

    def s_kinds(self, b_ndim: int) -> list[tuple[Any, ...]]:
        p = self.lay.place
        lay = list(self.lay.layout)
        return lay[:p] + [("b", j) for j in range(b_ndim)] + lay[p:]

    def value_tiled(
        self,
        node_key: str,
        v: Tiled,
        b_ndim: int,
        b_wanted: Sequence[tuple[float, ...]],
        ctx: TileContext,
    ) -> Tiled:
        """The value tensor rechunked like the selection (advanced dims: ``b_wanted``)."""
        ctx.require_known(v)
        kinds = self.s_kinds(b_ndim)
        wanted = []
        for d, lengths in enumerate(v.nsplits):
            s_dim = len(kinds) - (len(v.nsplits) - d)
            if s_dim < 0 or (len(lengths) == 1 and lengths[0] == 1):
                wanted.append(lengths)
                continue
            kind = kinds[s_dim]
            if kind[0] == "x":
                wanted.append(self.sel_splits[kind[1]])
            elif kind[0] == "new":
                wanted.append((1,))
            else:
                wanted.append(tuple(b_wanted[kind[1]]))
        return rechunk_tiled(f"{node_key}-value", v, tuple(wanted), np.dtype(float), ctx)

    def value_index(self, v: Tiled, index: Sequence[int], b_index: Sequence[int]) -> Key:
        kinds = self.s_kinds(len(b_index))
        out = []
        for d in range(v.keys.ndim):
            s_dim = len(kinds) - (v.keys.ndim - d)
            if s_dim < 0 or v.keys.shape[d] == 1:
                out.append(0)
                continue
            kind = kinds[s_dim]
            if kind[0] == "x":
                out.append(self.maps[kind[1]][index[kind[1]]][0])
            elif kind[0] == "new":
                out.append(0)
            else:
                out.append(b_index[kind[1]])
        key: Key = v.keys[tuple(out)]
        return key


def check_value_shape(
    vshape: tuple[Any, ...], sshape: tuple[Any, ...], fancy: bool = False
) -> None:
    """NumPy's broadcasting rule for assigned values (leading length-1 dims may be extra)."""
    nv, ns = len(vshape), len(sshape)
    ok = all(n == 1 or isnan(n) for n in vshape[: max(nv - ns, 0)])
    for v, s in zip(vshape[max(nv - ns, 0) :], sshape[max(ns - nv, 0) :]):
        if not (isnan(v) or isnan(s) or v == 1 or v == s):
            ok = False
    if not ok:
        shown = tuple("nan" if isnan(n) else int(n) for n in sshape)
        if fancy:
            raise ValueError(
                f"shape mismatch: value array of shape {tuple(vshape)} could not be broadcast "
                f"to indexing result of shape {shown}"
            )
        raise ValueError(
            f"could not broadcast input array from shape {tuple(vshape)} into shape {shown}"
        )
