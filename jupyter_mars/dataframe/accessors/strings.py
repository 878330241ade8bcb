"""``Series.str``: pandas' vectorised string methods, one pandas call per row chunk.

Every method keeps the rows, so it is ``chunk.str.<method>(...)`` on each chunk. Two
need the whole column first:

- ``split``/``rsplit`` with ``expand=True`` give as many columns as the most pieces any
  row has; that width is computed at build time by a small reduction (executed then),
  and every chunk is widened to it with missing values, as pandas pads short rows;
- ``cat()`` with no ``others`` joins the whole column into one string: a tree reduction
  whose partials are ``(pieces, joined)`` so that chunks with nothing to join vanish.

``.str`` on a Series whose dtype holds no strings raises AttributeError at once, as
pandas does.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.config import options
from jupyter_mars.dataframe.accessors._call import map_accessor, meta_from_sample
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.node import FrameNode
from jupyter_mars.dataframe.reduction.build import series_reduce
from jupyter_mars.engine.node import Node
from jupyter_mars.engine.primitives.reduction import Reduction
from jupyter_mars.tensor.core import Tensor

ROW_METHODS = (
    "lower upper casefold swapcase title capitalize strip lstrip rstrip len contains "
    "startswith endswith replace slice slice_replace get zfill pad center ljust rjust find "
    "rfind index rindex count match fullmatch repeat normalize wrap removeprefix "
    "removesuffix translate join findall partition rpartition extract encode decode "
    "isalnum isalpha isdigit isspace islower isupper istitle isnumeric isdecimal"
).split()
"""Methods that map each row to one value (or, for ``partition`` and ``extract``, to a
row of a known number of columns)."""


def sample_strings(meta: pd.Series) -> pd.Series:
    """A one-row Series of ``meta``'s dtype holding a string, to work out result metas."""
    dtype = meta.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        dtype = np.dtype(object)
    return pd.Series(["a"], dtype=dtype, name=meta.name)


