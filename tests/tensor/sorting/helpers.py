"""Shared by the sorting tests: random data with ties and NaNs, executed chunk lengths."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st

import jupyter_mars.tensor as mt

RNG = np.random.default_rng(42)


def awkward_floats(shape: tuple[int, ...], dup: bool = True) -> np.ndarray:
    """Floats with many duplicates and a few NaNs (the awkward cases for a sample sort)."""
    a = RNG.integers(0, 5 if dup else 1000, size=shape).astype(float)
    if a.size > 3:
        a.flat[RNG.choice(a.size, 2, replace=False)] = np.nan
    return a


def executed_nsplits(session: Any, t: mt.Tensor) -> tuple[tuple[float, ...], ...]:
    """The chunk lengths ``t`` was executed with."""
    nsplits: tuple[tuple[float, ...], ...] = session.engine.executed[t.key].nsplits
    return nsplits


@st.composite
def arrays_and_chunks(draw: Any, max_ndim: int = 3) -> tuple[np.ndarray, tuple[int, ...]]:
    ndim = draw(st.integers(1, max_ndim))
    shape = tuple(draw(st.lists(st.integers(0, 7), min_size=ndim, max_size=ndim)))
    chunks = tuple(draw(st.integers(1, max(n, 1))) for n in shape)
    values = RNG.integers(0, draw(st.integers(1, 20)), size=shape).astype(float)
    if values.size and draw(st.booleans()):
        values.flat[0] = np.nan
    return values, chunks
