"""Comparing ``mt.stats`` results with SciPy's, field by field, dtypes included."""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.conftest import assert_same

RNG = np.random.default_rng(11)


def assert_result(result: Any, expected: Any, extras: tuple[str, ...] = (), **kwargs: Any) -> None:
    """An executed result tuple equals SciPy's: unpacked fields, then named extras."""
    assert type(result).__name__ == type(expected).__name__
    assert len(result) == len(expected)
    result.execute()
    for got, want in zip(result, expected):
        assert_same(got, want, **kwargs)
    for name in extras:
        assert_same(getattr(result, name), getattr(expected, name), **kwargs)
