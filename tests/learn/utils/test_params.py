"""Single arguments checked with the messages of scikit-learn's parameter validation."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from sklearn.datasets import make_regression

from jupyter_mars.learn.utils.params import check_bool, check_int, check_real


def test_good_values_come_back_as_their_type() -> None:
    assert check_int(np.int64(3), "n", "f", 1) == 3
    with pytest.raises(ValueError, match="The 'n' parameter of f must be an int"):
        check_int(True, "n", "f", 1)  # a bool is no count
    assert check_real(1, "x", "f", 0.0, 1.0) == 1.0
    assert check_bool(np.bool_(True), "flag", "f") is True


@pytest.mark.parametrize(
    ("value", "check", "message"),
    [
        (0, lambda v: check_int(v, "n_samples", "make_regression", 1), "an int in the range"),
        (-1.0, lambda v: check_real(v, "noise", "make_regression", 0.0), "a float in the range"),
        ("yes", lambda v: check_bool(v, "shuffle", "make_regression"), "an instance of 'bool'"),
    ],
)
def test_bad_values_are_refused_as_scikit_learn_refuses_them(
    value: Any, check: Any, message: str
) -> None:
    name = "n_samples" if "int" in message else "noise" if "float" in message else "shuffle"
    with pytest.raises(ValueError, match=f"The '{name}' parameter of make_regression must be"):
        make_regression(**{name: value})
    with pytest.raises(ValueError, match=f"The '{name}' parameter of make_regression must be "):
        check(value)
    with pytest.raises(ValueError, match=message):
        check(value)
