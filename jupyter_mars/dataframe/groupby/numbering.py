"""``ngroup``: each row's group number.

Groups are numbered in key order (``sort=True``) or in the order they first appear
(``sort=False``). Each chunk lists its groups in their order of appearance (the group
sizes of ``transform.CumcountSpec``); the lists, in chunk order, meet in one chunk (a row
per group and chunk, as small as a transform's table), which numbers the distinct keys;
then every row chunk looks its keys up in the numbers (``transform.broadcast_rows``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.groupby.core import GroupBy
from jupyter_mars.dataframe.groupby.keys import probe
from jupyter_mars.dataframe.groupby.plan import map_to_unknown
from jupyter_mars.dataframe.groupby.transform import CumcountSpec, broadcast_rows
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks, one_chunk


def number_groups(sort: bool, ascending: bool, sizes: pd.Series) -> pd.Series:
    """Group numbers by key, from the groups' sizes listed chunk after chunk."""
    keys = sizes.index.drop_duplicates()
    if sort:
        keys = keys.sort_values()
    numbers = np.arange(len(keys), dtype=np.int64)
    return pd.Series(numbers if ascending else numbers[::-1], index=keys)


def ngroup(self: GroupBy, ascending: bool = True) -> Any:
    """pandas' ``ngroup``: the number of each row's group (NaN for a dropped key)."""
    meta = self._probe_gb(True).ngroup(ascending=ascending).iloc[:0]
    frames = list(self._frames)
    spec = CumcountSpec(self._keys, self.dropna, True)
    sizes_meta = spec.sizes(probe(frames[0].meta), *(probe(f.meta) for f in frames[1:]))
    sizes = map_to_unknown(spec.sizes, frames, (), sizes_meta.iloc[:0], "groupby_sizes")
    table_meta = number_groups(self.sort, bool(ascending), sizes_meta.iloc[:0])
    table = map_chunks(
        number_groups,
        [one_chunk(sizes)],
        (self.sort, bool(ascending), Slot(0)),
        table_meta,
        name="groupby_numbers",
        keeps_rows=False,
    )
    slots = tuple(Slot(i) for i in range(len(frames) + 1))
    return map_chunks(
        broadcast_rows,
        [*frames, table],
        (self._keys, meta, *slots),
        meta,
        name="groupby_ngroup",
        broadcast=frozenset({len(frames)}),
    )


GroupBy.ngroup = ngroup  # type: ignore[attr-defined]
