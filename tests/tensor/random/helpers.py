"""Helpers of the ``mt.random`` tests: fetching, seeds, the documented stream scheme."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import normalize_chunk_size, offsets
from jupyter_mars.tensor.random import distributions

N = 100_000


def fetch(t: Any) -> Any:
    return t.execute().fetch()


def seed_of(t: Any) -> int:
    op = t.op
    assert isinstance(op, distributions.RandomChunks)
    return op.seed


def expected_chunks(
    seed: int, method: str, shape: tuple[int, ...], chunk_size: Any, *args: Any, **kwargs: Any
) -> Any:
    """The documented scheme: chunk i draws from SeedSequence(seed, spawn_key=(i,))."""
    nsplits = normalize_chunk_size(shape, chunk_size, 8)
    out = np.empty(shape)
    starts = [offsets(axis) for axis in nsplits]
    grid = [len(axis) for axis in nsplits]
    for flat, index in enumerate(itertools.product(*(range(n) for n in grid))):
        gen = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(flat,))))
        region = tuple(slice(starts[a][i], starts[a][i + 1]) for a, i in enumerate(index))
        out[region] = getattr(gen, method)(*args, size=out[region].shape, **kwargs)
    return out
