"""The ``.str``, ``.dt``, ``.cat``, ``.list`` and ``.struct`` accessors of lazy Series,
and ``as_category``.

Importing this package attaches the accessors to ``Series`` as properties. Each method
is one pandas call per row chunk; the result's meta comes from the same call on a small
non-empty sample of the input's dtype (pandas gives some results another dtype when
there are no rows), and a chunk of no rows gives that meta.
"""

from __future__ import annotations

from typing import Any

from jupyter_mars.dataframe.accessors.category import CategoryMethods, as_category
from jupyter_mars.dataframe.accessors.datetimes import DatetimeMethods
from jupyter_mars.dataframe.accessors.nested import ListMethods, StructMethods
from jupyter_mars.dataframe.accessors.strings import StringMethods
from jupyter_mars.dataframe.core import Series

_ACCESSORS: dict[str, Any] = {
    "str": property(StringMethods),
    "dt": property(DatetimeMethods),
    "cat": property(CategoryMethods),
}
for _attr, _value in _ACCESSORS.items():
    setattr(Series, _attr, _value)

__all__ = [
    "CategoryMethods",
    "DatetimeMethods",
    "ListMethods",
    "StringMethods",
    "StructMethods",
    "as_category",
]