class StringMethods:
    """The ``.str`` accessor of a lazy Series."""

    def __init__(self, series: Any) -> None:
        series.meta.str  # noqa: B018 - AttributeError for non-string data, as pandas
        self._series = series
        self._sample = sample_strings(series.meta)

    def _rows(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        return map_accessor(self._series, self._sample, "str", name, True, args, kwargs)

    def __getitem__(self, key: int | slice) -> Any:
        """The character (or slice) at ``key`` of each string, as ``str.get``/``str.slice``."""
        return self._rows("__getitem__", (key,), {})

    def split(
        self, pat: Any = None, *, n: int = -1, expand: bool = False, regex: Any = None
    ) -> Any:
        """Split each string at ``pat``: lists, or with ``expand`` a DataFrame."""
        return self._split("split", pat, n, expand, regex)

    def rsplit(self, pat: Any = None, *, n: int = -1, expand: bool = False) -> Any:
        """Split each string at ``pat`` from the right."""
        return self._split("rsplit", pat, n, expand, None)

    def _split(self, how: str, pat: Any, n: int, expand: bool, regex: Any) -> Any:
        kwargs: dict[str, Any] = {"n": n}
        if how == "split":
            kwargs["regex"] = regex
        if not expand:
            return self._rows(how, (pat,), kwargs)
        width = _split_width(self._series, how, pat, kwargs)
        sample = self._sample
        expanded = {**kwargs, "expand": True}
        meta = meta_from_sample(sample, sample.index[:0], "str", how, True, (pat,), expanded)
        dtype = meta.dtypes.iloc[0] if meta.shape[1] else sample.dtype
        out_meta = pd.DataFrame(
            {j: pd.Series([], dtype=dtype) for j in range(width)}, index=self._series.meta.index
        )
        return map_chunks(
            split_to_width,
            [self._series],
            (Slot(0), how, pat, kwargs, width, out_meta),
            out_meta,
            name=f"str.{how}",
        )

    def get_dummies(self, sep: str = "|", dtype: Any = None) -> Any:
        """One column per token found in the whole column (found now, by a small job),
        sorted as pandas sorts them; 1 where a row holds the token."""
        sample = self._sample.str.get_dummies(sep=sep, dtype=dtype)  # pandas checks them
        column_dtype = sample.dtypes.iloc[0]
        tokens_meta = pd.Series([], dtype=object)
        found = map_chunks(
            chunk_tokens, [self._series], (Slot(0), sep), tokens_meta, keeps_rows=False
        )
        tokens = pd.Index(sorted(set(found.to_pandas())))
        meta = pd.DataFrame(
            {t: pd.Series([], dtype=column_dtype) for t in tokens}, index=self._series.meta.index
        ).set_axis(tokens, axis=1)
        args = (Slot(0), sep, dtype, meta)
        return map_chunks(dummies_of, [self._series], args, meta, name="str.get_dummies")

    def cat(
        self, others: Any = None, sep: str | None = None, na_rep: Any = None, join: str = "left"
    ) -> Any:
        """With no ``others``: every string joined with ``sep`` into one (a 0-d tensor)."""
        if others is not None:
            raise NotImplementedError("str.cat with others: concatenate with + instead")
        self._sample.str.cat(sep=sep, na_rep=na_rep)  # pandas checks sep and na_rep
        joiner = StringJoin("" if sep is None else sep, na_rep)
        op = Reduction(
            chunk=joiner.chunk,
            combine=joiner.combine,
            aggregate=joiner.aggregate,
            axis=(0,),
            keepdims=False,
            combine_size=options.combine_size,
            name="str.cat",
        )
        node = self._series.node
        assert isinstance(node, FrameNode)
        out = Tensor(Node(op, [node], (), np.dtype(object)))
        if options.eager_mode:
            out.execute()
        return out


def _row_method(name: str) -> Callable[..., Any]:
    def method(self: StringMethods, *args: Any, **kwargs: Any) -> Any:
        return self._rows(name, args, kwargs)

    method.__name__ = name
    method.__doc__ = f"``Series.str.{name}`` on every row chunk."
    return method


for _name in ROW_METHODS:
    setattr(StringMethods, _name, _row_method(_name))


def chunk_tokens(chunk: pd.Series, sep: str) -> pd.Series:
    """The distinct tokens of a chunk's strings, as pandas' ``get_dummies`` splits them."""
    present = chunk.dropna()
    if present.empty:  # pandas 3 raises for a str chunk of missing values only
        return pd.Series([], dtype=object)
    return pd.Series(list(present.str.get_dummies(sep=sep).columns), dtype=object)


def dummies_of(chunk: pd.Series, sep: str, dtype: Any, meta: pd.DataFrame) -> pd.DataFrame:
    """``chunk.str.get_dummies`` with the whole column's tokens as columns."""
    if chunk.notna().any():
        found = chunk.str.get_dummies(sep=sep, dtype=dtype)
    else:  # no token in the chunk (and pandas 3 raises for a str chunk of missing values)
        found = pd.DataFrame(index=chunk.index)
    out = found.reindex(columns=meta.columns, fill_value=0).astype(meta.dtypes.to_dict())
    return out.set_axis(meta.columns, axis=1)


def count_pieces(chunk: pd.Series, how: str, pat: Any, kwargs: dict[str, Any]) -> pd.Series:
    """Pieces per row after a split; a missing row counts as one (one missing column)."""
    lists = getattr(chunk.str, how)(pat, **kwargs)
    pieces = [len(x) if isinstance(x, list) else 1 for x in lists]
    return pd.Series(pieces, index=chunk.index, dtype=np.float64)


def _split_width(series: Any, how: str, pat: Any, kwargs: dict[str, Any]) -> int:
    """The number of columns a split with ``expand=True`` gives: executed now."""
    meta = pd.Series([], dtype=np.float64, index=series.meta.index)
    pieces = map_chunks(count_pieces, [series], (Slot(0), how, pat, kwargs), meta, name="pieces")
    most = float(series_reduce(pieces, "max", None, True, False).to_numpy())
    return 0 if math.isnan(most) else int(most)


def split_to_width(
    chunk: pd.Series, how: str, pat: Any, kwargs: dict[str, Any], width: int, meta: Any
) -> pd.DataFrame:
    """``chunk.str.<how>(expand=True)`` with ``width`` columns, missing where short."""
    if len(chunk) == 0:
        return meta.set_axis(chunk.index)
    out = getattr(chunk.str, how)(pat, expand=True, **kwargs)
    if out.shape[1] == width:
        return out
    # pandas pads short rows with None and fills missing rows with their missing value
    missing = chunk.isna().to_numpy()
    first = (
        out.iloc[:, 0].to_numpy(dtype=object)
        if out.shape[1]
        else np.full(len(chunk), None, dtype=object)
    )
    for j in range(out.shape[1], width):
        values = np.full(len(chunk), None, dtype=object)
        values[missing] = first[missing]
        out[j] = pd.Series(values, index=out.index, dtype=meta.dtypes.iloc[j])
    return out


class StringJoin:
    """Kernels of ``str.cat()``: partials are ``(number of pieces, joined string)``."""

    def __init__(self, sep: str, na_rep: Any) -> None:
        self.sep = sep
        self.na_rep = na_rep

    def chunk(self, block: pd.Series, axis: Any = None, keepdims: bool = True) -> Any:
        values = block if self.na_rep is not None else block.dropna()
        if not len(values):
            return (0, "")
        return (len(values), values.str.cat(sep=self.sep, na_rep=self.na_rep))

    def combine(self, parts: list[Any], axis: Any = None) -> Any:
        kept = [p for p in parts if p[0]]
        return (sum(p[0] for p in kept), self.sep.join(p[1] for p in kept))

    def aggregate(self, part: Any, axis: Any = None, keepdims: bool = False) -> Any:
        return part[1]
