"""Products: ``dot``, ``inner``, ``outer``, ``matmul``, ``tensordot``, ``vdot``, ``einsum``.

Every product is one ``Contract`` node: each operand axis carries a label (as in an
``einsum`` subscript); the output keeps some labels, the others are summed over.

Tiling makes **one task per output chunk**, never one per ``(i, k, j)`` product:

- Matrix products (one contracted label, each operand's chunks read by several output
  chunks): each row panel of ``A`` and column panel of ``B`` is concatenated along the
  contracted axis once, by a shared task, and each output chunk is ONE kernel call on
  two contiguous panels (``np.dot(panel_a, panel_b)``; ``np.dot(panel_a, panel_b.T)``
  for ``inner``, with no transposed copy).
- Otherwise (a matrix-vector product, whose panels would be read once; several
  contracted labels; ``einsum`` traces) the output task reads the chunks themselves and
  sums the products in place through one reused buffer (``np.dot(..., out=buf)``).

The contracted chunks are split into groups (one task each, summed by a tree of fan-in
``options.combine_size``) only when one output chunk would read more than
``4 * options.chunk_store_limit`` bytes, or when there are fewer output chunks than
threads and the output cannot be split (a vector dot). A large output in fewer chunks
than threads (say, two single-chunk matrices) gets finer output chunks instead.

Operands whose chunk boundaries differ along a shared label are aligned by rechunking the
smaller operand to the larger one's chunks. ``inner(a, a)`` (and ``tensordot`` of a
tensor with itself on the same axes) is symmetric: only the chunks on and above the
diagonal are computed, the others are transposed views of them.
"""

from __future__ import annotations

import functools
import itertools
import math
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from jupyter_mars.config import options
from jupyter_mars.engine.chunks import NSplits
from jupyter_mars.engine.graph import Key, Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor

Labels = tuple[int, ...]

# ---- the operator ------------------------------------------------------------------------


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


def _available_cpus() -> int:
    """Threads the contraction should keep busy: the default session's, else the cores."""
    if options.n_cpu:
        return int(options.n_cpu)
    from jupyter_mars.session import available_cpus, get_default_session

    session = get_default_session()
    n_cpu = getattr(session, "n_cpu", None)
    return int(n_cpu) if n_cpu else available_cpus()


def contract_blocks(func: Callable[..., Any], nops: int, accepts_out: bool, *blocks: Any) -> Any:
    """Sum of ``func`` over consecutive groups of ``nops`` blocks (one group per position)."""
    acc: Any = None
    owned = accepts_out
    buf: Any = None
    for start in range(0, len(blocks), nops):
        args = blocks[start : start + nops]
        if acc is None:
            acc = func(*args)
            continue
        if accepts_out and isinstance(acc, np.ndarray) and acc.ndim:
            if buf is None:
                buf = np.empty_like(acc)
            part = func(*args, out=buf)
        else:
            part = func(*args)
        if owned and isinstance(acc, np.ndarray):
            acc += part
        else:
            # the first product may be a view of an input chunk: never write into it
            acc = acc + part
            owned = True
    return acc if isinstance(acc, np.ndarray) else np.asarray(acc)


def sum_parts(*parts: Any) -> Any:
    acc = parts[0] + parts[1] if len(parts) > 1 else parts[0]
    for part in parts[2:]:
        acc += part
    return acc


def transpose_block(block: Any, axes: tuple[int, ...]) -> Any:
    return np.transpose(block, axes)


