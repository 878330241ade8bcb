"""The constants and scalar types are NumPy's objects, under Mars's names."""

from __future__ import annotations

import builtins
import math

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


MARS_NAMES = """
AxisError ExecutableTuple Inf NAN NINF NaN angle append ascontiguousarray asfortranarray block
bool broadcast_arrays bytes_ c_ cfloat character choose complex128 complex64 complexfloating
copy copyto datetime64 delete diagflat diff double dsplit dtype e ediff1d errstate
fill_diagonal finfo fix flexible float float16 float32 float64 floating generic geterr hsplit
i0 indices inexact inf insert int int16 int32 int64 int8 intc integer intp
iscomplex isreal lib mgrid nan nan_to_num ndim ndindex newaxis number object ogrid pi product
r_ result_type rollaxis round scalar setdiff1d seterr signedinteger sinc timedelta64 tree_add
tree_multiply uint uint16 uint32 uint64 uint8 unicode_ union1d unravel_index unsignedinteger
void vsplit
""".split()
"""Names of Mars's ``mars.tensor`` that this family provides (``innerproduct`` is
``linalg``'s)."""


def test_every_mars_name_of_this_family_is_exported() -> None:
    assert set(MARS_NAMES) <= set(mt.__all__)
    assert set(mt.routines.__all__) == set(MARS_NAMES)
