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
    pairs = [*zip(result, expected), *((getattr(result, n), getattr(expected, n)) for n in extras)]
    for got, want in pairs:
        assert_same(got, want, **kwargs)
        if isinstance(want, np.generic):  # a scalar, not a 0-d array, as SciPy gives
            assert isinstance(got.fetch(), np.generic), type(got.fetch())
