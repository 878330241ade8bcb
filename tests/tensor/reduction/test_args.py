"""Bad arguments raise NumPy's exception types when the function is called."""

from __future__ import annotations

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.tensor.reduction.helpers import ARG_REDUCTIONS, REDUCTIONS, SCANS

ALL_AXIS = REDUCTIONS + ["average"]


@pytest.mark.parametrize("name", ALL_AXIS + ARG_REDUCTIONS + SCANS)
def test_axis_out_of_range_raises_axis_error(name: str) -> None:
    t = mt.tensor(np.ones((2, 3)))
    for axis in (2, -3):
        with pytest.raises(np.exceptions.AxisError):
            getattr(mt, name)(t, axis=axis)


@pytest.mark.parametrize("name", ALL_AXIS)
def test_duplicate_axes_raise_value_error(name: str) -> None:
    t = mt.tensor(np.ones((2, 3)))
    with pytest.raises(ValueError, match="duplicate"):
        getattr(mt, name)(t, axis=(0, -2))


@pytest.mark.parametrize("name", ALL_AXIS + ARG_REDUCTIONS + SCANS)
def test_non_integer_axis_raises_type_error(name: str) -> None:
    t = mt.tensor(np.ones((2, 3)))
    with pytest.raises(TypeError):
        getattr(mt, name)(t, axis=1.0)


@pytest.mark.parametrize("name", ARG_REDUCTIONS + SCANS)
def test_single_axis_functions_reject_tuples(name: str) -> None:
    with pytest.raises(TypeError, match="axis"):
        getattr(mt, name)(mt.tensor(np.ones((2, 3))), axis=(0,))


def test_other_bad_arguments() -> None:
    t = mt.tensor(np.ones((2, 3), dtype=np.int8))
    with pytest.raises(TypeError, match="keepdims"):
        mt.sum(t, keepdims=None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="out"):
        mt.mean(t, out=np.empty(()))
    with pytest.raises(TypeError, match="where"):
        mt.sum(t, where=np.ones((2, 3), dtype=bool))
    with pytest.raises(TypeError, match="not understood"):
        mt.sum(t, dtype="foo")
    with pytest.raises(OverflowError):
        mt.max(t, initial=300)
    with pytest.raises(TypeError):
        mt.ptp(mt.tensor(np.ones(3, dtype=bool)))
    with pytest.raises(TypeError):
        mt.mean(mt.tensor(np.array(["a", "b"])))
    with pytest.raises(TypeError, match="out"):
        mt.cumsum(t, out=np.empty((2, 3)))
