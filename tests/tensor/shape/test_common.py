"""The tensor package's one axis check, against NumPy's own."""

from __future__ import annotations

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.tensor.shape.common import check_axis


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3, np.int64(1), np.array(2)])
def test_in_range_axes_are_made_non_negative(axis: object) -> None:
    assert check_axis(axis, 3) == np.lib.array_utils.normalize_axis_index(axis, 3)


def test_out_of_range_raises_numpys_axis_error() -> None:
    with pytest.raises(np.exceptions.AxisError, match="^axis 3 is out of bounds"):
        check_axis(3, 3)
    with pytest.raises(np.exceptions.AxisError, match="^source: axis -4 is out of bounds"):
        check_axis(-4, 3, "source")  # named where the argument is not ``axis``, as NumPy


@pytest.mark.parametrize("axis", [True, np.bool_(False), 1.0, "0", None])
def test_non_integers_name_the_argument_and_what_it_takes(axis: object) -> None:
    with pytest.raises(TypeError, match="^axis must be an int or None, got"):
        check_axis(axis, 2, expected="an int or None")


def test_every_family_checks_the_same_way() -> None:
    """Reductions, sorting, take, fft and moveaxis raise the same errors for one bad axis."""
    a = mt.ones((2, 3))
    for call in (
        lambda: a.sum(axis=2),
        lambda: mt.sort(a, axis=2),
        lambda: mt.take(a, [0], axis=2),
        lambda: mt.fft.fft(a, axis=2),
        lambda: a.argmax(axis=2),
    ):
        with pytest.raises(np.exceptions.AxisError, match="^axis 2 is out of bounds"):
            call()
    with pytest.raises(np.exceptions.AxisError):
        np.sum(np.ones((2, 3)), axis=2)
