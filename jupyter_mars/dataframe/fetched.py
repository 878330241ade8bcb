"""Methods that hand data back to Python: they fetch, as Mars does, then ask pandas.

``to_dict``, ``to_list``, ``to_records``, ``item``, ``equals``, ``factorize``,
``to_xarray``, ``array``, ``style`` and the plots return plain Python, NumPy or pandas
values, so the lazy object is executed in its session (the default one unless
``session=`` is given) and pandas' own method runs on the result: its values, dtypes and
exceptions are pandas'. (``iterrows``, ``itertuples`` and ``items`` fetch a batch at a time:
``iteration``.) Arguments that the metadata can check are checked before anything runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.core import DataFrame, FrameBase, Index, Series

FETCHED: dict[str, tuple[type[FrameBase], ...]] = {
    "to_dict": (DataFrame, Series),
    "to_list": (Series, Index),
    "tolist": (Series, Index),
    "to_records": (DataFrame,),
    "item": (Series, Index),
    "factorize": (Series, Index),
    "to_xarray": (DataFrame, Series),
    "hist": (DataFrame, Series),
    "boxplot": (DataFrame,),
}
"""Method -> the kinds it is attached to (those pandas has it on)."""

FETCHED_PROPERTIES: dict[str, tuple[type[FrameBase], ...]] = {
    "array": (Series, Index),
    "style": (DataFrame,),
    "plot": (DataFrame, Series),  # pandas' accessor: df.plot(...) and df.plot.bar(...)
}
"""Properties computed from the fetched data."""

META_CHECKS: dict[str, Callable[[Any, tuple[Any, ...], dict[str, Any]], None]] = {}
"""Method -> a check of its arguments on the meta, run before anything is fetched."""


def _check_to_dict(meta: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    # pandas checks orient and into before it reads a value: the empty meta says the same
    meta.to_dict(*args, **kwargs)


def _check_item(meta: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    if args or kwargs:
        raise TypeError(f"item() takes no arguments, got {len(args) + len(kwargs)}")


META_CHECKS["to_dict"] = _check_to_dict
META_CHECKS["to_records"] = _check_to_dict
META_CHECKS["item"] = _check_item


def fetched_method(name: str) -> Callable[..., Any]:
    """``name`` as a method: pandas' method of the fetched data."""

    def method(self: FrameBase, *args: Any, session: Any = None, **kwargs: Any) -> Any:
        check = META_CHECKS.get(name)
        if check is not None:
            check(self.meta, args, kwargs)
        return getattr(self.to_pandas(session=session), name)(*args, **kwargs)

    method.__name__ = name
    method.__doc__ = f"pandas' ``{name}`` of the data, executed and fetched first."
    return method


def fetched_property(name: str) -> property:
    def get(self: FrameBase) -> Any:
        return getattr(self.to_pandas(), name)

    return property(get, doc=f"pandas' ``{name}`` of the data, executed and fetched first.")


def _same_meta(a: Any, b: Any) -> bool:
    """What the metadata alone can tell ``equals``: the same kind, columns and dtypes."""
    if type(a) is not type(b):
        return False
    if isinstance(a, pd.DataFrame):
        return bool(a.columns.equals(b.columns) and a.dtypes.equals(b.dtypes))
    return bool(a.dtype == b.dtype)


def equals(self: FrameBase, other: Any) -> bool:
    """pandas' ``equals``: same shape, labels, dtypes and values (NaNs equal)."""
    if isinstance(other, FrameBase):
        if not _same_meta(self.meta, other.meta):
            return False
        other = other.to_pandas()
    return bool(self.to_pandas().equals(other))


def _attach() -> None:
    for name, kinds in FETCHED.items():
        for cls in kinds:
            setattr(cls, name, fetched_method(name))
    for name, kinds in FETCHED_PROPERTIES.items():
        for cls in kinds:
            setattr(cls, name, fetched_property(name))
    for cls in (DataFrame, Series, Index):
        setattr(cls, "equals", equals)  # noqa: B010 - attached like every other method


_attach()

__all__ = ["FETCHED", "equals", "fetched_method"]
