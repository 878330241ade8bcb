"""The constants and scalar types are NumPy's objects, under Mars's names."""

from __future__ import annotations

import builtins
import json
import math
from pathlib import Path

import numpy as np
import pytest

import jupyter_mars
import jupyter_mars.tensor as mt


@pytest.mark.parametrize(
    "name",
    [
        "float16", "float32", "float64", "complex64", "complex128", "int8", "int16", "int32",
        "int64", "uint8", "uint16", "uint32", "uint64", "uint", "intc", "intp", "double",
        "bytes_", "void", "datetime64", "timedelta64", "number", "inexact", "floating",
        "complexfloating", "integer", "signedinteger", "unsignedinteger", "character",
        "generic", "flexible", "dtype", "finfo", "newaxis", "errstate", "seterr", "geterr",
    ],
)  # fmt: skip
def test_numpy_names_are_numpy_objects(name: str) -> None:
    assert getattr(mt, name) is getattr(np, name)


def test_names_numpy_2_dropped_keep_their_meaning() -> None:
    assert mt.cfloat is np.complex128
    assert mt.unicode_ is np.str_
    assert mt.AxisError is np.exceptions.AxisError
    assert math.isinf(mt.Inf)
    assert mt.Inf > 0
    assert mt.NINF == -np.inf
    assert mt.inf == np.inf
    assert all(math.isnan(v) for v in (mt.nan, mt.NaN, mt.NAN))
    assert (mt.e, mt.pi) == (np.e, np.pi)


def test_python_types_as_mars_has_them() -> None:
    assert (mt.bool, mt.int, mt.float, mt.object) == (
        builtins.bool,
        builtins.int,
        builtins.float,
        builtins.object,
    )
    assert mt.ones(2, dtype=mt.float).dtype == np.float64
    assert mt.ones(2, dtype=mt.bool).dtype == np.bool_


def test_executable_tuple_is_the_sessions() -> None:
    assert mt.ExecutableTuple is jupyter_mars.ExecutableTuple
    pair = mt.ExecutableTuple([mt.tensor([1, 2]), mt.tensor([3.0])])
    got = pair.execute().fetch()
    np.testing.assert_array_equal(got[0], [1, 2])
    np.testing.assert_array_equal(got[1], [3.0])


def test_every_mars_tensor_name_of_this_family_exists() -> None:
    reference = Path("/work/shared/reference/mars-public-api.json")
    if not reference.exists():
        pytest.skip("the reference list of Mars's names is not on this machine")
    names = json.loads(reference.read_text())["mars.tensor"]
    mine = set(mt.routines.__all__)
    assert mine <= set(names)
