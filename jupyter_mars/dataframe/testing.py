"""``md.testing``: pandas' assertions (``pandas.testing``), taking lazy objects too.

A lazy DataFrame, Series or Index given to one of them is executed and compared as the
pandas object it computes, so a test written for pandas passes unchanged with ``md``
results; pandas' objects are compared as they are.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pandas.testing

from jupyter_mars.dataframe.core import FrameBase

__all__ = [
    "assert_extension_array_equal",
    "assert_frame_equal",
    "assert_index_equal",
    "assert_series_equal",
]


def _computed(value: Any) -> Any:
    return value.to_pandas() if isinstance(value, FrameBase) else value


def _taking_lazy(check: Callable[..., None]) -> Callable[..., None]:
    @functools.wraps(check)
    def call(left: Any, right: Any, *args: Any, **kwargs: Any) -> None:
        __tracebackhide__ = True  # noqa: F841 - pytest shows the failure in the caller
        check(_computed(left), _computed(right), *args, **kwargs)

    return call


assert_extension_array_equal = _taking_lazy(pandas.testing.assert_extension_array_equal)
assert_frame_equal = _taking_lazy(pandas.testing.assert_frame_equal)
assert_index_equal = _taking_lazy(pandas.testing.assert_index_equal)
assert_series_equal = _taking_lazy(pandas.testing.assert_series_equal)
