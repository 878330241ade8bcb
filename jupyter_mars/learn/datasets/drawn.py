"""Rows drawn chunk by chunk: the operator behind ``make_blobs`` and ``make_classification``,
and what the generators share (seeds, groups of rows spread over chunks).

A generator draws its small parameters (centres, covariances, shifts) in the driver from
the NumPy ``RandomState`` that ``random_state`` names, then one integer ``seed``. Row
chunk ``i`` is one task calling ``draw(generator, n_rows, chunk_arg, *params)`` with the
chunk's own stream, ``mt.random``'s ``chunk_generator(seed, i)``: the chunks are
independent, and the same ``random_state`` and chunking give the same data on any session.
``draw`` returns every output of the generator (``X`` and ``y``); each output is a
``DrawnRows`` node, the nodes of one call share a token, and their chunks are taken from
the shared task, so executing them together draws each chunk once.

Rows that belong to groups of fixed sizes (blobs, clusters) are spread over the chunks in
the driver: in order without shuffling, so the rows come as scikit-learn's do, and with
it by a multivariate hypergeometric draw per chunk, the numbers a uniform permutation of
the rows would put in each chunk; each chunk then shuffles its own rows. The data is a
uniformly shuffled sample, as scikit-learn's, without moving rows between chunks.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.random import chunk_generator

__all__ = [
    "DrawnRows",
    "drawn_tensors",
    "new_seed",
    "spread_groups",
]

_tokens = itertools.count()
_TOKEN_PREFIX = os.urandom(3).hex()


@dataclass(frozen=True, eq=False)
class DrawnRows(Op):
    """Output ``output`` of rows drawn chunk by chunk by ``draw``."""

    token: str
    """Key prefix of the drawing tasks, shared by the outputs of one call."""
    draw: Callable[..., tuple[np.ndarray[Any, Any], ...]]
    """``draw(generator, n_rows, chunk_arg, *params)``: every output for one chunk."""
    seed: int
    rows: tuple[int, ...]
    """Row chunk lengths."""
    chunk_args: tuple[Any, ...]
    """One argument per row chunk (the number of rows of each group it holds, say)."""
    params: tuple[Any, ...]
    output: int
    columns: tuple[int, ...] | None
    """Column chunk widths of a 2-d output; None for a 1-d one."""

    def label(self) -> str:
        return self.token.split("-", 1)[0]


def draw_chunk(
    draw: Callable[..., Any], seed: int, index: int, n_rows: int, arg: Any, params: tuple[Any, ...]
) -> tuple[np.ndarray[Any, Any], ...]:
    """Chunk kernel: every output of row chunk ``index``, from its own stream."""
    return tuple(draw(chunk_generator(seed, index), n_rows, arg, *params))


def output_block(drawn: tuple[Any, ...], output: int, start: int | None, stop: int | None) -> Any:
    """Chunk kernel: one output of a drawn chunk, columns ``start:stop`` of a 2-d one."""
    block = drawn[output]
    return block if start is None else np.ascontiguousarray(block[:, start:stop])


@tile_rule(DrawnRows)
def _tile_drawn_rows(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, DrawnRows)
    columns = op.columns
    grid = key_grid(node.key, (len(op.rows),) if columns is None else (len(op.rows), len(columns)))
    edges = (
        [None] if columns is None else list(zip(np.cumsum((0, *columns[:-1])), np.cumsum(columns)))
    )
    for i, n_rows in enumerate(op.rows):
        shared = (op.token, i)
        ctx.new_task(shared, draw_chunk, op.draw, op.seed, i, n_rows, op.chunk_args[i], op.params)
        for j, edge in enumerate(edges):
            start, stop = (None, None) if edge is None else (int(edge[0]), int(edge[1]))
            key = grid[i] if columns is None else grid[i, j]
            ctx.new_task(key, output_block, Ref(shared), op.output, start, stop)
    nsplits = (op.rows,) if columns is None else (op.rows, columns)
    return Tiled(nsplits, grid)


def drawn_tensors(
    name: str,
    draw: Callable[..., Any],
    seed: int,
    nsplits: Sequence[Sequence[float]],
    chunk_args: Sequence[Any],
    params: tuple[Any, ...],
    dtypes: Sequence[Any],
) -> list[Tensor]:
    """The outputs of ``draw``: the first 2-d in the chunks ``nsplits``, the others 1-d
    with its row chunks, of ``dtypes``."""
    token = f"{name}-{_TOKEN_PREFIX}{next(_tokens):x}"
    rows = tuple(int(n) for n in nsplits[0])
    columns = tuple(int(n) for n in nsplits[1])
    out = []
    for output, dtype in enumerate(dtypes):
        wide = columns if output == 0 else None
        op = DrawnRows(token, draw, seed, rows, tuple(chunk_args), params, output, wide)
        shape = (sum(rows), sum(columns)) if output == 0 else (sum(rows),)
        out.append(new_tensor(op, [], shape, dtype))
    return out


def new_seed(rng: np.random.RandomState) -> int:
    """The seed of the chunk streams, the next number of ``rng``."""
    return int(rng.randint(0, 2**32 - 1, dtype=np.int64))


def spread_groups(
    sizes: Sequence[int], rows: Sequence[float], shuffle: bool, rng: np.random.RandomState
) -> np.ndarray[Any, Any]:
    """How many rows of each group each chunk holds (chunks x groups): the groups in
    order without ``shuffle``, else the counts a uniform permutation of the rows gives."""
    group_sizes = np.asarray(sizes, dtype=np.int64)
    lengths = np.asarray(rows, dtype=np.int64)
    table = np.zeros((len(lengths), len(group_sizes)), dtype=np.int64)
    if not shuffle:
        group_ends = np.cumsum(group_sizes)
        for i, stop in enumerate(np.cumsum(lengths)):
            start = stop - lengths[i]
            table[i] = np.clip(
                np.minimum(group_ends, stop) - np.maximum(group_ends - group_sizes, start), 0, None
            )
        return table
    generator = np.random.default_rng(new_seed(rng))
    left = group_sizes.copy()
    for i, n in enumerate(lengths):
        table[i] = generator.multivariate_hypergeometric(left, int(n))
        left -= table[i]
    return table


def group_labels(
    counts: np.ndarray[Any, Any], shuffle: bool, generator: Any
) -> np.ndarray[Any, Any]:
    """The group of each row of a chunk holding ``counts`` rows of each group, in group
    order or shuffled."""
    labels = np.repeat(np.arange(len(counts)), counts)
    if shuffle:
        generator.shuffle(labels)
    return labels
