"""``randint(..., density=d)``: a sparse tensor with about a fraction ``d`` of its entries
drawn from ``[low, high)`` and the others zero, as Mars's ``randint`` gives.

Each chunk draws from its own stream (see ``streams.py``): how many entries it stores
(binomial), their positions without replacement, then their values; a drawn 0 is not
stored.
"""

from __future__ import annotations

import itertools
import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import NSplits
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.sparse import scipy_sparse
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.creation.common import normalize_shape, nsplits_for
from jupyter_mars.tensor.random.streams import (
    RandomStateField,
    checking_generator,
    chunk_generator,
    flat_index,
)


@dataclass(frozen=True, eq=False)
class SparseIntegers(Op):
    seed: RandomStateField
    low: int
    high: int
    density: float
    nsplits: NSplits

    def label(self) -> str:
        return "randint"


def sparse_integers_chunk(
    seed: int,
    index: int,
    shape: tuple[int, int],
    low: int,
    high: int,
    density: float,
    dtype: np.dtype[Any],
) -> Any:
    rng = chunk_generator(seed, index)
    size = shape[0] * shape[1]
    # each entry is stored with probability ``density``, so any chunking gives the same
    # expected fraction (a rounded count per chunk would store nothing in small chunks)
    count = int(rng.binomial(size, density))
    where = rng.choice(size, count, replace=False) if count else np.empty(0, dtype=np.intp)
    values = rng.integers(low, high, size=count, dtype=dtype)
    rows, cols = np.divmod(where, max(shape[1], 1))
    out = scipy_sparse().csr_matrix((values, (rows, cols)), shape=shape, dtype=dtype)
    out.eliminate_zeros()
    return out


@tile_rule(SparseIntegers)
def _tile_sparse_integers(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, SparseIntegers)
    blocks = [len(axis) for axis in op.nsplits]
    grid = key_grid(node.key, blocks)
    for index in itertools.product(*(range(n) for n in blocks)):
        shape = (int(op.nsplits[0][index[0]]), int(op.nsplits[1][index[1]]))
        ctx.new_task(
            grid[index],
            sparse_integers_chunk,
            op.seed,
            flat_index(index, blocks),
            shape,
            op.low,
            op.high,
            op.density,
            node.dtype,
        )
    return Tiled(op.nsplits, grid)


def sparse_randint(
    next_seed: Callable[[], RandomStateField],
    low: Any,
    high: Any,
    size: Any,
    dtype: np.dtype[Any],
    density: Any,
    chunk_size: Any,
) -> Tensor:
    """``randint`` with ``density``: checked here, with NumPy's errors for the bounds;
    ``next_seed`` is called once every check has passed."""
    if not isinstance(density, numbers.Real):
        raise TypeError(f"randint(): density must be a number in [0, 1], got {density!r}")
    if not 0.0 <= float(density) <= 1.0:
        raise ValueError(f"randint(): density must be in [0, 1], got {density!r}")
    if isinstance(low, Tensor) or isinstance(high, Tensor) or not np.isscalar(low):
        raise TypeError("randint(): with density, low and high must be scalars")
    if high is None:
        low, high = 0, low
    checking_generator().integers(low, high, dtype=dtype)  # NumPy's errors for the bounds
    shape = normalize_shape(size if size is not None else ())
    if len(shape) != 2:
        raise ValueError(f"randint(): density needs a 2-d size, got {size!r}")
    nsplits = nsplits_for(shape, chunk_size, dtype)
    op = SparseIntegers(next_seed(), int(low), int(high), float(density), nsplits)
    return new_tensor(op, [], shape, dtype, sparse=True)
