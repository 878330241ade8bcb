"""Checks of single arguments, raising the ``ValueError`` of scikit-learn's parameter
validation with its message (naming the argument and its owner): for the functions, and
the estimators that check their arguments one by one rather than by
``_parameter_constraints``.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

__all__ = ["check_bool", "check_int", "check_real"]


def check_int(value: Any, name: str, owner: str, low: int, also: str = "") -> int:
    """``value`` as an int of at least ``low``; a ``ValueError`` naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < low:
        raise ValueError(
            f"The '{name}' parameter of {owner} must be an int in the range [{low}, inf)"
            f"{also}. Got {value!r} instead."
        )
    return int(value)


def check_real(
    value: Any,
    name: str,
    owner: str,
    low: float | None = None,
    high: float | None = None,
    open_low: bool = False,
    also: str = "",
) -> float:
    """``value`` as a real number in ``[low, high]`` (``(low, high]`` with ``open_low``;
    None: no bound); a ``ValueError`` naming ``name``."""
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool)
    if ok and low is not None:
        ok = value > low if open_low else value >= low
    if ok and high is not None:
        ok = value <= high
    if not ok:
        where = ""
        if low is not None or high is not None:
            left = "(" if open_low or low is None else "["
            right = "inf)" if high is None else f"{float(high)}]"
            where = f" in the range {left}{'-inf' if low is None else float(low)}, {right}"
        raise ValueError(
            f"The '{name}' parameter of {owner} must be a float{where}{also}. "
            f"Got {value!r} instead."
        )
    return float(value)


def check_bool(value: Any, name: str, owner: str) -> bool:
    """``value`` as a bool (NumPy's too); a ``ValueError`` naming ``name``."""
    if not isinstance(value, bool | np.bool_):
        raise ValueError(
            f"The '{name}' parameter of {owner} must be an instance of 'bool' or an instance "
            f"of 'numpy.bool'. Got {value!r} instead."
        )
    return bool(value)
