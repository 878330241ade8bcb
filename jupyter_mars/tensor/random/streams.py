"""Seeds and the per-chunk random streams of ``mt.random``.

A ``RandomState`` gives every random tensor one integer seed (``draw_seed``). Chunk ``i``
of the tensor (its flat index in the chunk grid, C order) draws from its own stream::

    np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(i,))))

so the chunks are independent and the same seed with the same chunk layout always gives
the same numbers, whatever the order or the thread the chunks run in. Operators that need
one draw over the whole tensor (``permutation``, ``choice`` without replacement) use the
node's own stream, ``SeedSequence(seed)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NewType

import numpy as np

SEED_HIGH = 2**63 - 1
"""Seeds of random tensors are drawn from ``[0, SEED_HIGH)``."""

RandomStateField = NewType("RandomStateField", int)
"""The type of the field through which a random operator holds its random state.

Mars stores a whole ``numpy.random.RandomState`` state on each random operator (a
``RandomStateField``); here that state is one integer seed, from which every chunk's
stream is derived, so the field is an ``int`` (``RandomStateField(s)`` is ``s``).
"""


def draw_seed(source: np.random.RandomState) -> RandomStateField:
    """The seed of the next random tensor, taken from the seed source of a ``RandomState``."""
    return RandomStateField(int(source.randint(0, SEED_HIGH, dtype=np.int64)))


def chunk_generator(seed: int, index: int | None) -> np.random.Generator:
    """The generator of chunk ``index`` of a random node (``None``: the node's own stream,
    used by operators that need one global draw, such as ``permutation``)."""
    key = () if index is None else (index,)
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=key)))


def flat_index(index: tuple[int, ...], numblocks: Sequence[int]) -> int:
    """The stream number of chunk ``index``: its position in the grid, in C order."""
    return int(np.ravel_multi_index(index, tuple(numblocks))) if index else 0


def checking_generator() -> np.random.Generator:
    """A throwaway generator, for letting NumPy check parameters in the client (one small
    draw) with its own error messages."""
    return np.random.Generator(np.random.PCG64(0))
