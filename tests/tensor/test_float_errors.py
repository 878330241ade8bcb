"""``mt.errstate``/``seterr``: the setting where an operation is built governs its chunks."""

from __future__ import annotations

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings


def test_raise_set_at_build_applies_when_executed_later() -> None:
    for chunks in chunkings((4,)):
        x = mt.tensor([1.0, 2.0, 0.0, -1.0], chunk_size=chunks)
        with mt.errstate(divide="raise"):
            y = x / 0
        with pytest.raises(FloatingPointError, match="divide by zero"):
            y.execute()


def test_ignore_set_at_build_applies_when_executed_later() -> None:
    a = np.array([1.0, -1.0, 0.0])
    with mt.errstate(all="ignore"):
        y = mt.tensor(a, chunk_size=2) / 0
        expected = a / 0
    assert_same(y, expected)  # no RuntimeWarning, which this suite turns into an error


def test_setting_at_execute_time_does_not_change_a_built_operation() -> None:
    with mt.errstate(all="ignore"):
        y = mt.sqrt(mt.tensor([-1.0, 4.0]))
    with mt.errstate(invalid="raise"):
        got = y.execute().fetch()
    assert np.isnan(got[0])
    assert got[1] == 2.0


def test_seterr_governs_operations_built_after_it() -> None:
    old = mt.seterr(over="raise")
    try:
        assert mt.geterr()["over"] == "raise"
        y = mt.exp(mt.tensor([1000.0]))
    finally:
        mt.seterr(**old)
    with pytest.raises(FloatingPointError, match="overflow"):
        y.execute()


def test_each_fused_operation_keeps_its_own_setting() -> None:
    x = mt.tensor([0.0, 1.0])
    with mt.errstate(divide="ignore"):
        y = 1 / x
    z = y + 1  # built under NumPy's default, which has nothing to report here
    assert_same(z, [np.inf, 2.0])
