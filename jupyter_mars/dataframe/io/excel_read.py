"""``read_excel``: sheets of a workbook, read whole and split into row chunks.

The Excel readers (openpyxl...) parse a sheet from its start, so a range of rows costs
the rows before it too: ``read_excel`` reads the sheets with ``pandas.read_excel`` when
called and makes a lazy frame of each in chunks of ``chunk_size`` rows.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from jupyter_mars.dataframe.io.pickle_read import held


def read_excel(io: Any, sheet_name: Any = 0, *, chunk_size: Any = None, **kwargs: Any) -> Any:
    """``pandas.read_excel`` of the workbook ``io``, each sheet's frame a lazy one in
    chunks of ``chunk_size`` rows (a dict of them for several sheets, as in pandas)."""
    data = pd.read_excel(io, sheet_name=sheet_name, **kwargs)
    if isinstance(data, dict):
        return {name: held(frame, chunk_size) for name, frame in data.items()}
    return held(data, chunk_size)
