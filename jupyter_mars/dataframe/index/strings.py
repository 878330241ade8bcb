"""``Index.str``: pandas' string methods on a lazy Index.

Each method is one pandas call per chunk, with the meta from the same call on a
one-row sample (pandas types some results of an empty index otherwise). Methods that
pandas answers with a NumPy array (``contains``, ``startswith``...) give lazy tensors,
as ``Index.isin`` does. Two need the whole index: ``split``/``rsplit`` with
``expand=True`` (the MultiIndex is as wide as the most pieces in any row) run in one
task, and ``cat()`` with no ``others`` (one joined string) is computed and fetched.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.accessors.strings import sample_strings
from jupyter_mars.dataframe.conversion import to_tensor
from jupyter_mars.dataframe.core import Index
from jupyter_mars.dataframe.index._calls import BOX_META
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks, one_chunk
from jupyter_mars.dataframe.node import empty_like


def str_call(chunk: pd.Index, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``chunk.str.name(*args, **kwargs)``; a NumPy result as an Index, so it travels."""
    out = getattr(chunk.str, name)(*args, **kwargs)
    return pd.Index(out) if isinstance(out, np.ndarray) else out


class IndexStringMethods:
    """The ``.str`` accessor of a lazy Index."""

    def __init__(self, index: Index) -> None:
        index.meta.str  # noqa: B018 - AttributeError for non-string data, as pandas
        self._index = index

    def _sample(self) -> pd.Index:
        meta = self._index.meta
        return pd.Index(sample_strings(pd.Series(meta[:0])).array, name=meta.name)

    def _call(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        index = self._index
        if name == "cat" and kwargs.get("others") is None and not args:
            # one string of the whole index: joined on the workers, fetched
            joined = map_chunks(
                boxed_str_call,
                [one_chunk(index)],
                (Slot(0), name, args, kwargs),
                BOX_META,
                name="str.cat",
                keeps_rows=False,
            )
            return joined.to_pandas()[0]
        sample_out = getattr(self._sample().str, name)(*args, **kwargs)
        array = isinstance(sample_out, np.ndarray)
        meta = pd.Index(sample_out[:0]) if array else empty_like(sample_out)
        whole_index = name in ("split", "rsplit") and kwargs.get("expand", False)
        mapped = map_chunks(
            str_call,
            [one_chunk(index) if whole_index else index],
            (Slot(0), name, args, kwargs),
            meta,
            name=f"str.{name}",
            keeps_rows=not whole_index,
        )
        return to_tensor(mapped) if array else mapped

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or not hasattr(pd.core.strings.accessor.StringMethods, name):
            raise AttributeError(f"'StringMethods' object has no attribute {name!r}")

        def method(*args: Any, **kwargs: Any) -> Any:
            return self._call(name, args, kwargs)

        method.__name__ = name
        return method


def boxed_str_call(chunk: pd.Index, name: str, args: Any, kwargs: Any) -> pd.Index:
    box = np.empty(1, dtype=object)
    box[0] = getattr(chunk.str, name)(*args, **kwargs)
    return pd.Index(box, dtype=object)


_ACCESSORS: dict[str, Any] = {"str": property(IndexStringMethods)}
for _attr, _value in _ACCESSORS.items():
    setattr(Index, _attr, _value)