def _letter_sizes(
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
            shown = " ".join(_fmt_shape(s) for s in shapes)
            raise ValueError(f"{what}: operand shapes {shown} do not match along a contracted axis")
        if non1:
            sizes[lab] = non1.pop()
        elif lab in unknown:
            sizes[lab] = math.nan
        else:
            sizes[lab] = 1
    return sizes


def _pick_splits(
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


_MIN_TASK_WORK = 1 << 24
"""Multiply-adds below which an output chunk is not split further to use more threads."""
_MIN_GROUP_WORK = 1 << 20
"""Multiply-adds per thread below which a contraction is not split into groups for them."""


def _halve(lengths: tuple[float, ...]) -> tuple[float, ...]:
    out: list[float] = []
    for n in lengths:
        n = int(n)
        out.extend((n - n // 2, n // 2) if n >= 2 else (n,))
    return tuple(out)


def _split_for_threads(
    op: Contract, splits: dict[int, tuple[float, ...]], sizes: dict[int, float]
) -> dict[int, tuple[float, ...]]:
    """Finer output chunks when there are fewer of them than threads and much work.

    A product of two single-chunk matrices would otherwise be one task on one thread; the
    largest output axis is halved (its operand is sliced, no copy) until every thread has
    an output chunk or the chunks get small.
    """
    cpus = _available_cpus()
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


def concat_blocks(axis: int, *blocks: Any) -> Any:
    return np.concatenate(blocks, axis=axis)


def _panel_axes(
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


def _groups(n: int, parts: int) -> list[range]:
    parts = max(1, min(n, parts))
    bounds = [round(i * n / parts) for i in range(parts + 1)]
    return [range(a, b) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]


@tile_rule(Contract)
def _tile_contract(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Contract)
    ctx.require_known(*inputs)
    shapes = [tuple(sum(s) for s in t.nsplits) for t in inputs]
    sizes = _letter_sizes(shapes, op.subscripts, op.name)
    splits = _split_for_threads(op, _pick_splits(inputs, op.subscripts, sizes, op.whole), sizes)
    # align every operand to the chosen chunking (a broadcast axis keeps its one chunk)
    aligned: list[Tiled] = []
    cache: dict[tuple[int, NSplits], Tiled] = {}
    broadcast: list[tuple[bool, ...]] = []
    for i, (t, subs) in enumerate(zip(inputs, op.subscripts)):
        flags = tuple(shapes[i][ax] != sizes[lab] for ax, lab in enumerate(subs))
        target = tuple(t.nsplits[ax] if flags[ax] else splits[lab] for ax, lab in enumerate(subs))
        ident = (id(t), target)
        if ident not in cache:
            cache[ident] = rechunk_tiled(f"{node.key}-in{i}", t, target, node.inputs[i].dtype, ctx)
        aligned.append(cache[ident])
        broadcast.append(flags)
    out_splits = tuple(splits[lab] for lab in op.out)
    out_nb = [len(s) for s in out_splits]
    k_labels = [
        lab
        for lab in dict.fromkeys(lab for subs in op.subscripts for lab in subs)
        if lab not in op.out
    ]
    k_nb = [len(splits[lab]) for lab in k_labels]
    combos = list(itertools.product(*(range(n) for n in k_nb)))
    out_pos = {lab: p for p, lab in enumerate(op.out)}
    k_pos = {lab: p for p, lab in enumerate(k_labels)}
    grid = key_grid(node.key, out_nb)
    nops = len(inputs)

    half = len(op.out) // 2
    swap = tuple(range(half, 2 * half)) + tuple(range(half))

    def computed(index: tuple[int, ...]) -> bool:
        return not op.symmetric or index[:half] <= index[half:]

    out_indices = list(itertools.product(*(range(n) for n in out_nb)))
    n_computed = sum(1 for index in out_indices if computed(index))
    # how many groups to split the contracted positions into
    per_combo = 0.0
    for t, dt in zip(aligned, node.inputs):
        per_combo += math.prod(max(s) if len(s) else 0 for s in t.nsplits) * dt.dtype.itemsize
    budget = 4 * options.chunk_store_limit
    n_groups = max(1, math.ceil(len(combos) * per_combo / budget))
    cpus = _available_cpus()
    work = math.prod(int(n) for n in sizes.values())
    if n_computed < cpus and work >= _MIN_GROUP_WORK * cpus:
        n_groups = max(n_groups, math.ceil(cpus / max(n_computed, 1)))
    groups = _groups(len(combos), n_groups)

    def block_key(i: int, index: tuple[int, ...], combo: tuple[int, ...]) -> Key:
        subs = op.subscripts[i]
        where = tuple(
            0
            if broadcast[i][ax]
            else (index[out_pos[lab]] if lab in out_pos else combo[k_pos[lab]])
            for ax, lab in enumerate(subs)
        )
        key: Key = aligned[i].keys[where]
        return key

    # Panels: with one contracted label, when every operand's chunks are read by several
    # output chunks, each operand's chunks along that label are concatenated once (a shared
    # task per row/column panel and group) and each output chunk makes one kernel call.
    panel_axis = _panel_axes(op, k_labels, broadcast, out_nb) if len(combos) > 1 else None
    panels: dict[tuple[Any, ...], Key] = {}

    def panel_key(i: int, index: tuple[int, ...], g: int) -> Key:
        assert panel_axis is not None
        axis = panel_axis[i]
        group = groups[g]
        if axis is None or len(group) == 1:
            return block_key(i, index, combos[group[0]])
        keys = [block_key(i, index, combos[c]) for c in group]
        ident = (id(aligned[i]), axis, tuple(keys))
        if ident not in panels:
            pkey = (f"{node.key}-panel{i}", len(panels))
            ctx.new_task(pkey, concat_blocks, axis, *(Ref(k) for k in keys))
            panels[ident] = pkey
        return panels[ident]

    for index in out_indices:
        out_key = grid[index]
        if not computed(index):
            mirror = index[half:] + index[:half]
            ctx.new_task(out_key, transpose_block, Ref(grid[mirror]), swap)
            continue
        part_keys: list[Key] = []
        for g, group in enumerate(groups):
            if panel_axis is not None:
                refs = [Ref(panel_key(i, index, g)) for i in range(nops)]
            else:
                refs = [Ref(block_key(i, index, combos[c])) for c in group for i in range(nops)]
            if len(groups) == 1:
                ctx.new_task(out_key, contract_blocks, op.func, nops, op.accepts_out, *refs)
                break
            key = (f"{node.key}-part", *index, g)
            ctx.new_task(key, contract_blocks, op.func, nops, op.accepts_out, *refs)
            part_keys.append(key)
        if len(groups) == 1:
            continue
        level = 0
        size = options.combine_size
        while len(part_keys) > size:
            next_keys: list[Key] = []
            for g in range(0, len(part_keys), size):
                chunk = part_keys[g : g + size]
                if len(chunk) == 1:
                    next_keys.append(chunk[0])
                    continue
                key = (f"{node.key}-sum{level}", *index, g // size)
                ctx.new_task(key, sum_parts, *(Ref(k) for k in chunk))
                next_keys.append(key)
            part_keys = next_keys
            level += 1
        ctx.new_task(out_key, sum_parts, *(Ref(k) for k in part_keys))
    return Tiled(out_splits, grid)


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
    sizes = _letter_sizes([t.shape for t in operands], subscripts, name)
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


# ---- kernels ----------------------------------------------------------------------------


def dot_nn(a: Any, b: Any, out: Any = None) -> Any:
    return np.dot(a, b, out=out)


def dot_nt(a: Any, b: Any, out: Any = None) -> Any:
    return np.dot(a, b.T, out=out)


def dot_tn(a: Any, b: Any, out: Any = None) -> Any:
    return np.dot(a.T, b, out=out)


def matmul_kernel(a: Any, b: Any, out: Any = None) -> Any:
    if out is None:
        return np.matmul(a, b)
    return np.matmul(a, b, out=out)


def tensordot_kernel(a: Any, b: Any, axes: tuple[tuple[int, ...], tuple[int, ...]]) -> Any:
    return np.tensordot(a, b, axes=axes)


def vdot_kernel(a: Any, b: Any) -> Any:
    return np.vdot(a, b)


def outer_kernel(a: Any, b: Any) -> Any:
    return np.outer(a, b)


def einsum_kernel(subscripts: str, path: Any, kwargs: dict[str, Any], *blocks: Any) -> Any:
    return np.einsum(subscripts, *blocks, optimize=path, **kwargs)


# ---- helpers ------------------------------------------------------------------------------


def _fmt_shape(shape: Sequence[Any]) -> str:
    """A shape as NumPy prints it in error messages: ``(2,3)``, ``(3,)``."""
    items = [str(int(n)) if not (isinstance(n, float) and math.isnan(n)) else "nan" for n in shape]
    return "(" + ",".join(items) + ("," if len(items) == 1 else "") + ")"


def _differ(x: Any, y: Any) -> bool:
    """Known lengths that differ (nan matches anything)."""
    if isinstance(x, float) and math.isnan(x) or isinstance(y, float) and math.isnan(y):
        return False
    return bool(x != y)


def _tiny(t: Tensor, ndim: int | None = None) -> np.ndarray[Any, Any]:
    return np.ones((1,) * (t.ndim if ndim is None else ndim), dtype=t.dtype)


def _dot_dtype(a: Tensor, b: Tensor, name: str) -> np.dtype[Any]:
    try:
        return np.asarray(np.dot(_tiny(a, 2), _tiny(b, 2))).dtype
    except TypeError as exc:
        raise TypeError(
            f"{name}: unsupported operand dtypes {a.dtype} and {b.dtype}: {exc}"
        ) from exc


def _check_out(name: str, out: Any) -> None:
    if out is not None:
        raise TypeError(f"{name}(): the 'out' argument is not supported on tensors")


def _multiply(a: Tensor, b: Tensor) -> Tensor:
    from jupyter_mars.tensor import ufuncs

    result: Tensor = getattr(ufuncs, "multiply")(a, b)  # noqa: B009
    return result


def _pair_kernel(
    nda: int, ndb: int, axes_a: tuple[int, ...], axes_b: tuple[int, ...]
) -> tuple[Callable[..., Any], bool]:
    """The fastest kernel for one chunk pair of a tensordot, and whether it takes ``out``."""
    if nda == 2 and ndb == 2 and len(axes_a) == 1:
        table = {(1, 0): dot_nn, (1, 1): dot_nt, (0, 0): dot_tn}
        kernel = table.get((axes_a[0], axes_b[0]))
        if kernel is not None:
            return kernel, True
    if nda in (1, 2) and ndb == 1 and axes_a == (nda - 1,) and axes_b == (0,):
        return dot_nn, nda == 2
    if nda == 1 and ndb == 2 and axes_a == (0,) and axes_b == (0,):
        return dot_nn, True
    return functools.partial(tensordot_kernel, axes=(axes_a, axes_b)), False


def _tensordot(
    a: Tensor, b: Tensor, axes_a: Sequence[int], axes_b: Sequence[int], name: str, dtype: Any
) -> Tensor:
    """Contract ``axes_a`` of ``a`` with ``axes_b`` of ``b`` (normalised, same length)."""
    axes_a, axes_b = tuple(axes_a), tuple(axes_b)
    sub_a = tuple(range(a.ndim))
    sub_b_list = []
    for ax in range(b.ndim):
        sub_b_list.append(axes_a[axes_b.index(ax)] if ax in axes_b else a.ndim + ax)
    sub_b = tuple(sub_b_list)
    free_a = tuple(lab for ax, lab in enumerate(sub_a) if ax not in axes_a)
    free_b = tuple(lab for ax, lab in enumerate(sub_b) if ax not in axes_b)
    func, accepts_out = _pair_kernel(a.ndim, b.ndim, axes_a, axes_b)
    symmetric = a.node is b.node and axes_a == axes_b and len(free_a) > 0
    return contract(
        [a, b], [sub_a, sub_b], free_a + free_b, dtype, func, name, accepts_out, symmetric=symmetric
    )


# ---- public functions -----------------------------------------------------------------


def tensordot(a: Any, b: Any, axes: Any = 2) -> Tensor:
    """Lazy, chunked ``numpy.tensordot``: sum products over ``axes`` of ``a`` and ``b``.

    ``axes`` is an int N (the last N axes of ``a`` with the first N of ``b``) or a pair
    of sequences (or ints) of axes.
    """
    a, b = astensor(a), astensor(b)
    if isinstance(axes, (int, np.integer)) and not isinstance(axes, bool):
        n = int(axes)
        if n > a.ndim or n > b.ndim:
            raise ValueError(
                f"tensordot: axes={n} is more than the dimensions of a ({a.ndim}) or b ({b.ndim})"
            )
        axes_a: list[Any] = list(range(a.ndim - n, a.ndim)) if n > 0 else []
        axes_b: list[Any] = list(range(n)) if n > 0 else []
    else:
        try:
            first, second = axes
        except (TypeError, ValueError):
            raise TypeError(
                f"tensordot: axes must be an int or a pair of sequences of ints, got {axes!r}"
            ) from None
        axes_a = list(first) if isinstance(first, (list, tuple)) else [first]
        axes_b = list(second) if isinstance(second, (list, tuple)) else [second]
    if len(axes_a) != len(axes_b):
        raise ValueError(
            f"shape-mismatch for sum: tensordot axes {axes_a} of a and {axes_b} of b "
            "must have the same length"
        )
    na = _normalize_axes(axes_a, a.ndim, "axes[0]")
    nb = _normalize_axes(axes_b, b.ndim, "axes[1]")
    for x, y in zip(na, nb):
        if _differ(a.shape[x], b.shape[y]):
            raise ValueError(
                f"shape-mismatch for sum: a.shape[{x}]={a.shape[x]} != b.shape[{y}]={b.shape[y]} "
                f"(shapes {_fmt_shape(a.shape)} and {_fmt_shape(b.shape)})"
            )
    dtype = _dot_dtype(a, b, "tensordot")
    return _tensordot(a, b, na, nb, "tensordot", dtype)


def _normalize_axes(axes: Sequence[Any], ndim: int, argname: str) -> tuple[int, ...]:
    out = []
    for ax in axes:
        if isinstance(ax, bool) or not isinstance(ax, (int, np.integer)):
            raise TypeError(f"tensordot: {argname} must hold ints, got {ax!r}")
        if not -ndim <= ax < ndim:
            raise np.exceptions.AxisError(int(ax), ndim, f"tensordot {argname}")
        out.append(int(ax) % ndim)
    if len(set(out)) != len(out):
        raise ValueError(f"tensordot: repeated axis in {argname}: {list(axes)}")
    return tuple(out)


def dot(a: Any, b: Any, out: Any = None) -> Tensor:
    """Lazy, chunked ``numpy.dot``.

    0-d operands multiply; 1-D with 1-D is the inner product; otherwise the last axis of
    ``a`` is contracted with the second-to-last of ``b`` (the only one when ``b`` is 1-D).
    """
    _check_out("dot", out)
    a, b = astensor(a), astensor(b)
    if a.ndim == 0 or b.ndim == 0:
        return _multiply(a, b)
    ax_b = max(b.ndim - 2, 0)
    if _differ(a.shape[-1], b.shape[ax_b]):
        raise ValueError(
            f"shapes {_fmt_shape(a.shape)} and {_fmt_shape(b.shape)} not aligned: "
            f"{a.shape[-1]} (dim {a.ndim - 1}) != {b.shape[ax_b]} (dim {ax_b})"
        )
    return _tensordot(a, b, (a.ndim - 1,), (ax_b,), "dot", _dot_dtype(a, b, "dot"))


def inner(a: Any, b: Any) -> Tensor:
    """Lazy, chunked ``numpy.inner``: contract the last axes of ``a`` and ``b``.

    ``inner(a, a)`` computes only the chunks on and above the diagonal.
    """
    a, b = astensor(a), astensor(b)
    if a.ndim == 0 or b.ndim == 0:
        return _multiply(a, b)
    if _differ(a.shape[-1], b.shape[-1]):
        raise ValueError(
            f"shapes {_fmt_shape(a.shape)} and {_fmt_shape(b.shape)} not aligned: "
            f"{a.shape[-1]} (dim {a.ndim - 1}) != {b.shape[-1]} (dim {b.ndim - 1})"
        )
    return _tensordot(a, b, (a.ndim - 1,), (b.ndim - 1,), "inner", _dot_dtype(a, b, "inner"))


_MATMUL_SIG = "(n?,k),(k,m?)->(n?,m?)"


def _remapped(t: Tensor) -> str:
    """How NumPy shows an operand's batch shape in matmul's broadcast error."""
    batch = [str(n) for n in t.shape[:-2]] + ["newaxis"] * min(t.ndim, 2)
    return f"{_fmt_shape(t.shape)}->({','.join(batch)})"


def matmul(a: Any, b: Any, out: Any = None, dtype: Any = None, **kwargs: Any) -> Tensor:
    """Lazy, chunked ``numpy.matmul`` (``a @ b``): batched over leading axes, broadcast."""
    _check_out("matmul", out)
    for bad in ("axes", "axis", "where", "signature", "subok", "order", "casting"):
        if kwargs.get(bad) is not None:
            raise TypeError(f"matmul(): the {bad!r} argument is not supported on tensors")
    a, b = astensor(a), astensor(b)
    for i, t in enumerate((a, b)):
        if t.ndim == 0:
            raise ValueError(
                f"matmul: Input operand {i} does not have enough dimensions (has 0, gufunc core "
                f"with signature {_MATMUL_SIG} requires 1)"
            )
    if dtype is not None:
        a, b = a.astype(dtype), b.astype(dtype)
    k_b = 0 if b.ndim == 1 else b.ndim - 2
    if _differ(a.shape[-1], b.shape[k_b]):
        raise ValueError(
            f"matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
            f"signature {_MATMUL_SIG} (size {b.shape[k_b]} is different from {a.shape[-1]})"
        )
    try:
        result_dtype = np.matmul(_tiny(a), _tiny(b)).dtype
    except TypeError as exc:
        raise TypeError(
            f"matmul: unsupported operand dtypes {a.dtype} and {b.dtype}: {exc}"
        ) from exc
    batch_a, batch_b = a.shape[:-2], b.shape[:-2]
    nbatch = max(len(batch_a), len(batch_b))
    for pos in range(1, nbatch + 1):
        x = batch_a[-pos] if pos <= len(batch_a) else 1
        y = batch_b[-pos] if pos <= len(batch_b) else 1
        if x != 1 and y != 1 and _differ(x, y):
            remap = " ".join(_remapped(t) for t in (a, b))
            requested = []
            if a.ndim >= 2:
                requested.append(a.shape[-2])
            if b.ndim >= 2:
                requested.append(b.shape[-1])
            raise ValueError(
                "operands could not be broadcast together with remapped shapes "
                f"[original->remapped]: {remap}  and requested shape {_fmt_shape(requested)}"
            )
    # labels: batch axes 0..nbatch-1 (right-aligned), n, k, m
    n_lab, k_lab, m_lab = nbatch, nbatch + 1, nbatch + 2
    sub_a = (
        tuple(range(nbatch - len(batch_a), nbatch)) + ((n_lab,) if a.ndim >= 2 else ()) + (k_lab,)
    )
    sub_b = (
        tuple(range(nbatch - len(batch_b), nbatch)) + (k_lab,) + ((m_lab,) if b.ndim >= 2 else ())
    )
    out_labels = (
        tuple(range(nbatch)) + ((n_lab,) if a.ndim >= 2 else ()) + ((m_lab,) if b.ndim >= 2 else ())
    )
    if a.ndim <= 2 and b.ndim <= 2:
        func, accepts_out = _pair_kernel(a.ndim, b.ndim, (a.ndim - 1,), (0,))
    else:
        func, accepts_out = matmul_kernel, len(out_labels) > 0
    return contract([a, b], [sub_a, sub_b], out_labels, result_dtype, func, "matmul", accepts_out)


def vdot(a: Any, b: Any) -> Tensor:
    """Lazy, chunked ``numpy.vdot``: both flattened, ``a`` conjugated, then dotted."""
    a, b = astensor(a), astensor(b)
    if _differ(a.size, b.size):
        raise ValueError(
            f"vdot: a has {a.size} elements and b has {b.size}; they must have the same size"
        )
    try:
        dtype = np.asarray(np.vdot(_tiny(a, 1), _tiny(b, 1))).dtype
    except TypeError as exc:
        raise TypeError(f"vdot: unsupported operand dtypes {a.dtype} and {b.dtype}: {exc}") from exc
    fa, fb = ravel_tensor(a), ravel_tensor(b)
    return contract([fa, fb], [(0,), (0,)], (), dtype, vdot_kernel, "vdot")


def outer(a: Any, b: Any, out: Any = None) -> Tensor:
    """Lazy, chunked ``numpy.outer``: ``a`` and ``b`` flattened, every product."""
    _check_out("outer", out)
    a, b = astensor(a), astensor(b)
    try:
        dtype = np.outer(_tiny(a, 1), _tiny(b, 1)).dtype
    except TypeError as exc:
        raise TypeError(
            f"outer: unsupported operand dtypes {a.dtype} and {b.dtype}: {exc}"
        ) from exc
    fa, fb = ravel_tensor(a), ravel_tensor(b)
    return contract([fa, fb], [(0,), (1,)], (0, 1), dtype, outer_kernel, "outer")


# ---- einsum -----------------------------------------------------------------------------


def _sublist_to_str(sublist: Sequence[Any]) -> str:
    chars = []
    for item in sublist:
        if item is Ellipsis:
            chars.append("...")
        elif isinstance(item, (int, np.integer)) and not isinstance(item, bool) and 0 <= item < 52:
            chars.append(string.ascii_letters[int(item)])
        else:
            raise ValueError(f"einsum: subscript {item!r} is not an int in [0, 52) or Ellipsis")
    return "".join(chars)


def _einsum_args(args: Sequence[Any]) -> tuple[str, list[Any]]:
    """Subscripts string and operands, from the string form or the interleaved form."""
    if not args:
        raise TypeError("einsum() needs at least the subscripts")
    if isinstance(args[0], str):
        return args[0], list(args[1:])
    body, out = (args[:-1], args[-1]) if len(args) % 2 else (args, None)
    operands, sublists = list(body[0::2]), list(body[1::2])
    spec = ",".join(_sublist_to_str(s) for s in sublists)
    if out is not None:
        spec += "->" + _sublist_to_str(out)
    return spec, operands


def _parse_einsum(spec: str, ndims: Sequence[int]) -> tuple[list[Labels], Labels]:
    """Labels of each operand's axes and of the output (ellipsis axes get negative labels)."""
    spec = spec.replace(" ", "")
    lhs, arrow, rhs = spec.partition("->")
    terms = lhs.split(",")

    def labels(term: str, ndim: int | None) -> list[int]:
        if "..." in term:
            before, _, after = term.partition("...")
            n_ell = (ndim if ndim is not None else 0) - len(before) - len(after)
            return (
                [ord(c) for c in before]
                + [-j for j in range(n_ell, 0, -1)]
                + [ord(c) for c in after]
            )
        return [ord(c) for c in term]

    in_labels = [tuple(labels(term, nd)) for term, nd in zip(terms, ndims)]
    n_ell = max((sum(1 for lab in labs if lab < 0) for labs in in_labels), default=0)
    if arrow:
        if "..." in rhs:
            before, _, after = rhs.partition("...")
            out = (
                [ord(c) for c in before]
                + [-j for j in range(n_ell, 0, -1)]
                + [ord(c) for c in after]
            )
        else:
            out = [ord(c) for c in rhs]
    else:
        counts: dict[int, int] = {}
        for labs in in_labels:
            for lab in labs:
                counts[lab] = counts.get(lab, 0) + 1
        out = [-j for j in range(n_ell, 0, -1)] + sorted(
            lab for lab, c in counts.items() if c == 1 and lab >= 0
        )
    return list(in_labels), tuple(out)


def _fake(shape: Sequence[Any], dtype: Any) -> np.ndarray[Any, Any]:
    """A zero-memory array of ``shape`` (nan lengths become 1), for shape checks."""
    real = tuple(1 if isinstance(n, float) and math.isnan(n) else int(n) for n in shape)
    return np.broadcast_to(np.zeros((), dtype=dtype), real)


def _einsum_fast_path(
    in_labels: Sequence[Labels], out: Labels, operands: Sequence[Tensor]
) -> tuple[Callable[..., Any], bool, bool] | None:
    """A tensordot/matmul kernel when the einsum is one, and whether the operands swap."""
    if len(in_labels) != 2:
        return None
    la, lb = in_labels
    if len(set(la)) != len(la) or len(set(lb)) != len(lb) or len(set(out)) != len(out):
        return None
    shared = [lab for lab in la if lab in lb]
    for labs, t in ((la, operands[0]), (lb, operands[1])):
        for lab, n in zip(labs, t.shape):
            if n == 1 and any(lab in other for other in in_labels if other is not labs):
                return None  # possible size-1 broadcasting: leave it to einsum
    only_a = [lab for lab in la if lab not in lb]
    only_b = [lab for lab in lb if lab not in la]
    if not all(lab in out for lab in only_a + only_b):
        return None
    batch = [lab for lab in shared if lab in out]
    if not batch:
        if out == tuple(only_a) + tuple(only_b):
            swap = False
        elif out == tuple(only_b) + tuple(only_a):
            swap = True
        else:
            return None
        first, second = (lb, la) if swap else (la, lb)
        axes_a = tuple(first.index(lab) for lab in shared)
        axes_b = tuple(second.index(lab) for lab in shared)
        func, accepts_out = _pair_kernel(len(first), len(second), axes_a, axes_b)
        return func, accepts_out, swap
    # batched matrix product: (batch..., i, j), (batch..., j, k) -> (batch..., i, k)
    if len(la) >= 3 and len(lb) >= 3 and la[:-2] == lb[:-2] == out[:-2] == tuple(batch):
        i, j = la[-2:]
        j2, k = lb[-2:]
        if j == j2 and out[-2:] == (i, k) and i != k:
            return matmul_kernel, True, False
    return None


def einsum(
    *args: Any,
    out: Any = None,
    dtype: Any = None,
    order: str = "K",
    casting: str = "safe",
    optimize: Any = False,
) -> Tensor:
    """Lazy, chunked ``numpy.einsum`` (string or interleaved sublist form).

    Each output chunk sums ``numpy.einsum`` over the chunks that meet at it; matrix
    products, transposed products and batched products use the ``dot``/``matmul`` kernels.
    """
    _check_out("einsum", out)
    spec, raw = _einsum_args(args)
    if not isinstance(spec, str):
        raise TypeError(f"einsum: subscripts must be a string, got {spec!r}")
    operands = [astensor(x) for x in raw]
    kwargs: dict[str, Any] = {}
    if dtype is not None:
        kwargs["dtype"] = np.dtype(dtype)
    if casting != "safe":
        kwargs["casting"] = casting
    # numpy checks the subscripts and the dtype on tiny arrays, and the sizes on fakes
    result_dtype = np.asarray(
        np.einsum(spec, *(np.ones((1,) * t.ndim, dtype=t.dtype) for t in operands), **kwargs)
    ).dtype
    path, _ = np.einsum_path(spec, *(_fake(t.shape, t.dtype) for t in operands), optimize="greedy")
    in_labels, out_labels = _parse_einsum(spec, [t.ndim for t in operands])
    if any(len(labs) != t.ndim for labs, t in zip(in_labels, operands)):
        raise NotImplementedError(f"einsum: subscripts {spec!r} are not supported")
    fast = _einsum_fast_path(in_labels, out_labels, operands) if not kwargs else None
    if fast is not None:
        func, accepts_out, swap = fast
        ops, op_labels = (operands[::-1], in_labels[::-1]) if swap else (operands, in_labels)
        return contract(ops, op_labels, out_labels, result_dtype, func, "einsum", accepts_out)
    letters: dict[int, str] = {}
    free = iter(
        c for c in string.ascii_letters if ord(c) not in {lab for ls in in_labels for lab in ls}
    )
    for labs in [*in_labels, out_labels]:
        for lab in labs:
            if lab not in letters:
                letters[lab] = chr(lab) if lab >= 0 else next(free)
    explicit = (
        ",".join("".join(letters[lab] for lab in labs) for labs in in_labels)
        + "->"
        + "".join(letters[lab] for lab in out_labels)
    )
    func = functools.partial(einsum_kernel, explicit, path, kwargs)
    return contract(operands, in_labels, out_labels, result_dtype, func, "einsum")


# ---- flattening for vdot/outer -------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Ravel(Op):
    """Flatten in C order: trailing axes are gathered whole, chunks follow the first axis."""

    def label(self) -> str:
        return "ravel"


def reshape_block(block: Any, shape: tuple[int, ...]) -> Any:
    return np.reshape(block, shape)


@tile_rule(Ravel)
def _tile_ravel(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    (x,) = inputs
    ctx.require_known(x)
    if x.keys.ndim == 0:
        grid = key_grid(node.key, [1])
        ctx.new_task(grid[0], reshape_block, Ref(x.flat_keys()[0]), (1,))
        return Tiled(((1,),), grid)
    rest = math.prod(int(sum(s)) for s in x.nsplits[1:])
    target = (x.nsplits[0], *((sum(s),) for s in x.nsplits[1:]))
    rx = rechunk_tiled(f"{node.key}-whole", x, target, node.dtype, ctx)
    grid = key_grid(node.key, [len(target[0])])
    for i in range(len(target[0])):
        src = (i,) + (0,) * (x.keys.ndim - 1)
        ctx.new_task(grid[i], reshape_block, Ref(rx.keys[src]), (-1,))
    return Tiled((tuple(n * rest for n in target[0]),), grid)


def ravel_tensor(x: Tensor) -> Tensor:
    """``x`` flattened (itself when 1-D); chunks follow the first axis."""
    if x.ndim == 1:
        return x
    size = x.size
    return new_tensor(Ravel(), [x], (size,), x.dtype)


# ---- Tensor methods -----------------------------------------------------------------------


def _operand_ok(x: Any) -> bool:
    return isinstance(x, (Tensor, np.ndarray, np.generic, list, tuple, int, float, complex, bool))


def _matmul_method(self: Tensor, other: Any) -> Any:
    if not _operand_ok(other):
        return NotImplemented
    return matmul(self, other)


def _rmatmul_method(self: Tensor, other: Any) -> Any:
    if not _operand_ok(other):
        return NotImplemented
    return matmul(other, self)


def _dot_method(self: Tensor, b: Any, out: Any = None) -> Tensor:
    """``a.dot(b)``: see ``dot``."""
    return dot(self, b, out=out)


def _attach() -> None:
    Tensor.dot = _dot_method  # type: ignore[attr-defined]
    setattr(Tensor, "__matmul__", _matmul_method)  # noqa: B010
    setattr(Tensor, "__rmatmul__", _rmatmul_method)  # noqa: B010


_attach()

__all__ = ["dot", "einsum", "inner", "matmul", "outer", "tensordot", "vdot"]
