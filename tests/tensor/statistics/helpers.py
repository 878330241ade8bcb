"""Shared by the statistics tests: the random generator and executed chunk lengths."""

from __future__ import annotations

from typing import Any

import numpy as np

import jupyter_mars.tensor as mt

RNG = np.random.default_rng(7)
METHODS = ["linear", "lower", "higher", "nearest", "midpoint"]


def executed_nsplits(session: Any, t: mt.Tensor) -> tuple[tuple[float, ...], ...]:
    """The chunk lengths ``t`` was executed with."""
    nsplits: tuple[tuple[float, ...], ...] = session.engine.executed[t.key].nsplits
    return nsplits
