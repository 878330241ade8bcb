"""``inplace=True`` for the methods that take it in pandas.

Frames are immutable, so "in place" means the handle is pointed at the result's node; the
method returns what pandas 3.1 returns (None, or the frame itself where pandas keeps
``inplace``) and warns where pandas deprecates ``inplace``. Other handles on the same
data (``df.copy()``, a variable bound before the call) keep the old frame. Each method
is wrapped here once, after the modules that define it have attached it, so they need
not know of ``inplace``.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any

import pandas as pd

import jupyter_mars.dataframe.arithmetic
import jupyter_mars.dataframe.filters
import jupyter_mars.dataframe.interpolate
import jupyter_mars.dataframe.labels
import jupyter_mars.dataframe.missing
import jupyter_mars.dataframe.replace
import jupyter_mars.dataframe.set_index
import jupyter_mars.dataframe.sort
import jupyter_mars.dataframe.structure  # noqa: F401 - these attach the methods wrapped here
from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series
from jupyter_mars.dataframe.structure.common import sample_like

BOTH = (
    "bfill",
    "clip",
    "drop",
    "drop_duplicates",
    "dropna",
    "ffill",
    "fillna",
    "interpolate",
    "mask",
    "rename",
    "rename_axis",
    "replace",
    "reset_index",
    "sort_index",
    "sort_values",
    "where",
)
"""Methods of DataFrame and Series that take ``inplace`` in pandas."""

FRAME_ONLY = ("set_index",)

DEPRECATED = frozenset(
    {"drop", "dropna", "drop_duplicates", "rename", "rename_axis", "reset_index"}
    | {"set_index", "sort_index", "sort_values"}
)
"""Methods whose ``inplace`` pandas 3.1 deprecates: passing it warns, as in pandas, and
``inplace=True`` returns None; the others return the frame itself."""

_NOT_GIVEN: Any = pd.api.extensions.no_default


def warn_deprecated(frame: FrameBase, method: str) -> None:
    """pandas' warning for ``inplace`` given to ``method``."""
    warnings.warn(
        f"The inplace keyword in {type(frame).__name__}.{method} is deprecated and will be "
        "removed in a future version (PDEP-8).",
        pd.errors.Pandas4Warning,
        stacklevel=3,
    )


def check_on_sample(
    frame: FrameBase, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    """pandas writes these results into the frame's own arrays, so a value that needs
    another dtype raises TypeError instead of widening the column: the same call on two
    rows of the frame's dtypes raises it now."""
    rows = pd.RangeIndex(2)

    def sampled(arg: Any) -> Any:
        return sample_like(arg.meta, rows) if isinstance(arg, FrameBase) else arg

    sample = sample_like(frame.meta, rows)
    call_args = tuple(sampled(a) for a in args)
    call_kwargs = {k: sampled(v) for k, v in kwargs.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            getattr(sample, name)(*call_args, inplace=True, **call_kwargs)
        except (ValueError, KeyError, IndexError, AttributeError):
            return  # not about dtypes: the real call reports these


def _returns_self(
    name: str, frame: FrameBase, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> bool:
    """What pandas 3.1 returns from ``inplace=True``: the frame itself where it keeps
    ``inplace``, and from a Series renamed by a scalar (a new name); None elsewhere."""
    if name not in DEPRECATED:
        return True
    if name == "rename" and isinstance(frame, Series) and "index" not in kwargs:
        new = args[0] if args else kwargs.get("mapper")
        return not (callable(new) or isinstance(new, dict | pd.Series))
    return False


def in_place(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    """``method`` taking ``inplace``: when true, the handle takes the result."""

    @functools.wraps(method)
    def call(self: FrameBase, *args: Any, inplace: Any = _NOT_GIVEN, **kwargs: Any) -> Any:
        if inplace is _NOT_GIVEN:
            return method(self, *args, **kwargs)
        if name in DEPRECATED:
            warn_deprecated(self, name)
        if not isinstance(inplace, bool):
            raise ValueError(
                f'For argument "inplace" expected type bool, received type '
                f"{type(inplace).__name__}."
            )
        result = method(self, *args, **kwargs)
        if not inplace:
            return result
        if type(result) is not type(self):
            raise TypeError(
                f"Cannot {name} inplace on a {type(self).__name__} to create a "
                f"{type(result).__name__}"
            )
        if name not in DEPRECATED:
            check_on_sample(self, name, args, kwargs)
        self._node = result._node
        return self if _returns_self(name, self, args, kwargs) else None

    return call


def _attach() -> None:
    for cls, names in ((DataFrame, BOTH + FRAME_ONLY), (Series, BOTH)):
        for name in names:
            setattr(cls, name, in_place(name, getattr(cls, name)))


_attach()
