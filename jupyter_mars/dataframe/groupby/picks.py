"""Rows picked from groups: ``nth``, ``sample`` and ``get_group``.

``nth`` is pandas' own ``nth`` on each group's rows after the key shuffle
(``apply.shuffle_rows``, mode ``"select"``, as ``head`` and ``tail``): the picked rows go
back to their chunks and keep the grouped object's order and index, as in pandas.

``sample`` draws as pandas does, from the group of every row (computed when called):
pandas' draws depend on each group's size and on the draws of the groups before it.

``get_group(name)`` is a filter of each chunk on its keys; no shuffle is needed. pandas
raises ``KeyError`` for a group that is not there: the lengths of the filtered chunks are
only known once computed, so the check is a tile rule that waits for them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.core import new_frame
from jupyter_mars.dataframe.groupby.apply import shuffle_rows
from jupyter_mars.dataframe.groupby.core import GroupBy
from jupyter_mars.dataframe.groupby.keys import KeyItem, key_series
from jupyter_mars.dataframe.groupby.plan import map_to_unknown
from jupyter_mars.dataframe.selection import take_rows
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, tile_rule


def nth(self: GroupBy, n: Any, dropna: Any = None) -> Any:
    """pandas' grouped ``nth``: the ``n``-th rows (an int, a list of ints, a slice) of
    each group, in the grouped object's order and with its index."""
    meta = self._probe_gb(True).head(0)
    self._probe_gb(self.as_index).nth(n, dropna)  # pandas checks ``n`` and ``dropna`` here
    return shuffle_rows(self, "select", "nth", (n, dropna), {}, meta)


@dataclass(frozen=True)
class GroupFilter:
    """The rows of one group, and the columns selected."""

    keys: tuple[KeyItem, ...]
    values: tuple[Any, ...]
    selection: Any
    """A column label, a list of them, or None (all columns)."""

    def __call__(self, chunk: Any, *extra: Any) -> Any:
        mask = np.ones(len(chunk), dtype=bool)
        for key, value in zip(key_series(chunk, self.keys, extra), self.values, strict=True):
            hit = key.isna() if _is_missing(value) else key == value
            mask &= hit.to_numpy(dtype=bool, na_value=False)
        rows = chunk[mask]
        return rows if self.selection is None else rows[self.selection]


def _is_missing(value: Any) -> bool:
    return bool(pd.api.types.is_scalar(value) and pd.isna(value))


@dataclass(frozen=True, eq=False)
class RequireRows(Op):
    """Its input, unchanged; raises ``KeyError(name)`` when the input has no rows."""

    name: Any

    def label(self) -> str:
        return "require_rows"


@tile_rule(RequireRows)
def _tile_require_rows(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, RequireRows)
    (rows,) = inputs
    ctx.require_known(rows)
    if sum(int(n) for n in rows.nsplits[0]) == 0:
        raise KeyError(op.name)
    return rows


def get_group(self: GroupBy, name: Any) -> Any:
    """pandas' ``get_group``: the rows of group ``name`` (a tuple when grouping by a list),
    lazily; ``KeyError`` at execution when there is no such group."""
    by_list = isinstance(self._by, list) or isinstance(self._level, (list, tuple))
    if by_list or len(self._keys) > 1:
        if not isinstance(name, tuple) or len(name) != len(self._keys):
            raise KeyError(name)
        values = name
    else:
        values = (name,)
    if self._has_selection:
        selection = self._selection
    else:
        selection = None
    meta = self._obj.meta.iloc[:0]
    if selection is not None:
        meta = meta[selection]
    pick = GroupFilter(self._keys, tuple(values), selection)
    rows = map_to_unknown(pick, list(self._frames), (), meta, "get_group")
    return new_frame(RequireRows(name), [rows], math.nan, meta)


def sample(
    self: GroupBy,
    n: int | None = None,
    frac: float | None = None,
    replace: bool = False,
    weights: Any = None,
    random_state: Any = None,
) -> Any:
    """pandas' grouped ``sample``: the rows pandas picks for ``random_state``, in its order
    (group after group). The group of every row is computed when this is called
    (``ngroup``, executed); pandas then draws, on a stand-in holding only those group
    numbers, from each group's row positions in turn with one random state, and the rows
    are taken by position."""
    _check_draw(n, frac, replace, random_state)
    meta = self._probe_gb(True).head(0)
    if isinstance(weights, str) and isinstance(meta, pd.DataFrame) and weights in meta.columns:
        column: Any = self._obj
        weights = column[weights].to_pandas().to_numpy()  # a column: its values
    elif weights is not None and not isinstance(weights, (list, tuple, np.ndarray)):
        raise NotImplementedError("groupby sample: weights as a Series; pass a list or column")
    numbers = self.ngroup().to_pandas().to_numpy()
    stand_in = pd.Series(numbers, index=pd.RangeIndex(len(numbers)))
    drawn = stand_in.groupby(stand_in, sort=True, dropna=True).sample(
        n=n, frac=frac, replace=replace, weights=weights, random_state=random_state
    )
    positions = drawn.index.to_numpy(dtype=np.int64)
    obj: Any = self._obj
    if isinstance(meta, pd.Series):
        selected = obj if isinstance(obj.meta, pd.Series) else obj[meta.name]
    elif meta.columns.equals(obj.meta.columns):
        selected = obj
    else:
        selected = obj[list(meta.columns)]
    return take_rows(selected, positions)


_POPULATION = "larger sample than population"
"""pandas' complaint about a group too small for ``n``: a fact of the data, not of the call."""


def _check_draw(n: Any, frac: Any, replace: Any, random_state: Any) -> None:
    """pandas' errors for ``n``, ``frac`` and ``random_state`` themselves, before any data
    is computed: the same draw from a group of one row, where only the group's size may
    differ from the data's."""
    one = pd.Series([0])
    try:
        one.groupby(one).sample(n=n, frac=frac, replace=replace, random_state=random_state)
    except ValueError as error:
        if _POPULATION not in str(error):
            raise


def _attach() -> None:
    GroupBy.nth = nth  # type: ignore[attr-defined]
    GroupBy.sample = sample  # type: ignore[attr-defined]
    GroupBy.get_group = get_group  # type: ignore[attr-defined]


_attach()
