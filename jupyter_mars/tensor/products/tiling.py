"""Tiling of a ``Contract`` node: **one task per output chunk**, never one per ``(i, k, j)``.

- Matrix products (one contracted label, each operand's chunks read by several output
  chunks): each row panel of ``A`` and column panel of ``B`` is concatenated along the
  contracted axis once, by a shared task, and each output chunk is ONE kernel call on
  two contiguous panels (``np.dot(panel_a, panel_b)``; ``np.dot(panel_a, panel_b.T)``
  for ``inner``, with no transposed copy).
- Otherwise (a matrix-vector product, whose panels would be read once; several
  contracted labels; ``einsum`` traces) the output task reads the chunks themselves and
  sums the products in place through one reused buffer (``np.dot(..., out=buf)``).

The contracted positions may be split into groups, one task each, summed by a tree of
fan-in ``options.combine_size`` (when and how the chunks are cut: ``chunking.py``).
Operands whose chunk boundaries differ along a shared label are aligned by rechunking the
smaller operand to the larger one's chunks. A symmetric product (``inner(a, a)``, or
``tensordot`` of a tensor with itself on the same axes) computes only the chunks on and
above the diagonal; the others are transposed views of them.
"""

from __future__ import annotations

import itertools
from typing import Any

from jupyter_mars.config import options
from jupyter_mars.engine.chunks import NSplits
from jupyter_mars.engine.graph import Key, Ref
from jupyter_mars.engine.node import Node, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.engine.primitives.reduction import combine_tree
from jupyter_mars.tensor.products.chunking import (
    contraction_groups,
    panel_axes,
    pick_splits,
    split_for_threads,
)
from jupyter_mars.tensor.products.contraction import Contract, label_sizes
from jupyter_mars.tensor.products.kernels import (
    concat_blocks,
    contract_blocks,
    sum_parts,
    transpose_block,
)


@tile_rule(Contract)
def _tile_contract(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Contract)
    ctx.require_known(*inputs)
    shapes = [tuple(sum(s) for s in t.nsplits) for t in inputs]
    sizes = label_sizes(shapes, op.subscripts, op.name)
    splits = split_for_threads(
        op, pick_splits(inputs, op.subscripts, sizes, op.whole), sizes, ctx.n_cpu
    )
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
    itemsizes = [dt.dtype.itemsize for dt in node.inputs]
    groups = contraction_groups(aligned, itemsizes, len(combos), n_computed, sizes, ctx.n_cpu)

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
    panel_axis = panel_axes(op, k_labels, broadcast, out_nb) if len(combos) > 1 else None
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
        if len(groups) > 1:
            _sum_tree(ctx, node.key, index, out_key, part_keys)
    return Tiled(out_splits, grid)


def _sum_tree(
    ctx: TileContext, prefix: str, index: tuple[int, ...], out_key: Key, part_keys: list[Key]
) -> None:
    """Tasks summing the partial products ``part_keys`` into ``out_key``, with fan-in
    ``options.combine_size``."""
    size = options.combine_size
    last = combine_tree(ctx, f"{prefix}-sum", part_keys, size, sum_parts, index=index)
    ctx.new_task(out_key, sum_parts, *(Ref(k) for k in last))
