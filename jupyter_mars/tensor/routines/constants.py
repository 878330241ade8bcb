"""NumPy's constants, scalar types and type helpers, re-exported as Mars does.

These are NumPy's own objects (``mt.float64 is np.float64``), so they mix freely with
NumPy code. Where NumPy 2 dropped a name Mars re-exports, it is the object the name
stood for: ``Inf``/``NaN``/``NAN``/``NINF`` are the floats, ``cfloat`` is ``complex128``
and ``unicode_`` is ``str_``. ``mt.bool``, ``mt.int``, ``mt.float`` and ``mt.object``
are Python's built-in types, as Mars has them (NumPy's aliases at the time); as dtypes
they mean ``bool_``, ``int_``, ``float64`` and ``object_``.
"""

from __future__ import annotations

import builtins

import numpy as np

from jupyter_mars.session import ExecutableTuple as ExecutableTuple

AxisError = np.exceptions.AxisError

# mypy 2.4, reading XGBoost's or LightGBM's typed sources, takes ``e`` for a deleted name
# when its cache is fresh, and not when it is warm: both are silenced here
e = np.e  # type: ignore[misc, unused-ignore]
pi = np.pi
inf = np.inf
Inf = np.inf
NINF = -np.inf
nan = np.nan
NaN = np.nan
NAN = np.nan
newaxis = np.newaxis

dtype = np.dtype
finfo = np.finfo
number = np.number
inexact = np.inexact
floating = np.floating
complexfloating = np.complexfloating
integer = np.integer
signedinteger = np.signedinteger
unsignedinteger = np.unsignedinteger
character = np.character
generic = np.generic
flexible = np.flexible
bytes_ = np.bytes_
unicode_ = np.str_
void = np.void
intc = np.intc
intp = np.intp
int8 = np.int8
int16 = np.int16
int32 = np.int32
int64 = np.int64
uint = np.uint
uint8 = np.uint8
uint16 = np.uint16
uint32 = np.uint32
uint64 = np.uint64
float16 = np.float16
float32 = np.float32
float64 = np.float64
double = np.double
cfloat = np.complex128
complex64 = np.complex64
complex128 = np.complex128
datetime64 = np.datetime64
timedelta64 = np.timedelta64

# Python's types, as Mars re-exported them from NumPy versions where np.bool was bool
bool = builtins.bool  # noqa: A001
int = builtins.int  # noqa: A001
float = builtins.float  # noqa: A001
object = builtins.object  # noqa: A001

__all__ = [
    "NAN",
    "NINF",
    "AxisError",
    "ExecutableTuple",
    "Inf",
    "NaN",
    "bool",
    "bytes_",
    "cfloat",
    "character",
    "complex64",
    "complex128",
    "complexfloating",
    "datetime64",
    "double",
    "dtype",
    "e",
    "finfo",
    "flexible",
    "float",
    "float16",
    "float32",
    "float64",
    "floating",
    "generic",
    "inexact",
    "inf",
    "int",
    "int8",
    "int16",
    "int32",
    "int64",
    "intc",
    "integer",
    "intp",
    "nan",
    "newaxis",
    "number",
    "object",
    "pi",
    "signedinteger",
    "timedelta64",
    "uint",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "unicode_",
    "unsignedinteger",
    "void",
]
